"""The move's statements (games/services/move_store.py) store and read exactly what the ORM
would: a child's move read back through the ORM is the move they made, the game is the game,
and the table's "What just happened" list is kept with the game."""

import importlib

import pytest
from django.apps import apps as django_apps
from django.db import transaction
from django.utils import timezone

from games import registry
from games.models import RECENT_EVENTS, Game, Move, Seat
from games.rendering import table_push
from games.services import SeatSpec, game_apply_move, game_create
from games.services import move_store

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(classroom, student, ben):
    return game_create(key="multiplication", classroom=classroom, seed=5, options={"hand_size": 5},
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben),
                              SeatSpec("Robo", bot_level="beginner")])


def concrete(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def play(game: Game, action: dict | None = None, key: str = ""):
    game.refresh_from_db()
    engine = registry.spec_for(game.key).engine
    name = engine.waiting_for(game.state)[0]
    seat = game.seats.get(name=name)
    return game_apply_move(game_id=game.pk, seat=seat, action=action or {"type": "draw"},
                           expected_version=game.version, idempotency_key=key,
                           player_id=seat.user_id, schedule_bots=False)


def test_the_locked_game_and_seats_are_what_the_orm_reads(game, student):
    play(game, key="first")
    student.is_active = False
    student.save(update_fields=["is_active"])
    with transaction.atomic():
        locked, seats = move_store.lock_game(game_id=game.pk, idempotency_key="first")
    assert concrete(locked) == concrete(Game.objects.get(pk=game.pk))
    assert locked.last_sequence == 0 and locked.received is True
    assert [concrete(s) for s in seats] == [concrete(s) for s in Seat.objects.filter(game=game).order_by("position")]
    # Ann's account was switched off; Ben plays; Robo is a computer player with no account.
    assert [(s.name, s.holder_active) for s in seats] == [("Ann", False), ("Ben", True), ("Robo", False)]
    assert all(s.game is locked for s in seats)
    with transaction.atomic():
        other, _ = move_store.lock_game(game_id=game.pk, idempotency_key="never-sent")
    assert other.received is False


def test_a_game_that_does_not_exist_is_not_found(db):
    with transaction.atomic(), pytest.raises(Game.DoesNotExist):
        move_store.lock_game(game_id=987654, idempotency_key="")


def test_a_stored_move_reads_back_as_it_was_made(game):
    before = timezone.now()
    result = play(game, key="draw-1")
    assert result.applied
    stored = Move.objects.get(pk=result.move.pk)
    assert concrete(stored) == concrete(result.move)
    assert stored.action == {"type": "draw"} and stored.accepted and stored.events == result.events
    assert stored.idempotency_key == "draw-1" and stored.sequence == 0 and stored.version_before == 0
    assert before <= stored.created_at <= timezone.now()
    refused = play(game, action={"type": "discard", "card": 9999, "declare": [1, 1]})
    assert refused.status == "rejected"
    again = Move.objects.get(pk=refused.move.pk)
    assert not again.accepted and again.error_code == refused.code and again.sequence == 1
    game_now = Game.objects.get(pk=game.pk)
    assert concrete(game_now) == concrete(result.game)
    assert game_now.version == 1 and game_now.updated_at >= before


def test_the_log_keeps_the_last_moves_newest_last_and_refusals_change_nothing(game):
    played = []
    for i in range(RECENT_EVENTS + 3):
        result = play(game, key=f"k{i}")
        if not result.applied:
            break
        played.append(result.events)
        if i == 2:
            play(game, action={"type": "discard", "card": 9999, "declare": [1, 1]})
    game.refresh_from_db()
    assert game.recent_events == played[-RECENT_EVENTS:]
    # What the table shows is that list, described in words.
    engine = registry.spec_for(game.key).engine
    log = table_push(game_id=game.pk).views[str(game.seats.get(name="Ann").pk)]["log"]
    newest = [engine.describe_event(e) for e in played[-1] if engine.describe_event(e)]
    assert newest and newest[-1] in log


def test_games_from_before_the_log_was_kept_get_their_last_moves(game):
    """The migration that added the field fills it from the moves already played."""
    events = [play(game, key=f"m{i}").events for i in range(RECENT_EVENTS + 2)]
    Game.objects.filter(pk=game.pk).update(recent_events=[])
    migration = importlib.import_module("games.migrations.0004_game_recent_events")
    migration.fill_recent_events(django_apps, None)
    game.refresh_from_db()
    assert game.recent_events == events[-RECENT_EVENTS:]
