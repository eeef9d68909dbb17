"""Bot base class. A bot is given only `view(state, seat)` and must never read the state.

Bots are deterministic for a seed: each owns a private `random.Random(seed)`.

`MixedBot` is the generic bot of tunable strength ("just right" opponents: docs/play.md): at
each decision it plays the strong level's move with probability `p` and the weak level's
otherwise. Its level is written `"mix:<p>"` with p in hundredths ("mix:0.35"), a string that
fits the 10 characters of `Seat.bot_level` and travels wherever a level does;
`make_level_bot` builds it (or a plain level) from a game's `{level: class}` table, so
`games.engine.make_bot` and `GameSpec.make_bot` build both the same way.

The mix runs along one line of strengths, the starter (the easiest level), the
beginner, the expert:
- p from 0 to 1: the expert's move with probability p, else the beginner's ("mix:0.00" plays
  like the beginner, "mix:1.00" like the expert);
- p from -1 to 0, for a game with a starter: the starter's move with probability -p, else
  the beginner's ("mix:-0.40"; "mix:-1.00" plays like the starter). Children weaker than the
  beginner get an even chance too, and the levels 0 to 1 are exactly what they were before
  the starter existed (their calibrated ratings still hold).

`BotRatings` are a game's calibrated bot strengths, kept beside its bots (its `bots.py`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

MIX_PREFIX = "mix:"
STARTER = "starter"  # the easiest level, below the beginner (the low end of the mix)


class Bot:
    level = "beginner"

    def __init__(self, engine, seed: int = 0):
        self.engine = engine
        self.rng = random.Random(seed)

    def choose(self, view: dict) -> dict:
        """Return one legal action for the viewer (`view["me"]`)."""
        raise NotImplementedError


def mix_level(p: float, lowest: float = -1.0) -> str:
    """The level string of the mixed bot at share `p` (clamped to `lowest`..1, rounded to
    hundredths): 0.354 -> "mix:0.35", -0.5 -> "mix:-0.50". `lowest` is 0 for a game without
    a starter."""
    p = min(1.0, max(lowest, float(p)))
    p = round(p, 2) + 0.0  # + 0.0: never "-0.00"
    return f"{MIX_PREFIX}{p:.2f}"


def mix_share(level: str) -> float | None:
    """The share p (-1 to 1) of a "mix:<p>" level, or None for any other level (or a bad one)."""
    if not isinstance(level, str) or not level.startswith(MIX_PREFIX):
        return None
    try:
        p = float(level[len(MIX_PREFIX):])
    except ValueError:
        return None
    return p if -1.0 <= p <= 1.0 else None


def strong_and_weak(bots: Mapping[str, type]) -> tuple[type, type]:
    """The levels a mixed bot at p >= 0 mixes: "expert" and "beginner" when the game has
    them, else its last (hardest) and first (easiest) level other than the starter."""
    levels = [lv for lv in bots if lv != STARTER] or list(bots)
    strong = bots.get("expert", bots[levels[-1]])
    weak = bots.get("beginner", bots[levels[0]])
    return strong, weak


class MixedBot(Bot):
    """Plays `strong`'s move with probability `p`, else `weak`'s: a strength anywhere between
    the two levels. The coin and both inner bots are seeded from `seed`, so a decision is
    reproducible; each inner bot sees the same view and nothing else."""

    level = "mix"

    def __init__(self, engine, seed: int = 0, *, strong: type, weak: type, p: float):
        super().__init__(engine, seed)
        self.p = p
        self.strong = strong(engine, self.rng.randrange(2**62))
        self.weak = weak(engine, self.rng.randrange(2**62))

    def choose(self, view: dict) -> dict:
        inner = self.strong if self.rng.random() < self.p else self.weak
        return inner.choose(view)


def is_level(bots: Mapping[str, type], level: str) -> bool:
    """A level `make_level_bot` can build for this game: one of its own, or a mix (one below
    0 only for a game with a starter)."""
    if level in bots:
        return True
    p = mix_share(level)
    return p is not None and len(bots) > 0 and (p >= 0 or STARTER in bots)


def make_level_bot(bots: Mapping[str, type], engine, level: str, seed: int = 0):
    """A bot of `level` from a game's `{level: class}`: its own level, or "mix:<p>"."""
    if level in bots:
        return bots[level](engine, seed)
    if not is_level(bots, level):
        raise KeyError(f"unknown bot level: {level!r}")
    p = mix_share(level)
    strong, weak = strong_and_weak(bots)
    if p < 0:  # between the starter (-1) and the beginner (0): the beginner's share is 1 + p
        return MixedBot(engine, seed, strong=weak, weak=bots[STARTER], p=1.0 + p)
    return MixedBot(engine, seed, strong=strong, weak=weak, p=p)


@dataclass(frozen=True)
class BotRatings:
    """A game's bot ratings on the Elo scale of games/ratings.py (its beginner is 1000), as
    `python -m games.engine.calibrate GAME` prints them: each level's rating, and the mixed
    bot's at the measured shares p (`{p: rating}`, p = -1 being the starter, 0 the beginner
    and 1 the expert).
    Each game keeps its own beside its bots and exports them as `RATINGS_BY_GAME`; its
    GameSpec hands them to the ratings (`GameSpec.ratings`)."""

    levels: Mapping[str, float]
    mix: Mapping[float, float]
