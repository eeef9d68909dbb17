"""A restart in the middle of an arena loses nothing: every fact a round needs is a row
(arena/models.py), so a round run by a process that has just started (nothing built in memory
first: these tests construct nothing but call `arena_round` again) counts a game that ended
while no process was up, gives its points, and seats its students again. And the ticker runs a
round for an arena that is due one, and none for one that is not."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from arena import ticker
from arena.models import Arena, ArenaGame, ArenaPlayer, ArenaResult
from arena.services.rounds import arena_round
from games.models import Game

from .conftest import finish_game, game_of, player, tables_of

pytestmark = pytest.mark.django_db

Status = ArenaPlayer.Status


def test_a_game_that_ended_while_nobody_was_up_is_counted_by_the_next_round(
        make_students, make_arena, settings):
    settings.ARENA_BOT_AFTER_SECONDS = 60  # the odd one out keeps waiting through both rounds
    ann, ben, cat, dan, eve = make_students(5)
    arena = make_arena([ann, ben, cat, dan, eve])
    arena_round(arena_id=arena.pk, force=True)
    everyone = (ann, ben, cat, dan, eve)
    waiting = next(s for s in everyone if player(arena, s).status == Status.WAITING)
    seated = [s for s in everyone if s != waiting]
    game = game_of(arena, seated[0])
    pair = [s for s in seated if player(arena, s).game_id == game.pk]
    winner, loser = pair

    # The game ends with no process up: its finish is saved, no signal is heard, nothing counts.
    finish_game(game, winners=[winner], signal=False)
    table = ArenaGame.objects.get(game=game)
    assert table.counted_at is None and not ArenaResult.objects.exists()
    assert player(arena, winner).status == Status.PLAYING

    # A fresh process: nothing but the next round.
    report = arena_round(arena_id=arena.pk, force=True)

    assert report.counted == 1
    assert ArenaGame.objects.get(pk=table.pk).counted_at is not None
    assert (player(arena, winner).points, player(arena, loser).points) == (2, 0)
    # The two are seated again in the same round, with the classmate who was waiting first
    # (never each other again while another choice exists).
    assert len(report.tables) == 1
    assert tables_of(arena)[-1] in ({winner.display_name, waiting.display_name},
                                    {loser.display_name, waiting.display_name})
    assert player(arena, waiting).status == Status.PLAYING
    still_waiting = [s for s in pair if player(arena, s).status == Status.WAITING]
    assert len(still_waiting) == 1  # the odd one out now, waiting still
    assert player(arena, still_waiting[0]).game_id is None


def test_waiting_students_stay_waiting_across_a_restart(make_students, make_arena, settings):
    settings.ARENA_BOT_AFTER_SECONDS = 60
    ann, = make_students(1)
    arena = make_arena([ann])
    since = player(arena, ann).waiting_since

    assert arena_round(arena_id=arena.pk, force=True).tables == []
    assert arena_round(arena_id=arena.pk, force=True).tables == []  # "after the restart"

    p = player(arena, ann)
    assert p.status == Status.WAITING and p.waiting_since == since  # their wait still counts
    report = arena_round(arena_id=arena.pk, force=True, now=since + timedelta(seconds=61))
    assert report.with_bots == 1  # a computer player once the whole wait, not a new one, is long


def test_the_ticker_runs_a_round_for_a_due_arena_and_none_for_one_not_due(
        make_students, make_arena):
    due = make_arena(make_students(2))
    not_due = make_arena(make_students(2))
    Arena.objects.filter(pk=not_due.pk).update(last_round_at=timezone.now())
    Arena.objects.filter(pk=due.pk).update(last_round_at=timezone.now() - timedelta(minutes=1))
    finished = make_arena(make_students(2))
    Arena.objects.filter(pk=finished.pk).update(status=Arena.Status.FINISHED)

    assert ticker.tick() == 1

    assert len(tables_of(due)) == 1 and Arena.objects.get(pk=due.pk).rounds == 1
    assert tables_of(not_due) == [] and Arena.objects.get(pk=not_due.pk).rounds == 0
    assert tables_of(finished) == []
    assert ticker.tick() == 0  # the due arena had its round just now


def test_a_round_that_fails_for_one_arena_does_not_stop_the_others(make_students, make_arena,
                                                                    monkeypatch):
    broken = make_arena(make_students(2))
    fine = make_arena(make_students(2))
    real = arena_round

    def failing(*, arena_id, **kwargs):
        if arena_id == broken.pk:
            raise RuntimeError("database hiccup")
        return real(arena_id=arena_id, **kwargs)

    monkeypatch.setattr(ticker, "arena_round", failing)

    assert ticker.tick() == 1
    assert len(tables_of(fine)) == 1 and tables_of(broken) == []
    assert Game.objects.count() == 1
