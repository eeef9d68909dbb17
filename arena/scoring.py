"""Lichess arena scoring for a class arena. Pure Python: no Django.

A win scores 2, a draw 1, a loss 0. After two wins in a row a student is "on fire": every
game's points are doubled (a win 4, a draw 2) until they stop winning; a draw or a loss ends the
streak (that game is still doubled). A student who leaves a game loses it: the caller passes
Outcome.LOSS for them, which scores 0 and ends their streak, so nothing here treats it apart.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import Enum

__all__ = ["ON_FIRE_AFTER", "POINTS", "Outcome", "Scored", "on_fire", "outcomes", "score"]

# Wins in a row after which the next games' points double (Lichess: two wins light the fire).
ON_FIRE_AFTER = 2


class Outcome(str, Enum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


POINTS = {Outcome.WIN: 2, Outcome.DRAW: 1, Outcome.LOSS: 0}


@dataclass(frozen=True)
class Scored:
    outcome: Outcome
    points: int
    streak: int  # consecutive wins after this game
    doubled: bool  # the points were doubled (on a streak)


def outcomes(winners: Collection[str], players: Sequence[str]) -> dict[str, Outcome]:
    """A game's result for each player. One winner: WIN for them, LOSS for the rest. Several
    winners (a tie for first): DRAW for each of them, LOSS for the rest. Nobody marked winner
    (a game everybody drew, or that ended without a result): DRAW for all."""
    unknown = set(winners) - set(players)
    if unknown:
        raise ValueError(f"winners not in the game: {sorted(unknown)}")
    if not winners:
        return {p: Outcome.DRAW for p in players}
    top = Outcome.WIN if len(set(winners)) == 1 else Outcome.DRAW
    return {p: top if p in winners else Outcome.LOSS for p in players}


def on_fire(streak: int) -> bool:
    """With this many wins in a row, the next game's points double."""
    return streak >= ON_FIRE_AFTER


def score(outcome: Outcome, *, streak_before: int) -> Scored:
    """Points for one game given the wins in a row before it."""
    outcome = Outcome(outcome)  # a stored "win" string is accepted too
    # A loss on fire has nothing to double: doubled stays False, so no "x2" shows beside a 0.
    doubled = on_fire(streak_before) and POINTS[outcome] > 0
    points = POINTS[outcome] * (2 if doubled else 1)
    streak = streak_before + 1 if outcome is Outcome.WIN else 0
    return Scored(outcome=outcome, points=points, streak=streak, doubled=doubled)
