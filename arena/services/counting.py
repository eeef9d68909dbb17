"""Counting an arena game once it is over: who won, the points (Lichess's arena scoring,
arena/scoring.py), and the players back in the queue.

`count_table` locks the table's ArenaGame row first and does nothing if it was counted, so the
finish signal (arena/receivers.py) and a pairing round reconciling the same game (after a
restart, or a signal lost with a crashed process) count it once between them. It takes no
arena lock: a round holds the arena's lock while it counts, and the finish signal must not
wait behind a round (ArenaGame, then ArenaPlayer rows, is the only lock order used here:
arena_take_out locks the student's table before the student too).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from arena import realtime
from arena.models import Arena, ArenaGame, ArenaPlayer, ArenaResult
from arena.scoring import Outcome, outcomes, score
from games.models import Game


def count_table(*, table_id: int) -> bool:
    """Count a finished or stopped arena game (True), or nothing (False: still in play, or
    counted already). A finished game counts as the engine ended it. A stopped game counts only
    when a student walked away from it (Seat.left_at: a loss for them, a win for each classmate
    at the table); stopped by a teacher or for idleness it counts for nobody. Either way its
    students are free again: waiting for their next table (resting, for one who walked away)."""
    with transaction.atomic():
        table = (ArenaGame.objects.select_for_update(of=("self",)).select_related("game")
                 .filter(pk=table_id).first())
        if table is None or table.counted_at is not None:
            return False
        game = table.game
        if game.status not in (Game.Status.FINISHED, Game.Status.ABANDONED):
            return False
        seats = [s for s in game.seats.all() if s.user_id is not None]
        players = {p.user_id: p for p in ArenaPlayer.objects.select_for_update()
                   .filter(arena_id=table.arena_id, user_id__in=[s.user_id for s in seats])}
        results = _results(game, seats)
        now = timezone.now()
        for seat in seats:
            player = players.get(seat.user_id)
            if player is None:
                continue
            if seat.user_id in results:
                _score(table, player, results[seat.user_id], seat)
            _free(player, game, walked_away=seat.left_at is not None, now=now)
        table.counted_at = now
        table.save(update_fields=["counted_at"])
        realtime.tell_players_on_commit(arena_id=table.arena_id, user_ids=players)
    return True


def _results(game: Game, seats) -> dict[int, Outcome]:
    """Each student's outcome ({} when the game counts for nobody)."""
    if game.status == Game.Status.FINISHED:
        every = list(game.seats.all())
        by_name = outcomes([s.name for s in every if s.is_winner], [s.name for s in every])
        return {s.user_id: by_name[s.name] for s in seats}
    leavers = {s.user_id for s in seats if s.left_at is not None}
    if not leavers:
        return {}
    return {s.user_id: Outcome.LOSS if s.user_id in leavers else Outcome.WIN for s in seats}


def _score(table: ArenaGame, player: ArenaPlayer, outcome: Outcome, seat) -> None:
    scored = score(outcome, streak_before=player.streak)
    _, made = ArenaResult.objects.get_or_create(
        table=table, player=player,
        defaults={"outcome": outcome.value, "points": scored.points, "doubled": scored.doubled,
                  "left": seat.left_at is not None, "game_score": seat.score,
                  # arena_take_out marks the player out before their game stops
                  "taken_out": seat.left_at is not None and player.status == ArenaPlayer.Status.OUT})
    if not made:
        return  # counted before (the unique row says so): nothing changes twice
    player.points += scored.points
    player.streak = scored.streak
    player.best_streak = max(player.best_streak, scored.streak)
    player.games += 1
    player.wins += outcome == Outcome.WIN
    player.draws += outcome == Outcome.DRAW
    player.losses += outcome == Outcome.LOSS
    if seat.score is not None and (player.best_score is None or seat.score > player.best_score):
        player.best_score = seat.score
    player.save(update_fields=["points", "streak", "best_streak", "games", "wins", "draws",
                               "losses", "best_score"])


def _free(player: ArenaPlayer, game: Game, *, walked_away: bool, now) -> None:
    """Back in the queue from this game (unless taken out, or already elsewhere)."""
    if player.status != ArenaPlayer.Status.PLAYING or player.game_id != game.pk:
        return
    player.status = ArenaPlayer.Status.RESTING if walked_away else ArenaPlayer.Status.WAITING
    player.waiting_since = now
    player.game = None
    player.save(update_fields=["status", "waiting_since", "game"])


def uncounted_tables(arena: Arena) -> list[int]:
    """The arena's games that are over but not counted yet (a round counts them)."""
    return list(ArenaGame.objects.filter(arena=arena, counted_at__isnull=True)
                .exclude(game__status=Game.Status.ACTIVE).values_list("pk", flat=True))
