"""The game WebSocket: who may connect, what each viewer receives, and bad messages."""

import json
import re

import pytest
from asgiref.sync import sync_to_async

from games import registry
from games.models import Game, Move
from tests.sockets import connect_as, off_loop

pytestmark = pytest.mark.django_db(transaction=True)


def move_message(game, action, key="k" * 12, **extra):
    return json.dumps({"action": json.dumps(action), "expected_version": str(game.version),
                       "idempotency_key": key, "HEADERS": {"HX-Request": "true"}, **extra})


def waiting_player(game):
    off_loop(game.refresh_from_db)
    return registry.spec_for(game.key).engine.waiting_for(game.state)[0]


@pytest.mark.asyncio
async def test_a_seated_student_gets_the_whole_table_on_connect(table):
    game, ann, _ = table
    comm = connect_as(ann, game.pk)
    connected, _ = await comm.connect()
    assert connected
    html = await comm.receive_from(timeout=5)
    assert 'id="table-status"' in html and 'hx-swap-oob="true"' in html and "Ann (you)" in html
    await comm.disconnect()


@pytest.mark.asyncio
async def test_outsiders_cannot_connect(table, make_classroom, make_student, make_teacher):
    game, _, _ = table
    other_teacher = off_loop(make_teacher)
    stranger = off_loop(lambda: make_student(make_classroom(other_teacher, name="Other", join_code="QQQ234"), "Zed"))
    for user in (None, stranger, other_teacher):
        comm = connect_as(user, game.pk)
        connected, code = await comm.connect()
        assert not connected and code == 4403


@pytest.mark.asyncio
async def test_the_class_teacher_watches_read_only_with_every_hand(table, teacher):
    game, _, _ = table
    comm = connect_as(teacher, game.pk)
    assert (await comm.connect())[0]
    html = await comm.receive_from(timeout=5)
    assert "Everyone&#x27;s cards (teacher view)" in html or "Everyone's cards (teacher view)" in html
    await comm.send_to(text_data=move_message(game, {"type": "end_turn"}))
    reply = await comm.receive_from(timeout=5)
    assert "You are watching this game" in reply
    assert not await Move.objects.filter(game=game).aexists()
    await comm.disconnect()


@pytest.mark.asyncio
async def test_bad_messages_get_an_error_to_the_sender_only_and_change_nothing(table):
    game, ann, ben = table
    a, b = connect_as(ann, game.pk), connect_as(ben, game.pk)
    await a.connect(), await b.connect()
    await a.receive_from(timeout=5), await b.receive_from(timeout=5)
    for junk in ("not json", json.dumps([1, 2]), json.dumps({"action": "{}", "expected_version": "0"}),
                 json.dumps({"action": "{}", "expected_version": "0", "idempotency_key": "x" * 12, "evil": 1}),
                 move_message(game, {"type": "play"}, key="short")):
        await a.send_to(text_data=junk)
        reply = await a.receive_from(timeout=5)
        assert 'class="alert alert-error"' in reply
    assert await b.receive_nothing(timeout=0.3)
    assert not await Move.objects.filter(game=game).aexists()
    await a.disconnect(), await b.disconnect()


@pytest.mark.asyncio
async def test_a_move_reaches_every_viewer_each_with_their_own_view(table):
    game, ann, ben = table
    first = await Game.objects.aget(pk=game.pk)
    mover_name = await sync_to_async(waiting_player)(first)
    mover, other = (ann, ben) if mover_name == "Ann" else (ben, ann)
    m, o = connect_as(mover, game.pk), connect_as(other, game.pk)
    await m.connect(), await o.connect()
    await m.receive_from(timeout=5), await o.receive_from(timeout=5)
    state = first.state
    card = next(c for c in state["hands"][mover_name] if c in "+-x")
    await m.send_to(text_data=move_message(first, {"type": "play", "card": card}, key="move-0001"))
    mover_html, other_html = await m.receive_from(timeout=5), await o.receive_from(timeout=5)
    game_now = await Game.objects.aget(pk=game.pk)
    assert game_now.version == 1
    other_name = other.display_name
    for html, viewer in ((mover_html, mover_name), (other_html, other_name)):
        assert f"{viewer} (you)" in html
        assert f"played" in html  # the move is told in words to both
    await m.disconnect(), await o.disconnect()

# Hidden cards, for every game: tests/games/test_hidden_cards.py


@pytest.mark.asyncio
async def test_a_student_cannot_act_for_another_seat(table):
    """Whatever the message says, a move is made for the sender's own seat: naming another
    player in it is refused as the sender's own out-of-turn attempt, and nothing changes."""
    game, ann, ben = table
    first = await Game.objects.aget(pk=game.pk)
    mover_name = await sync_to_async(waiting_player)(first)
    idle, idle_name = (ben, "Ben") if mover_name == "Ann" else (ann, "Ann")
    comm = connect_as(idle, game.pk)
    await comm.connect()
    await comm.receive_from(timeout=5)
    card = next(c for c in first.state["hands"][mover_name] if c in "+-x")
    await comm.send_to(text_data=move_message(first, {"type": "play", "card": card, "player": mover_name},
                                              key="impostor-01"))
    reply = await comm.receive_from(timeout=5)
    assert "It is not your turn" in reply or "not your turn" in reply.lower()
    after = await Game.objects.aget(pk=game.pk)
    assert after.version == first.version and after.state == first.state
    move = await Move.objects.select_related("seat").aget(game=game)
    assert move.seat.name == idle_name and not move.accepted and move.error_code == "not_your_turn"
    await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.parametrize("junk", [
    '{"action": NaN, "expected_version": "0", "idempotency_key": "kkkkkkkkkkkk"}',
    '{"action": "{\\"type\\": Infinity}", "expected_version": "0", "idempotency_key": "kkkkkkkkkkkk"}',
    '{"action": "{\\"type\\": \\"\\\\u0000\\"}", "expected_version": "0", "idempotency_key": "kkkkkkkkkkkk"}',
    '{"action": "{\\"type\\": \\"\\\\ud800\\"}", "expected_version": "0", "idempotency_key": "kkkkkkkkkkkk"}',
    '{"action": "{}\u0000", "expected_version": "0", "idempotency_key": "kkkkkkkkkkkk"}',
    '{"action": "{}", "expected_version": "0", "idempotency_key": "kkkkkkkkkkkk", "x": ' + "[" * 3000 + "]" * 3000 + "}",
    '{"action": "' + "[" * 400 + "]" * 400 + '", "expected_version": "0", "idempotency_key": "kkkkkkkkkkkk"}',
], ids=["nan", "infinity", "nul", "lone-surrogate", "raw-nul", "deep-message", "deep-action"])
async def test_strange_json_gets_a_notice_and_the_socket_stays_open(table, junk):
    game, ann, _ben = table
    a = connect_as(ann, game.pk)
    await a.connect()
    await a.receive_from(timeout=5)
    await a.send_to(text_data=junk)
    reply = await a.receive_from(timeout=5)
    assert 'class="alert alert-error"' in reply
    assert "could not be read" in reply or "too long" in reply
    # Still open and still working: a real move is answered.
    player = waiting_player(game)
    assert player in ("Ann", "Ben")
    await a.send_to(text_data=move_message(game, {"type": "nonsense"}, key="m" * 12))
    assert 'class="alert alert-error"' in await a.receive_from(timeout=5)
    assert not await Move.objects.filter(game=game, error_code="").aexists()
    await a.disconnect()


@pytest.mark.asyncio
async def test_a_move_resent_after_a_reconnect_is_applied_once_and_answered_calmly(table):
    """The page keeps a move it had no answer for and re-sends it, with the same idempotency
    key, when its socket reconnects: the move counts once, and the second answer is the table
    as it is now, without an error."""
    game, ann, ben = table
    first = await Game.objects.aget(pk=game.pk)
    mover_name = await sync_to_async(waiting_player)(first)
    mover = ann if mover_name == "Ann" else ben
    card = next(c for c in first.state["hands"][mover_name] if c in "+-x")
    sent = move_message(first, {"type": "play", "card": card}, key="resent-move-01")
    dropped = connect_as(mover, game.pk)
    await dropped.connect()
    await dropped.receive_from(timeout=5)
    await dropped.send_to(text_data=sent)
    await dropped.receive_from(timeout=5)  # the broadcast the page never saw: the socket dropped
    await dropped.disconnect()

    again = connect_as(mover, game.pk)
    await again.connect()
    on_connect = await again.receive_from(timeout=5)
    assert 'data-version="1"' in on_connect
    await again.send_to(text_data=sent)  # the page's resend, same key
    reply = await again.receive_from(timeout=5)
    assert 'data-version="1"' in reply and 'id="table-board"' in reply
    assert "alert-error" not in reply and "already" not in reply
    assert await again.receive_nothing(timeout=0.3)
    after = await Game.objects.aget(pk=game.pk)
    assert after.version == 1
    assert await Move.objects.filter(game=game, idempotency_key="resent-move-01").acount() == 1
    await again.disconnect()


@pytest.mark.asyncio
async def test_a_double_tap_sends_the_move_once(table):
    """Two sends of one form on the same socket: applied once, no error for the second."""
    game, ann, ben = table
    first = await Game.objects.aget(pk=game.pk)
    mover_name = await sync_to_async(waiting_player)(first)
    mover = ann if mover_name == "Ann" else ben
    card = next(c for c in first.state["hands"][mover_name] if c in "+-x")
    sent = move_message(first, {"type": "play", "card": card}, key="double-tap-01")
    comm = connect_as(mover, game.pk)
    await comm.connect()
    await comm.receive_from(timeout=5)
    await comm.send_to(text_data=sent)
    await comm.send_to(text_data=sent)
    replies = [await comm.receive_from(timeout=5), await comm.receive_from(timeout=5)]
    assert all("alert-error" not in r for r in replies)
    assert (await Game.objects.aget(pk=game.pk)).version == 1
    assert await Move.objects.filter(game=game).acount() == 1
    await comm.disconnect()
