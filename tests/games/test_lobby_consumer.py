"""The lobby WebSocket: who has joined shows up live, a started game takes everyone to the
table, and only the class (and its teachers) may listen."""

import pytest
from asgiref.sync import sync_to_async

from games.services.tables import table_join, table_open, table_start

from tests.sockets import connect_as

pytestmark = pytest.mark.django_db(transaction=True)


def connect_lobby(user, game_id):
    return connect_as(user, game_id, socket="lobby")


@pytest.fixture
def lobby(classroom, student, ben):
    game = table_open(student=student, key="multiplication")
    return game, student, ben


@pytest.mark.asyncio
async def test_the_host_sees_a_classmate_join_and_is_sent_to_the_table_on_start(lobby):
    game, ann, ben = lobby
    comm = connect_lobby(ann, game.pk)
    assert (await comm.connect())[0]
    first = await comm.receive_from(timeout=5)
    assert 'id="lobby"' in first and "<strong>Ben</strong>" not in first and game.table_code in first
    await sync_to_async(table_join)(student=ben, game_id=game.pk)
    joined = await comm.receive_from(timeout=5)
    assert "<strong>Ben</strong>" in joined and "Start the game" in joined
    await sync_to_async(table_start)(host=ann, game_id=game.pk)
    started = await comm.receive_from(timeout=5)
    assert f'data-go="/game/{game.pk}/"' in started and "The game has started" in started
    await comm.disconnect()


@pytest.mark.asyncio
async def test_the_teacher_may_listen_but_another_class_and_strangers_may_not(
        lobby, teacher, make_teacher, make_classroom, make_student):
    game, _, _ = lobby
    comm = connect_lobby(teacher, game.pk)
    assert (await comm.connect())[0]
    assert "You are watching this table" in await comm.receive_from(timeout=5)
    await comm.disconnect()
    other = await sync_to_async(make_classroom)(await sync_to_async(make_teacher)(), name="7C",
                                                join_code="QQQ777")
    zed = await sync_to_async(make_student)(other, "Zed", ("cat", "sun", "tree"))
    for user in (zed, other.owner, None):
        comm = connect_lobby(user, game.pk)
        connected, code = await comm.connect()
        assert not connected


@pytest.mark.asyncio
async def test_the_game_socket_of_a_table_not_yet_dealt_refuses_politely(lobby):
    game, ann, _ = lobby
    connected, code = await connect_as(ann, game.pk).connect()
    assert not connected and code == 4403
