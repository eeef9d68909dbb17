"""Each game or lobby socket has a message budget (a token bucket: a burst of SOCKET_BURST,
then SOCKET_MAX_MESSAGES_PER_SECOND): a flood is told so and closed with 4429, and what it
sent beyond the budget is never applied. Normal play never comes near it."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from games.consumers.guard import TokenBucket
from games.models import Game, Move
from games.services.tables import table_open
from tests.sockets import connect_as

pytestmark = pytest.mark.django_db(transaction=True)

TOO_MANY = "Too many messages at once: reload the page to carry on."


def junk_move(game, n):
    return json.dumps({"action": json.dumps({"type": "nonsense"}), "expected_version": str(game.version),
                       "idempotency_key": f"flood-{n:06d}", "HEADERS": {"HX-Request": "true"}})


async def until_closed(comm):
    texts = []
    while True:
        output = await comm.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            return texts, output.get("code")
        texts.append(output.get("text", ""))


@pytest.mark.asyncio
async def test_a_burst_of_100_messages_closes_the_socket_and_is_not_applied(table, settings):
    game, ann, _ = table
    before = await Game.objects.aget(pk=game.pk)
    comm = connect_as(ann, game.pk)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    for n in range(100):
        await comm.send_to(text_data=junk_move(before, n))
    texts, code = await until_closed(comm)
    assert code == 4429
    assert TOO_MANY in texts[-1]
    await comm.disconnect()  # waits for a move that was under way when the flood was seen
    recorded = await Move.objects.filter(game=game).acount()
    assert recorded <= settings.SOCKET_BURST  # far fewer than 100
    await asyncio.sleep(0.3)
    assert await Move.objects.filter(game=game).acount() == recorded  # nothing queued behind
    after = await Game.objects.aget(pk=game.pk)
    assert after.version == before.version and after.state == before.state
    assert not await Move.objects.filter(game=game, accepted=True).aexists()


@pytest.mark.asyncio
async def test_quick_taps_are_all_answered(table):
    """A child tapping fast (a double tap, a few buttons in a row) is never refused."""
    game, ann, _ = table
    before = await Game.objects.aget(pk=game.pk)
    comm = connect_as(ann, game.pk)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    for n in range(12):
        await comm.send_to(text_data=junk_move(before, n))
    for _ in range(12):
        reply = await comm.receive_from(timeout=10)
        assert TOO_MANY not in reply and 'id="table-notice"' in reply
    assert await comm.receive_nothing(timeout=0.3)
    assert await Move.objects.filter(game=game).acount() == 12
    await comm.disconnect()


@pytest.mark.asyncio
async def test_a_flooded_lobby_socket_is_closed_too(classroom, student):
    game = await Game.objects.aget(pk=(await _open(student)).pk)
    comm = connect_as(student, game.pk, socket="lobby")
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    for n in range(60):
        await comm.send_to(text_data="{}")
    texts, code = await until_closed(comm)
    assert code == 4429 and TOO_MANY in texts[-1]
    await comm.disconnect()


async def _open(student):
    return await sync_to_async(table_open)(student=student, key="multiplication")


def test_the_bucket_allows_a_burst_then_a_steady_rate():
    now = [0.0]
    bucket = TokenBucket(rate=10, burst=20, clock=lambda: now[0])
    assert all(bucket.take() for _ in range(20))
    assert not bucket.take()
    now[0] += 0.1  # one more after a tenth of a second
    assert bucket.take() and not bucket.take()
    now[0] += 60  # refills up to the burst, not beyond
    assert sum(bucket.take() for _ in range(40)) == 20
    # Steady play at 5 messages a second never runs dry.
    for _ in range(200):
        now[0] += 0.2
        assert bucket.take()
