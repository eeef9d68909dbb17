"""Counting an arena game as the class sees it on the ranking: 2 for a win, 1 for a draw, 0
for a loss, 4 for a win on fire; a student who walks away loses and the classmate wins; a
game a teacher stops counts for nobody; and counting twice changes nothing."""

from __future__ import annotations

import pytest

from arena.models import ArenaGame, ArenaPlayer, ArenaResult
from arena.services import counting
from arena.services.counting import count_table
from arena.services.lifecycle import (arena_join, arena_let_back, arena_let_in,
                                      arena_take_out)
from arena.services.rounds import arena_round
from games.models import Game
from games.services.tables import game_abandon, game_leave

from .conftest import finish_game, game_of, play_to_end, player, tables_of

pytestmark = pytest.mark.django_db

Status = ArenaPlayer.Status


@pytest.fixture
def pair(make_students, make_arena):
    """Ann and Ben, alone in a started arena and seated together: (arena, Ann, Ben)."""
    ann, ben = make_students(2)
    arena = make_arena([ann, ben])
    arena_round(arena_id=arena.pk, force=True)
    assert tables_of(arena) == [{"Ann", "Ben"}]
    return arena, ann, ben


def table_of(game: Game) -> ArenaGame:
    return ArenaGame.objects.get(game=game)


def test_a_win_scores_2_and_a_loss_0(pair):
    arena, ann, ben = pair
    game = finish_game(game_of(arena, ann), winners=[ann], scores={"Ann": 200, "Ben": 150})

    assert count_table(table_id=table_of(game).pk) is True

    a, b = player(arena, ann), player(arena, ben)
    assert (a.points, a.wins, a.games, a.streak, a.best_score) == (2, 1, 1, 1, 200)
    assert (b.points, b.losses, b.games, b.streak, b.best_score) == (0, 1, 1, 0, 150)
    assert a.status == b.status == Status.WAITING and a.game_id is None
    assert ArenaResult.objects.get(player=a).outcome == "win"
    assert ArenaResult.objects.get(player=b).outcome == "loss"


def test_a_draw_scores_1_each(pair):
    arena, ann, ben = pair
    finish_game(game_of(arena, ann), winners=[], signal=True)

    a, b = player(arena, ann), player(arena, ben)
    assert (a.points, a.draws) == (b.points, b.draws) == (1, 1)


def test_a_really_played_game_counts_the_moment_it_ends(pair, django_capture_on_commit_callbacks):
    """The real game to its end through the move service; its finish, once committed, sends
    game_finished and the arena counts it (arena/receivers.py), with no round in between."""
    arena, ann, ben = pair
    game = game_of(arena, ann)

    with django_capture_on_commit_callbacks(execute=True):
        play_to_end(game)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert table_of(game).counted_at is not None
    winners = {s.user_id for s in game.seats.all() if s.is_winner}
    a, b = player(arena, ann), player(arena, ben)
    assert a.games == b.games == 1 and a.status == b.status == Status.WAITING
    if len(winners) == 1:  # a win: 2 for the winner, 0 for the other
        assert {a.points, b.points} == {2, 0}
        assert player(arena, ann if ann.pk in winners else ben).points == 2
    else:  # a draw: 1 each
        assert a.points == b.points == 1


def test_a_third_win_in_a_row_scores_4_and_a_loss_ends_the_streak(make_students, make_arena,
                                                                   settings):
    settings.ARENA_BOT_AFTER_SECONDS = 0  # Ann alone at a table with a computer player each round
    ann, = make_students(1)
    arena = make_arena([ann])

    points = []
    for outcome in ("win", "win", "win", "win", "loss", "win"):
        arena_round(arena_id=arena.pk, force=True)
        game = game_of(arena, ann)
        bot = game.seats.exclude(user=ann).get().name
        finish_game(game, winners=[ann] if outcome == "win" else [bot], signal=True)
        points.append(ArenaResult.objects.get(table__game=game).points)

    assert points == [2, 2, 4, 4, 0, 2]
    a = player(arena, ann)
    assert a.points == 14 and a.streak == 1 and a.best_streak == 4
    assert list(ArenaResult.objects.filter(player=a).values_list("doubled", flat=True)) == \
        [False, False, True, True, False, False]


def test_leaving_a_game_loses_it_and_the_classmate_wins_and_plays_again(make_students, make_arena):
    ann, ben, cat = make_students(3)
    arena = make_arena([ann, ben])
    arena_round(arena_id=arena.pk, force=True)
    game = game_of(arena, ann)

    game_leave(student=ann, game_id=game.pk)

    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED  # stopped for Ben too, not played by a computer
    report = arena_round(arena_id=arena.pk, force=True)
    assert report.counted == 1
    a, b = player(arena, ann), player(arena, ben)
    assert (a.points, a.losses, a.status) == (0, 1, Status.RESTING)
    assert (b.points, b.wins, b.status) == (2, 1, Status.WAITING)
    assert ArenaResult.objects.get(player=a).left and not ArenaResult.objects.get(player=b).left

    # Ben is paired at the next round with whoever is waiting; Ann, resting, is not.
    late = arena_join(student=cat, arena_id=arena.pk)
    arena_let_in(arena_id=arena.pk, player_ids=[late.pk])
    report = arena_round(arena_id=arena.pk, force=True)
    assert len(report.tables) == 1 and tables_of(arena)[-1] == {"Ben", "Cat"}
    assert player(arena, ann).status == Status.RESTING


def test_taken_out_while_playing_loses_and_is_never_seated_again(make_students, make_arena,
                                                                 settings):
    ann, ben, cat = make_students(3)
    arena = make_arena([ann, ben, cat])
    arena_round(arena_id=arena.pk, force=True)
    at_table = [s for s in (ann, ben, cat) if player(arena, s).status == Status.PLAYING]
    leaver, other = at_table
    game = game_of(arena, leaver)

    arena_take_out(arena_id=arena.pk, player_id=player(arena, leaver).pk)

    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert table_of(game).counted_at is not None  # counted at once, not at the next round
    out, won = player(arena, leaver), player(arena, other)
    assert (out.status, out.points, out.losses) == (Status.OUT, 0, 1)
    assert (won.status, won.points, won.wins) == (Status.WAITING, 2, 1)

    settings.ARENA_BOT_AFTER_SECONDS = 0
    for _ in range(3):
        arena_round(arena_id=arena.pk, force=True)
        for g in Game.objects.filter(arena_table__arena=arena, status=Game.Status.ACTIVE):
            finish_game(g, winners=[], signal=True)
    assert all(leaver.display_name not in t for t in tables_of(arena)[1:])
    assert player(arena, leaver).status == Status.OUT and player(arena, leaver).games == 1

    arena_let_back(arena_id=arena.pk, player_id=out.pk)  # the teacher's undo: seated again
    arena_round(arena_id=arena.pk, force=True)
    assert player(arena, leaver).status == Status.PLAYING


def test_a_game_a_teacher_stops_counts_for_nobody_and_both_wait_again(pair):
    arena, ann, ben = pair
    game = game_of(arena, ann)

    assert game_abandon(game_id=game.pk)
    count_table(table_id=table_of(game).pk)

    for p in (player(arena, ann), player(arena, ben)):
        assert (p.points, p.games, p.status, p.game_id) == (0, 0, Status.WAITING, None)
    assert not ArenaResult.objects.exists()
    assert table_of(game).counted_at is not None


def test_counting_twice_changes_nothing(pair):
    arena, ann, ben = pair
    game = finish_game(game_of(arena, ann), winners=[ann], signal=True)
    table = table_of(game)
    counted_at = table.counted_at
    assert counted_at is not None

    assert count_table(table_id=table.pk) is False
    report = arena_round(arena_id=arena.pk, force=True)  # a round finds nothing to count
    assert report.counted == 0

    a, b = player(arena, ann), player(arena, ben)
    assert (a.points, a.games, b.points, b.games) == (2, 1, 0, 1)
    assert ArenaResult.objects.filter(table=table).count() == 2
    assert table_of(game).counted_at == counted_at


def test_a_result_row_already_there_is_not_scored_again(pair):
    """The one-result-per-table row is the last guard: a count that finds it (a table whose
    counted_at was lost) does not add the points again."""
    arena, ann, ben = pair
    game = finish_game(game_of(arena, ann), winners=[ann])
    table = table_of(game)
    count_table(table_id=table.pk)
    ArenaGame.objects.filter(pk=table.pk).update(counted_at=None)

    assert counting.uncounted_tables(arena) == [table.pk]
    count_table(table_id=table.pk)

    assert player(arena, ann).points == 2 and ArenaResult.objects.count() == 2


def test_a_game_still_in_play_is_not_counted(pair):
    arena, ann, ben = pair
    game = game_of(arena, ann)

    assert count_table(table_id=table_of(game).pk) is False
    assert player(arena, ann).status == Status.PLAYING and table_of(game).counted_at is None
