"""What a move costs the server does not grow with the sockets watching, and a socket is sent
only what changed.

Every query of every thread is counted (the mover's socket, the push, each watching socket),
by wrapping Django's cursor for the duration of one move."""

import json
import threading
from contextlib import contextmanager

import pytest
from django.db.backends import utils as db_utils

from games import registry
from games.models import Game
from games.services import SeatSpec, game_create
from tests.sockets import connect_as

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(classroom, student, ben):
    game = game_create(key="multiplication", classroom=classroom, seed=5, options={"hand_size": 5},
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)])
    return game, {"Ann": student, "Ben": ben}


@contextmanager
def all_queries():
    """Count the SQL statements run by any thread while the block runs."""
    counted: list[str] = []
    lock = threading.Lock()
    original = db_utils.CursorWrapper.execute

    def execute(self, sql, params=None):
        with lock:
            counted.append(sql)
        return original(self, sql, params)

    db_utils.CursorWrapper.execute = execute
    try:
        yield counted
    finally:
        db_utils.CursorWrapper.execute = original


def draw_message(game: Game, key: str) -> str:
    return json.dumps({"action": json.dumps({"type": "draw"}), "expected_version": str(game.version),
                       "idempotency_key": key})


async def one_move_with(sockets_per_player: int, game_id: int, users: dict, key: str) -> int:
    """Queries for one move (a draw) with this many sockets open for each player, counted
    from the message leaving the mover's page until every socket has its update."""
    game = await Game.objects.aget(pk=game_id)
    mover = registry.spec_for(game.key).engine.waiting_for(game.state)[0]
    sockets = {name: [connect_as(user, game_id) for _ in range(sockets_per_player)]
               for name, user in users.items()}
    everyone = [s for group in sockets.values() for s in group]
    for socket in everyone:
        assert (await socket.connect())[0]
        await socket.receive_from(timeout=5)
    with all_queries() as counted:
        await sockets[mover][0].send_to(text_data=draw_message(game, key))
        for socket in everyone:
            assert f'data-version="{game.version + 1}"' in await socket.receive_from(timeout=5)
    for socket in everyone:
        await socket.disconnect()
    return len(counted)


@pytest.mark.asyncio
async def test_queries_per_move_and_push_do_not_grow_with_the_sockets_watching(table):
    game, users = table
    await one_move_with(1, game.pk, users, key="cost-move-00")  # the first move of a game
    one_each = await one_move_with(1, game.pk, users, key="cost-move-01")
    four_each = await one_move_with(4, game.pk, users, key="cost-move-02")
    assert one_each == four_each, (one_each, four_each)
    print("queries per move and push:", one_each)
    # The locking query, the seats (the sender's right to play, and the push's) with the key
    # and sequence checks, the move's insert and the game's update: four on PostgreSQL,
    # SQLite adds its BEGIN. The push itself reads nothing: the log is kept with the game.
    assert one_each <= 5


@pytest.mark.asyncio
async def test_a_push_sends_each_socket_only_the_parts_that_changed(table):
    game, users = table
    mover = registry.spec_for(game.key).engine.waiting_for(game.state)[0]
    other = "Ben" if mover == "Ann" else "Ann"
    m, o = connect_as(users[mover], game.pk), connect_as(users[other], game.pk)
    await m.connect(), await o.connect()
    first = await o.receive_from(timeout=5)
    await m.receive_from(timeout=5)
    for part in ("table-status", "table-notice", "table-board", "table-scores", "table-log"):
        assert f'id="{part}"' in first  # the whole table on connect
    await m.send_to(text_data=draw_message(game, "parts-move-1"))
    update = await o.receive_from(timeout=5)
    assert 'id="table-board"' in update and 'id="table-status"' in update
    assert 'id="table-notice"' not in update  # nothing to say, and nothing was said before
    await m.disconnect(), await o.disconnect()


@pytest.mark.asyncio
async def test_a_page_that_shows_the_current_table_is_not_sent_it_again(table):
    """The page was rendered at this version: a second copy of the board over the socket would
    only race the child's first taps (and wipe a half-made choice)."""
    game, users = table
    current = connect_as(users["Ann"], game.pk, query=f"v={game.version}")
    stale = connect_as(users["Ben"], game.pk, query=f"v={game.version + 7}")
    assert (await current.connect())[0] and (await stale.connect())[0]
    assert 'id="table-board"' in await stale.receive_from(timeout=5)  # not what the page shows
    assert await current.receive_nothing(timeout=0.5)
    mover = registry.spec_for(game.key).engine.waiting_for(game.state)[0]
    sender = current if mover == "Ann" else stale
    await sender.send_to(text_data=draw_message(game, "connect-move-1"))
    assert f'data-version="{game.version + 1}"' in await current.receive_from(timeout=5)
    await current.disconnect(), await stale.disconnect()
