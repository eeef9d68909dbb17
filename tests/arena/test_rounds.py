"""A pairing round as the class sees it: who sits with whom, who gets a computer player and
when, late joiners, a paused arena, the clock running out, and a round that is not due."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from arena.models import Arena, ArenaGame, ArenaPlayer
from arena.services.lifecycle import arena_join, arena_let_in, arena_pause
from arena.services.rounds import arena_round, bot_after_seconds
from games.models import Game, PlayerRating
from games.services.ratings import just_right_level

from .conftest import finish_game, game_of, later, play_to_end, player, tables_of

pytestmark = pytest.mark.django_db

Status = ArenaPlayer.Status


def seated_users(arena: Arena) -> list[int]:
    """Every student seat of the arena's tables (a student twice would show twice)."""
    return [s.user_id for t in ArenaGame.objects.filter(arena=arena)
            for s in t.game.seats.all() if s.user_id is not None]


def test_a_round_seats_waiting_students_in_pairs_at_real_arena_games(make_students, make_arena):
    students = make_students(6)
    arena = make_arena(students)

    report = arena_round(arena_id=arena.pk, force=True)

    assert len(report.tables) == 3 and report.with_bots == 0
    assert sorted(seated_users(arena)) == sorted(s.pk for s in students)  # each at one table
    for table in ArenaGame.objects.filter(arena=arena).select_related("game"):
        game = table.game
        assert game.status == Game.Status.ACTIVE and game.key == "smooth_operator"
        assert game.series_url == reverse("arena:play", args=[arena.pk])  # "next game" leads back
        assert game.forfeit_on_leave
        assert game.seats.count() == 2 and not any(s.bot_level for s in game.seats.all())
    for student in students:
        p = player(arena, student)
        assert p.status == Status.PLAYING and p.game_id in report.tables


def test_nearest_ratings_sit_together(make_students, make_arena):
    ann, ben, cat, dan = make_students(4)
    for student, rating in ((ann, 800), (ben, 1500), (cat, 810), (dan, 1510)):
        PlayerRating.objects.create(user=student, key="smooth_operator", rating=rating)
    arena = make_arena([ann, ben, cat, dan])

    arena_round(arena_id=arena.pk, force=True)

    assert sorted(map(sorted, tables_of(arena))) == [["Ann", "Cat"], ["Ben", "Dan"]]


def test_no_rematch_while_another_classmate_is_free(make_students, make_arena):
    ann, ben, cat, dan = make_students(4)
    # Ratings make Ann-Ben and Cat-Dan the nearest pairs, every time.
    for student, rating in ((ann, 1000), (ben, 1001), (cat, 1300), (dan, 1301)):
        PlayerRating.objects.create(user=student, key="smooth_operator", rating=rating)
    arena = make_arena([ann, ben, cat, dan])
    arena_round(arena_id=arena.pk, force=True)
    assert sorted(map(sorted, tables_of(arena))) == [["Ann", "Ben"], ["Cat", "Dan"]]

    finish_game(game_of(arena, ann), winners=[ann], signal=True)
    finish_game(game_of(arena, cat), winners=[cat], signal=True)
    assert {player(arena, s).status for s in (ann, ben, cat, dan)} == {Status.WAITING}
    arena_round(arena_id=arena.pk, force=True)

    second = [sorted(t) for t in tables_of(arena)[2:]]
    assert len(second) == 2
    assert ["Ann", "Ben"] not in second and ["Cat", "Dan"] not in second
    # (Ann-Cat with Ben-Dan, or Ann-Dan with Ben-Cat: the two have the same total rating gap.)
    assert {frozenset(t) for t in second} & {frozenset({"Ann", "Cat"}), frozenset({"Ann", "Dan"})}


def test_a_rematch_when_nobody_else_is_free(make_students, make_arena):
    ann, ben = make_students(2)
    arena = make_arena([ann, ben])
    arena_round(arena_id=arena.pk, force=True)
    finish_game(game_of(arena, ann), winners=[ben], signal=True)

    report = arena_round(arena_id=arena.pk, force=True)

    assert len(report.tables) == 1 and report.with_bots == 0  # a classmate beats a computer
    assert tables_of(arena) == [{"Ann", "Ben"}, {"Ann", "Ben"}]


def test_the_odd_one_out_waits_then_gets_a_just_right_computer_player(make_students, make_arena):
    students = make_students(3)
    arena = make_arena(students)

    first = arena_round(arena_id=arena.pk, force=True)
    assert len(first.tables) == 1 and first.with_bots == 0
    odd = next(s for s in students if player(arena, s).status == Status.WAITING)

    soon = arena_round(arena_id=arena.pk, force=True, now=later(bot_after_seconds() / 2))
    assert soon.tables == [] and player(arena, odd).status == Status.WAITING

    due = arena_round(arena_id=arena.pk, force=True, now=later(bot_after_seconds() + 1))
    assert len(due.tables) == 1 and due.with_bots == 1
    game = Game.objects.get(pk=due.tables[0])
    seats = list(game.seats.order_by("position"))
    assert [s.user_id for s in seats if s.user_id] == [odd.pk]
    bots = [s for s in seats if s.user_id is None]
    assert len(bots) == 1 and bots[0].bot_level.startswith("mix:")
    assert bots[0].bot_level == just_right_level(student=odd, key="smooth_operator", bots=1)
    assert bots[0].name != odd.display_name
    assert ArenaGame.objects.get(game=game).with_bots
    assert player(arena, odd).status == Status.PLAYING


def test_the_wait_for_a_computer_player_follows_the_setting(make_students, make_arena, settings):
    settings.ARENA_BOT_AFTER_SECONDS = 0
    arena = make_arena(make_students(1))

    report = arena_round(arena_id=arena.pk, force=True)

    assert report.with_bots == 1 and len(report.tables) == 1


def test_three_player_game_groups_three_and_two_leftovers_share_one_computer(
        make_students, make_arena):
    students = make_students(8)
    arena = make_arena(students, key="add_or_multiply")
    assert arena.table_size == 3

    first = arena_round(arena_id=arena.pk, force=True)
    assert len(first.tables) == 2 and first.with_bots == 0
    for game_id in first.tables:
        assert Game.objects.get(pk=game_id).seats.filter(user__isnull=False).count() == 3
    left = [s for s in students if player(arena, s).status == Status.WAITING]
    assert len(left) == 2

    due = arena_round(arena_id=arena.pk, force=True, now=later(bot_after_seconds() + 1))
    assert len(due.tables) == 1 and due.with_bots == 1
    seats = list(Game.objects.get(pk=due.tables[0]).seats.all())
    assert sorted(s.user_id for s in seats if s.user_id) == sorted(s.pk for s in left)
    assert len([s for s in seats if s.bot_level.startswith("mix:")]) == 1
    assert sorted(seated_users(arena)) == sorted(s.pk for s in students)


def test_a_late_joiner_waits_to_be_let_in_then_plays_next_round(make_students, make_arena):
    ann, ben, cat, dan = make_students(4)
    arena = make_arena([ann, ben])
    arena_round(arena_id=arena.pk, force=True)

    late = arena_join(student=cat, arena_id=arena.pk)
    late_too = arena_join(student=dan, arena_id=arena.pk)
    assert late.status == late_too.status == Status.LATE
    report = arena_round(arena_id=arena.pk, force=True, now=later(60))
    assert report.tables == []  # asking to join is not waiting: no table, no computer player
    assert player(arena, cat).status == Status.LATE and player(arena, cat).game_id is None

    assert arena_let_in(arena_id=arena.pk, player_ids=[late.pk, late_too.pk]) == 2
    report = arena_round(arena_id=arena.pk, force=True)

    assert len(report.tables) == 1
    assert tables_of(arena)[-1] == {"Cat", "Dan"}
    assert player(arena, cat).status == player(arena, dan).status == Status.PLAYING


def test_a_paused_arena_seats_nobody(make_students, make_arena):
    students = make_students(4)
    arena = make_arena(students)
    arena_pause(arena_id=arena.pk)

    report = arena_round(arena_id=arena.pk, force=True, now=later(60))

    assert report.tables == [] and report.status == Arena.Status.PAUSED
    assert {player(arena, s).status for s in students} == {Status.WAITING}
    assert not ArenaGame.objects.filter(arena=arena).exists()


def test_clock_end_finishes_games_in_play_then_the_arena(make_students, make_arena):
    students = make_students(5)
    ann, ben, cat, dan, eve = students
    arena = make_arena(students, minutes=5)
    arena_round(arena_id=arena.pk, force=True)
    playing = [s for s in students if player(arena, s).status == Status.PLAYING]
    assert len(playing) == 4
    first_game, second_game = {game_of(arena, s).pk for s in playing}
    finish_game(Game.objects.get(pk=first_game), winners=[], signal=True)  # a draw, counted

    after_clock = arena.ends_at + timedelta(seconds=1)
    report = arena_round(arena_id=arena.pk, force=True, now=after_clock)

    assert report.status == Arena.Status.FINISHING
    assert report.tables == []  # the draw's players and the odd one out are not seated again
    assert ArenaGame.objects.filter(arena=arena).count() == 2
    still = Game.objects.get(pk=second_game)
    assert still.status == Game.Status.ACTIVE  # the game in play goes on
    at_it = [s for s in students if player(arena, s).game_id == still.pk]
    assert len(at_it) == 2 and {player(arena, s).status for s in at_it} == {Status.PLAYING}

    play_to_end(still)
    report = arena_round(arena_id=arena.pk, force=True, now=after_clock + timedelta(seconds=5))

    assert report.counted == 1 and report.status == Arena.Status.FINISHED
    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHED and arena.finished_at is not None
    assert sum(player(arena, s).games for s in at_it) == 2  # the last game counted for both
    assert {player(arena, s).status for s in students} == {Status.RESTING}
    assert arena_round(arena_id=arena.pk, force=True) is None  # nothing runs after the end


def test_a_round_that_is_not_due_does_nothing_unless_forced(make_students, make_arena):
    students = make_students(2)
    arena = make_arena(students)
    Arena.objects.filter(pk=arena.pk).update(last_round_at=timezone.now())

    assert arena_round(arena_id=arena.pk) is None
    assert not ArenaGame.objects.filter(arena=arena).exists()
    assert Arena.objects.get(pk=arena.pk).rounds == 0

    report = arena_round(arena_id=arena.pk, force=True)
    assert len(report.tables) == 1 and Arena.objects.get(pk=arena.pk).rounds == 1


def test_a_round_is_due_once_the_round_time_passed(make_students, make_arena, settings):
    settings.ARENA_ROUND_SECONDS = 2
    arena = make_arena(make_students(2))
    Arena.objects.filter(pk=arena.pk).update(last_round_at=timezone.now())

    assert arena_round(arena_id=arena.pk, now=later(1)) is None
    report = arena_round(arena_id=arena.pk, now=later(3))
    assert report is not None and len(report.tables) == 1


def test_an_arena_not_started_has_no_rounds(make_students, make_arena):
    arena = make_arena(make_students(2), started=False)

    assert arena_round(arena_id=arena.pk, force=True) is None
    assert {p.status for p in arena.players.all()} == {Status.WAITING}
