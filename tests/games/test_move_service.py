"""The one move service: locking, versions, idempotency, recording, bots after commit."""

import threading

import pytest
from django.db import connection

from games import engine as engines
from games.models import Game, Move
from games.services import SeatSpec, game_apply_move, game_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(classroom, student, ben):
    return game_create(key="multiplication", classroom=classroom, seed=5,
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)])


def seat(game, name):
    return game.seats.get(name=name)


def test_an_accepted_move_is_recorded_with_its_events_and_analysis(game):
    result = game_apply_move(game_id=game.pk, seat=seat(game, "Ann"), action={"type": "draw"},
                             expected_version=0, idempotency_key="k1")
    assert result.status == "applied"
    game.refresh_from_db()
    assert game.version == 1 and engines.get("multiplication").waiting_for(game.state) == ["Ben"]
    move = Move.objects.get(game=game)
    assert move.accepted and move.sequence == 0 and move.version_before == 0
    assert move.events and move.analysis and move.think_ms is not None


def test_an_illegal_move_is_recorded_as_evidence_and_changes_nothing(game):
    before = dict(game.state)
    result = game_apply_move(game_id=game.pk, seat=seat(game, "Ben"), action={"type": "draw"},
                             expected_version=0)
    assert result.status == "rejected" and result.code == "not_your_turn"
    assert "not your turn" in result.message.lower()
    game.refresh_from_db()
    assert game.version == 0 and game.state == before
    move = Move.objects.get(game=game)
    assert not move.accepted and move.error_code == "not_your_turn"


def test_malformed_action_is_rejected_not_crashing(game):
    for junk in (None, [], "draw", {"type": "draw", "extra": 1}, {"type": ["x"]}):
        result = game_apply_move(game_id=game.pk, seat=seat(game, "Ann"), action=junk, expected_version=0)
        assert result.status == "rejected" and result.code == "bad_action"
    game.refresh_from_db()
    assert game.version == 0


def test_a_duplicate_submission_is_answered_and_never_applied_twice(game):
    args = dict(game_id=game.pk, seat=seat(game, "Ann"), action={"type": "draw"}, idempotency_key="same")
    assert game_apply_move(expected_version=0, **args).status == "applied"
    again = game_apply_move(expected_version=1, **args)
    assert again.status == "duplicate" and "already received" in again.message
    game.refresh_from_db()
    assert game.version == 1 and Move.objects.filter(game=game).count() == 1


def test_a_stale_submission_is_refused(game):
    game_apply_move(game_id=game.pk, seat=seat(game, "Ann"), action={"type": "draw"}, expected_version=0)
    stale = game_apply_move(game_id=game.pk, seat=seat(game, "Ben"), action={"type": "draw"}, expected_version=0)
    assert stale.status == "stale" and "moved on" in stale.message
    game.refresh_from_db()
    assert game.version == 1


def test_bots_play_after_commit_until_a_human_is_needed(classroom, student, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = game_create(key="multiplication", classroom=classroom, seed=3,
                           seats=[SeatSpec("Bot", bot_level="player"), SeatSpec("Ann", user=student)])
    game.refresh_from_db()
    engine = engines.get("multiplication")
    assert game.version >= 1  # the bot opened the game
    assert engine.waiting_for(game.state) == ["Ann"] or game.state["finished"]
    bot_moves = Move.objects.filter(game=game, seat__name="Bot")
    assert bot_moves.exists() and all(m.accepted for m in bot_moves)


def test_a_game_of_bots_plays_to_the_end_and_records_winners(classroom, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = game_create(key="multiplication", classroom=classroom, seed=11,
                           seats=[SeatSpec("B1", bot_level="beginner"), SeatSpec("B2", bot_level="expert")])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at
    winners = set(game.state["winners"]) if "winners" in game.state else set(
        engines.get("multiplication").summary(game.state)["winners"])
    assert {s.name for s in game.seats.filter(is_winner=True)} == winners


@pytest.mark.django_db(transaction=True)
def test_two_threads_submitting_at_once_apply_exactly_one_move(classroom, student, make_student):
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    game = game_create(key="multiplication", classroom=classroom, seed=5,
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)])
    ann = seat(game, "Ann")
    barrier = threading.Barrier(2)
    results = []

    def submit(key):
        try:
            barrier.wait()
            results.append(game_apply_move(game_id=game.pk, seat=ann, action={"type": "draw"},
                                           expected_version=0, idempotency_key=key).status)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(k,)) for k in ("first", "second")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["applied", "stale"]
    game.refresh_from_db()
    assert game.version == 1 and Move.objects.filter(game=game, accepted=True).count() == 1
