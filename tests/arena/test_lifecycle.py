"""An arena from the teacher's controls and the students' buttons: creating it (bad choices
get a clear reason and make nothing), joining, starting, pausing and resuming the clock,
ending early (games finish or are stopped), a break and coming back."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from arena.models import Arena, ArenaGame, ArenaPlayer, ArenaResult
from arena.services.lifecycle import (ArenaError, arena_back, arena_create, arena_end,
                                      arena_join, arena_pause, arena_rest, arena_resume,
                                      arena_start, arena_take_out)
from arena.services.rounds import arena_round, bot_after_seconds
from games.models import Game
from tests.conftest import need

from .conftest import finish_game, game_of, later, player, race_with_a_held_count

pytestmark = pytest.mark.django_db

Status = ArenaPlayer.Status


@pytest.mark.parametrize("key, minutes, size, message", [
    ("numero_solitaire", 10, None, "Choose a game classmates can play together."),
    ("smooth_operator", 2, None, "An arena lasts from 5 to 40 minutes."),
    ("smooth_operator", 41, None, "An arena lasts from 5 to 40 minutes."),
    ("add_or_multiply", 10, 2, "played by 3 to 3 players"),
])
def test_bad_choices_are_refused_with_a_reason_and_make_nothing(teacher, classroom, key, minutes,
                                                                 size, message):
    with pytest.raises(ArenaError, match=message):
        arena_create(teacher=teacher, classroom=classroom, title="", key=key, options={},
                     minutes=minutes, mode=Arena.Mode.POINTS, table_size=size)
    assert not Arena.objects.exists()


def test_only_the_class_may_join_and_joining_twice_is_one_place(make_students, make_arena,
                                                                  other_student):
    ann, = make_students(1)
    arena = make_arena([], started=False)

    first = arena_join(student=ann, arena_id=arena.pk)
    again = arena_join(student=ann, arena_id=arena.pk)
    assert first.pk == again.pk and first.status == Status.WAITING
    with pytest.raises(ArenaError, match="not for your class"):
        arena_join(student=other_student, arena_id=arena.pk)
    assert arena.players.count() == 1


def test_start_needs_somebody_and_happens_once(make_students, make_arena):
    arena = make_arena([], started=False)
    with pytest.raises(ArenaError, match="Nobody has joined yet"):
        arena_start(arena_id=arena.pk)

    ann, = make_students(1)
    arena_join(student=ann, arena_id=arena.pk)
    arena = arena_start(arena_id=arena.pk)
    assert arena.status == Arena.Status.RUNNING
    assert arena.ends_at - arena.started_at == timedelta(minutes=10)
    with pytest.raises(ArenaError, match="already started"):
        arena_start(arena_id=arena.pk)


def test_pause_keeps_the_time_left_and_resume_gives_it_back(make_students, make_arena):
    students = make_students(3)
    arena = make_arena(students)
    arena_round(arena_id=arena.pk, force=True)
    odd = next(s for s in students if player(arena, s).status == Status.WAITING)

    paused = arena_pause(arena_id=arena.pk)
    assert paused.status == Arena.Status.PAUSED and 590 <= paused.remaining_seconds <= 600
    assert paused.seconds_left() == paused.remaining_seconds
    # Games in play go on while paused: one finishing is counted, nobody is seated.
    finish_game(game_of(arena, next(s for s in students if s != odd)), winners=[], signal=True)
    report = arena_round(arena_id=arena.pk, force=True, now=later(bot_after_seconds() + 5))
    assert report.tables == [] and report.status == Arena.Status.PAUSED

    resumed = arena_resume(arena_id=arena.pk)
    assert resumed.status == Arena.Status.RUNNING and resumed.remaining_seconds is None
    assert abs((resumed.ends_at - timezone.now()).total_seconds() - paused.remaining_seconds) < 5
    # Time on pause was not time waiting: the odd one out is not given a computer player yet.
    report = arena_round(arena_id=arena.pk, force=True, now=later(bot_after_seconds() / 2))
    assert report.with_bots == 0
    with pytest.raises(ArenaError):
        arena_resume(arena_id=arena.pk)


def test_ending_early_lets_games_finish_and_count(make_students, make_arena):
    ann, ben = make_students(2)
    arena = make_arena([ann, ben])
    arena_round(arena_id=arena.pk, force=True)
    game = game_of(arena, ann)

    ended = arena_end(arena_id=arena.pk)
    assert ended.status == Arena.Status.FINISHING
    with pytest.raises(ArenaError, match="has finished"):
        arena_join(student=make_students(1)[0], arena_id=arena.pk)

    finish_game(game, winners=[ben], signal=True)
    report = arena_round(arena_id=arena.pk, force=True)
    assert report.status == Arena.Status.FINISHED
    assert player(arena, ben).points == 2
    with pytest.raises(ArenaError, match="already finished"):
        arena_end(arena_id=arena.pk)


def test_ending_and_stopping_games_is_over_at_once_and_counts_nothing(make_students, make_arena):
    ann, ben, cat = make_students(3)
    arena = make_arena([ann, ben, cat])
    arena_round(arena_id=arena.pk, force=True)
    game = game_of(arena, next(s for s in (ann, ben, cat) if player(arena, s).game_id))

    ended = arena_end(arena_id=arena.pk, stop_games=True)

    assert ended.status == Arena.Status.FINISHED
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert not ArenaResult.objects.exists()
    assert ArenaGame.objects.get(game=game).counted_at is not None
    assert {player(arena, s).status for s in (ann, ben, cat)} == {Status.RESTING}
    assert all(player(arena, s).game_id is None for s in (ann, ben, cat))


def test_a_break_is_not_seated_until_back(make_students, make_arena):
    ann, ben = make_students(2)
    arena = make_arena([ann, ben])

    assert arena_rest(student=ann, arena_id=arena.pk).status == Status.RESTING
    report = arena_round(arena_id=arena.pk, force=True, now=later(bot_after_seconds() / 2))
    assert report.tables == [] and player(arena, ann).status == Status.RESTING

    assert arena_back(student=ann, arena_id=arena.pk).status == Status.WAITING
    report = arena_round(arena_id=arena.pk, force=True)
    assert len(report.tables) == 1
    assert player(arena, ann).status == player(arena, ben).status == Status.PLAYING


def test_a_break_pressed_while_playing_changes_nothing(make_students, make_arena):
    ann, ben = make_students(2)
    arena = make_arena([ann, ben])
    arena_round(arena_id=arena.pk, force=True)

    assert arena_rest(student=ann, arena_id=arena.pk).status == Status.PLAYING
    with pytest.raises(ArenaError, match="not in this arena"):
        arena_rest(student=make_students(1)[0], arena_id=arena.pk)


@pytest.mark.django_db(transaction=True)
def test_taking_out_a_student_while_their_finished_game_is_being_counted(make_students,
                                                                         make_arena):
    """The game's finish is being counted (count_table holds its table's row, then wants the
    players') when the teacher takes one of its students out. Both must go through, whichever
    waits: a take-out that locked the student before the table would deadlock with the count,
    and PostgreSQL would cancel one of them with an error. PostgreSQL only (row locks)."""
    need(connection.vendor == "postgresql",
         "the take-out and the count racing need PostgreSQL's row locks: set DATABASE_URL to a "
         "PostgreSQL database")
    ann, ben = make_students(2)
    arena = make_arena([ann, ben])
    arena_round(arena_id=arena.pk, force=True)
    game = finish_game(game_of(arena, ann), winners=[ben])  # its signal not yet heard
    table = ArenaGame.objects.get(game=game)
    errors = race_with_a_held_count(
        table.pk, lambda: arena_take_out(arena_id=arena.pk, player_id=player(arena, ann).pk))
    assert not errors, errors

    a, b = player(arena, ann), player(arena, ben)
    assert a.status == Status.OUT and (a.losses, a.points) == (1, 0)  # the game as it ended
    assert b.status == Status.WAITING and (b.wins, b.points) == (1, 2)
    assert ArenaResult.objects.count() == 2
    assert ArenaGame.objects.get(pk=table.pk).counted_at is not None
