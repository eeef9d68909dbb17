"""One pairing round of an arena at a time, however many tickers run (arena/services/rounds.py:
the round holds the arena row's lock, `select_for_update(skip_locked=True)`, and a runner that
finds it locked skips the arena). Real row locks need PostgreSQL (SQLite serialises whole
transactions instead), so the two-runner tests skip on SQLite with a reason, and fail instead
when CI=true (tests/conftest.py `need`): CI runs on PostgreSQL and must run them.

What the class would notice if this broke: a child sent to two tables at once, or two children
each told to play the same classmate."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection, transaction

from arena.models import ArenaGame, ArenaPlayer, ArenaResult
from arena.services.rounds import arena_round
from games.models import Game, Seat
from tests.conftest import need

from .conftest import finish_game, race_with_a_held_count

pytestmark = pytest.mark.django_db(transaction=True)

Status = ArenaPlayer.Status


def on_postgresql() -> None:
    need(connection.vendor == "postgresql",
         "two runners at once need PostgreSQL's row locks: set DATABASE_URL to a PostgreSQL "
         "database")


def assert_each_student_at_exactly_one_table(arena, students) -> None:
    seats = Counter(Seat.objects.filter(game__arena_table__arena=arena, user__isnull=False)
                    .values_list("user_id", flat=True))
    assert seats == Counter({s.pk: 1 for s in students})  # nobody at two tables, nobody left out
    for p in ArenaPlayer.objects.filter(arena=arena):
        assert p.status == Status.PLAYING
        assert Seat.objects.filter(game_id=p.game_id, user_id=p.user_id).exists()
    games = list(ArenaPlayer.objects.filter(arena=arena).values_list("game_id", flat=True))
    assert Counter(Counter(games).values()) == Counter({2: len(students) // 2})  # pairs, no trios


def test_two_runners_at_once_deal_one_round(make_students, make_arena):
    on_postgresql()
    students = make_students(20)
    arena = make_arena(students)
    start = threading.Barrier(2, timeout=10)
    results: list = [None, None]
    errors: list = []

    def runner(i: int) -> None:
        try:
            start.wait()
            results[i] = arena_round(arena_id=arena.pk, force=True)
        except Exception as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=runner, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors, errors

    assert ArenaGame.objects.filter(arena=arena).count() == 10
    assert Game.objects.filter(arena_table__arena=arena, status=Game.Status.ACTIVE).count() == 10
    assert_each_student_at_exactly_one_table(arena, students)
    dealt = [r for r in results if r is not None and r.tables]
    assert len(dealt) == 1 and len(dealt[0].tables) == 10
    other = next(r for r in results if r is not dealt[0])
    # Skipped (the other runner held the arena), or ran after it committed and seated nobody.
    assert other is None or (other.tables == [] and other.waiting == 0)


def test_a_runner_skips_an_arena_whose_round_is_in_progress(make_students, make_arena):
    """The first round is held open (its transaction not yet committed) while a second runner
    arrives: the second skips the arena at once instead of waiting or dealing again."""
    on_postgresql()
    students = make_students(4)
    arena = make_arena(students)
    dealt = threading.Event()
    release = threading.Event()
    first: list = []
    errors: list = []

    def hold_a_round() -> None:
        try:
            with transaction.atomic():
                first.append(arena_round(arena_id=arena.pk, force=True))
                dealt.set()
                release.wait(10)
        except Exception as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
            dealt.set()
        finally:
            connection.close()

    one = threading.Thread(target=hold_a_round)
    one.start()
    assert dealt.wait(10)
    try:
        second = arena_round(arena_id=arena.pk, force=True)
    finally:
        release.set()
        one.join(10)
    assert not errors, errors

    assert second is None
    assert len(first[0].tables) == 2
    assert ArenaGame.objects.filter(arena=arena).count() == 2
    assert_each_student_at_exactly_one_table(arena, students)


def test_pairing_twice_by_accident_seats_nobody_twice(make_students, make_arena):
    """Runs on any database: the second round, right after the first, finds nobody waiting."""
    students = make_students(20)
    arena = make_arena(students)

    first = arena_round(arena_id=arena.pk, force=True)
    second = arena_round(arena_id=arena.pk, force=True)

    assert len(first.tables) == 10
    assert second.tables == [] and second.waiting == 0
    assert ArenaGame.objects.filter(arena=arena).count() == 10
    assert_each_student_at_exactly_one_table(arena, students)


def test_a_round_and_a_finish_count_of_the_same_game_both_go_through(make_students, make_arena):
    """A game's finish signal is counting it (count_table holds its table's row) when a round
    arrives and finds the same game over and uncounted. The round waits for the count, then
    finds it counted; the count must not wait for the round's lock on the arena (the players'
    rows it writes point at the arena, and PostgreSQL checks that key under a share lock), or
    the two deadlock and PostgreSQL cancels one with an error."""
    on_postgresql()
    ann, ben = make_students(2)
    arena = make_arena([ann, ben])
    arena_round(arena_id=arena.pk, force=True)
    game = Game.objects.get(pk=ArenaPlayer.objects.get(arena=arena, user=ann).game_id)
    finish_game(game, winners=[ann])  # its signal not heard yet
    table = ArenaGame.objects.get(game=game)
    rounds: list = []
    errors = race_with_a_held_count(
        table.pk, lambda: rounds.append(arena_round(arena_id=arena.pk, force=True)))
    assert not errors, errors

    a, b = (ArenaPlayer.objects.get(arena=arena, user=u) for u in (ann, ben))
    assert (a.points, a.wins, b.points, b.losses) == (2, 1, 0, 1)  # counted once
    assert ArenaResult.objects.count() == 2
    assert rounds[0].counted == 0  # the count was the signal's
