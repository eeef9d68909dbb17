"""The student's arena socket: the current fragment at once, the table's address when a round
seats them, only to players of the arena, and only ever their own news."""

import html

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from arena.services import (arena_create, arena_join, arena_pause, arena_rest, arena_round,
                            arena_start)
from config.asgi import application
from games.services.tables import game_leave

from tests.sockets import cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


def connect_me(user, arena_id: int) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
    if user is not None:
        headers.append((b"cookie", cookie_for(user)))
    return WebsocketCommunicator(application, f"/ws/arena/{arena_id}/me/", headers=headers)


@pytest.fixture
def children(make_student, classroom, student):
    return [student] + [make_student(classroom, name, ("boat", "star", "apple"))
                        for name in ("Ben", "Cat", "Dan")]


@pytest.fixture
def arena(teacher, classroom):
    return arena_create(teacher=teacher, classroom=classroom, title="Friday arena",
                        key="smooth_operator", options={"target": 200}, minutes=10, mode="points")


async def opened(user, arena_id):
    comm = connect_me(user, arena_id)
    connected, _ = await comm.connect()
    assert connected
    return comm, await comm.receive_from(timeout=5)


@pytest.mark.asyncio
async def test_a_waiting_player_is_sent_to_their_own_table_when_a_round_seats_them(children, arena):
    ann, ben = children[:2]
    for child in (ann, ben):
        await sync_to_async(arena_join)(student=child, arena_id=arena.pk)
    await sync_to_async(arena_start)(arena_id=arena.pk)
    comm, first = await opened(ann, arena.pk)
    assert 'id="arena-me-live"' in first and "Finding someone to play with…" in first
    assert "data-go" not in first
    report = await sync_to_async(arena_round)(arena_id=arena.pk, force=True)
    [game_id] = report.tables
    seated = await comm.receive_from(timeout=5)
    assert f'data-go="/game/{game_id}/"' in seated and "Your game is ready: go to your table" in seated
    await comm.disconnect()
    # A reload (a new socket) while seated is sent to the table at once.
    comm, again = await opened(ann, arena.pk)
    assert f'data-go="/game/{game_id}/"' in again
    await comm.disconnect()


@pytest.mark.asyncio
async def test_only_players_of_this_arena_may_listen(children, arena, teacher):
    ann, ben = children[:2]
    await sync_to_async(arena_join)(student=ann, arena_id=arena.pk)
    for user in (ben, teacher, None):  # a classmate who has not joined, the teacher, a stranger
        connected, code = await connect_me(user, arena.pk).connect()
        assert not connected and code == 4403


@pytest.mark.asyncio
async def test_a_student_hears_only_about_their_own_table(children, arena):
    ann, ben, cat, dan = children
    for child in children:
        await sync_to_async(arena_join)(student=child, arena_id=arena.pk)
    await sync_to_async(arena_start)(arena_id=arena.pk)
    report = await sync_to_async(arena_round)(arena_id=arena.pk, force=True)
    assert len(report.tables) == 2
    sockets = {}
    for child in children:
        sockets[child.pk] = await opened(child, arena.pk)
    ann_table = sockets[ann.pk][1].split('data-go="')[1].split('"')[0]
    partner = next(c for c in (ben, cat, dan) if ann_table in sockets[c.pk][1])
    others = [c for c in (ben, cat, dan) if c is not partner]
    for child in others:  # the other table's children were sent their own table, not Ann's
        assert ann_table not in sockets[child.pk][1] and 'data-go="/game/' in sockets[child.pk][1]
    # Ann walks away: her table stops and is counted; she and her partner hear of it...
    game_id = int(ann_table.strip("/").split("/")[-1])
    await sync_to_async(game_leave)(student=ann, game_id=game_id)
    await sync_to_async(arena_round)(arena_id=arena.pk, force=True)
    counted = await sockets[ann.pk][0].receive_from(timeout=5)
    assert "You left your last game, so it counted as a loss." in counted
    assert "data-go" not in counted
    heard = await sockets[partner.pk][0].receive_from(timeout=5)
    assert "You won your last game: +2 points" in heard
    # ...and the children at the other table, still playing, hear nothing.
    for child in others:
        assert await sockets[child.pk][0].receive_nothing(timeout=0.5)
    for comm, _ in sockets.values():
        await comm.disconnect()


@pytest.mark.asyncio
async def test_the_start_and_a_pause_reach_the_page_and_a_reload_is_current(children, arena):
    ann = children[0]
    await sync_to_async(arena_join)(student=ann, arena_id=arena.pk)
    comm, first = await opened(ann, arena.pk)
    assert "Waiting for your teacher to start…" in first
    await sync_to_async(arena_start)(arena_id=arena.pk)
    assert "Finding someone to play with…" in await comm.receive_from(timeout=5)
    await sync_to_async(arena_pause)(arena_id=arena.pk)
    paused = await comm.receive_from(timeout=5)
    assert "Your teacher paused the arena. Games going on can finish." in paused
    await sync_to_async(arena_rest)(student=ann, arena_id=arena.pk)
    await comm.disconnect()
    comm, rested = await opened(ann, arena.pk)
    rested = html.unescape(rested)
    assert "Your teacher paused the arena." in rested and "I'm ready to play" in rested
    await comm.disconnect()
