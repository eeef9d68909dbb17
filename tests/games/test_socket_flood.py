"""Each game or lobby socket has a message budget (a token bucket: a burst of SOCKET_BURST,
then SOCKET_MAX_MESSAGES_PER_SECOND): a flood is told so and closed with 4429, and what it
sent beyond the budget is never applied. Normal play never comes near it."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from live.guard import TokenBucket
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


# ----- per person, across all their sockets (live/limits.py) -----------------------

@pytest.fixture
def five_tables(classroom, student, ben):
    from games.services import SeatSpec, game_create

    return [game_create(key="smooth_operator", classroom=classroom, seed=9 + n, options={"target": 200},
                        seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)])
            for n in range(5)]


async def answers_until_quiet(comm) -> tuple[int, int | None]:
    """How many messages a socket got before it closed (its code) or went quiet (None)."""
    got = 0
    while True:
        if await comm.receive_nothing(timeout=2):  # (a receive that times out would end the socket)
            return got, None
        output = await comm.receive_output(timeout=1)
        if output["type"] == "websocket.close":
            return got, output.get("code")
        got += 1


@pytest.mark.asyncio
async def test_twenty_sockets_of_one_child_store_at_most_the_limit_and_raise_no_flag(
        five_tables, student, classroom, settings):
    """A flood from one account: 20 sockets (4 on each of 5 games), 300 junk moves at once.
    Before, every socket had its own budget: all 300 were stored as rule errors and the child
    was flagged "many rule errors". Now the account has one budget: at most its limit is
    stored, and what a flood left is no evidence."""
    from reports.models import NeedsHelpFlag, SkillEvidence
    from reports.services import class_flags_refresh, games_reports_compute

    settings.USER_MOVES_PER_WINDOW, settings.USER_MOVE_WINDOW_SECONDS = 20, 10
    comms = []
    for game in five_tables:
        for _ in range(4):
            comm = connect_as(student, game.pk, query=f"v={game.version}")
            assert (await comm.connect())[0]
            comms.append((comm, game))

    async def flood(comm, game, first):
        for n in range(first, first + 15):
            await comm.send_to(text_data=junk_move(game, n))

    await asyncio.gather(*(flood(comm, game, 15 * i) for i, (comm, game) in enumerate(comms)))
    outcomes = await asyncio.gather(*(answers_until_quiet(comm) for comm, _ in comms))
    for comm, _ in comms:
        await comm.disconnect()
    assert any(code == 4429 for _, code in outcomes)  # the flood was told so
    ids = [g.pk for g in five_tables]
    stored = await Move.objects.filter(game_id__in=ids).acount()
    assert stored <= settings.USER_MOVES_PER_WINDOW  # not 300
    assert not await Move.objects.filter(game_id__in=ids, accepted=True).aexists()

    # Once the games are over, the reports find nothing to hold against the child.
    await Game.objects.filter(pk__in=ids).aupdate(status=Game.Status.FINISHED)
    await sync_to_async(games_reports_compute)(game_ids=ids, force=True)
    await sync_to_async(class_flags_refresh)(classroom_id=classroom.pk)
    assert not await SkillEvidence.objects.filter(student=student, measure="all.rule_errors", missed=True).aexists()
    assert not await NeedsHelpFlag.objects.filter(student=student).aexists()


@pytest.mark.asyncio
async def test_a_slow_player_at_many_tables_is_never_refused(five_tables, student, settings):
    """The limit is per account but generous: a few moves at each of several tables pass."""
    settings.USER_MOVES_PER_WINDOW = 20
    for game in five_tables:
        comm = connect_as(student, game.pk, query=f"v={game.version}")
        assert (await comm.connect())[0]
        for n in range(3):
            await comm.send_to(text_data=junk_move(game, 100 * game.pk + n))
            reply = await comm.receive_from(timeout=10)
            assert TOO_MANY not in reply and 'id="table-notice"' in reply
        await comm.disconnect()
    assert await Move.objects.filter(game__in=five_tables).acount() == 15


@pytest.mark.asyncio
async def test_a_fifth_window_on_one_game_is_told_and_closed(table, settings):
    game, ann, _ = table
    settings.SOCKETS_PER_GAME = 4
    open_ones = []
    for _ in range(4):
        comm = connect_as(ann, game.pk, query=f"v={game.version}")
        assert (await comm.connect())[0]
        open_ones.append(comm)
    fifth = connect_as(ann, game.pk, query=f"v={game.version}")
    assert (await fifth.connect())[0]
    texts, code = await until_closed(fifth)
    assert code == 4409 and "already open in other windows" in texts[-1]
    await fifth.wait()
    # Closing one window makes room again.
    await open_ones.pop().disconnect()
    again = connect_as(ann, game.pk, query=f"v={game.version}")
    assert (await again.connect())[0]
    assert await again.receive_nothing(timeout=0.3)  # open, and nothing to say
    for comm in open_ones + [again]:
        await comm.disconnect()
