"""A step after a move's commit that fails (PostgreSQL restarting just then, Redis away) must
not stall the game (docs/play.md, "A move's path after commit"): left alone, the move would stand
with no push and no computer player's move after it, and the open page would stay silent.

Now a computer player's turn that lasted far longer than its pause is woken again, by Celery
beat's sweep (`wake_stalled_bots`) and by the page: when it has heard nothing for a while it
sends `{"sync": version}` and gets the table as it is now (games/consumers/table.py).
"""

import json
from datetime import timedelta

import pytest
from django.db import OperationalError
from django.utils import timezone

from games import realtime, registry
from games.models import Game, Move
from games.services import SeatSpec, after_commit, game_apply_move, game_create
from tests.sockets import connect_as

pytestmark = pytest.mark.django_db(transaction=True)

ENGINE = registry.spec_for("multiplication").engine


@pytest.fixture
def game(classroom, student):
    """Ann against a computer player; Ann moves first."""
    game = game_create(key="multiplication", classroom=classroom, seed=3,
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="expert")])
    assert ENGINE.waiting_for(game.state) == ["Ann"]
    return game


@pytest.fixture
def after_commit_fails(monkeypatch):
    """Every step after a commit fails, as when the database connection died just after it."""
    def gone(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(realtime, "broadcast_game_changed", gone)
    monkeypatch.setattr(after_commit, "wake_bots", gone)


def anns_move(game) -> dict:
    return ENGINE.legal_actions(game.state, "Ann")[0]


def bot_moves(game) -> int:
    return Move.objects.filter(game=game, seat__name="Robo", accepted=True).count()


def test_the_sweep_wakes_a_computer_player_whose_wake_up_was_lost(game, after_commit_fails):
    from games.tasks import wake_stalled_bots

    ann = game.seats.get(name="Ann")
    assert game_apply_move(game_id=game.pk, seat=ann, action=anns_move(game), expected_version=0,
                           idempotency_key="ann-move-0001").applied
    assert bot_moves(game) == 0  # the wake-up was lost with the after-commit step
    assert wake_stalled_bots() == 0  # a turn that just started is not stalled
    assert bot_moves(game) == 0
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=30))
    assert wake_stalled_bots() == 1
    assert bot_moves(game) >= 1
    again = Game.objects.get(pk=game.pk)
    assert "Ann" in ENGINE.waiting_for(again.state) or again.state.get("finished")


@pytest.mark.asyncio
async def test_a_page_that_hears_nothing_asks_and_gets_the_table_with_the_bots_move(
        game, student, after_commit_fails, settings):
    settings.BOT_STALL_SECONDS = 0  # "a while" has passed as soon as the page asks
    comm = connect_as(student, game.pk, query="v=0")
    assert (await comm.connect())[0]
    await comm.send_to(text_data=json.dumps({
        "action": json.dumps(anns_move(game)), "expected_version": "0",
        "idempotency_key": "ann-move-0002", "HEADERS": {"HX-Request": "true"}}))
    assert await comm.receive_nothing(timeout=0.5)  # committed, but nobody was told
    assert await Move.objects.filter(game=game, accepted=True).acount() == 1

    await comm.send_to(text_data=json.dumps({"sync": 0}))
    reply = await comm.receive_from(timeout=10)
    now = await Game.objects.aget(pk=game.pk)
    assert now.version >= 2  # Ann's move, then the computer player's
    assert f'data-version="{now.version}"' in reply
    await comm.disconnect()


@pytest.mark.asyncio
async def test_a_sync_when_nothing_changed_sends_nothing(game, student):
    comm = connect_as(student, game.pk, query="v=0")
    assert (await comm.connect())[0]
    await comm.send_to(text_data=json.dumps({"sync": 0}))
    assert await comm.receive_nothing(timeout=0.5)
    assert not await Move.objects.filter(game=game).aexists()  # a sync is never a move
    await comm.disconnect()
