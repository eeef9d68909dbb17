"""Ratings: how strong a student is at each game, on the scale of the computer players.

Pure figures and formulas (no database); games/services/ratings.py stores them and
games/selectors/ratings.py reads them.

The scale
---------
Elo, one rating per student per game. Every game's beginner bot is 1000; the other levels and
the mixed bot "mix:<p>" (games/engine/bots.py: the expert's move with probability p, else the
beginner's; below 0, the starter's move with probability -p, else the beginner's) have fixed
ratings found by self-play, `python -m games.engine.calibrate GAME
--games N --seed 1` (its docstring says how; the game's first preset, the smallest table).
Each game keeps its figures beside its bots (`RATINGS` in games/engine/<game>/bots.py, with
how they were measured) and its GameSpec hands them over (`GameSpec.ratings`); they hold for
the bots as they were measured, so when a game's bots change, the command is run again and
its output copied there. A game without figures gets `GENERIC`. A game played alone has
nobody to be rated against, so no rating.

A new student starts halfway between the beginner and the expert (`default_rating`): from
there a "just right" opponent is a half-and-half mix. (The starter, below the beginner,
widens the range downwards without moving where a new student starts, which the K factors
below were chosen for.)

The update (after every finished game, against bots or classmates)
-----------------------------------------------------------------
Multi-player Elo by the Luce model: at a table of players with ratings r_j, player i's expected
score is E_i = 10^(r_i/400) / sum_j 10^(r_j/400) (with two players this is Elo's
1 / (1 + 10^((r_o - r_i)/400))). The actual score S_i is 1 for a win, 1/n when n players won
together, 0 otherwise. Then r_i += K (S_i - E_i). Bots count at their fixed rating, classmates
at theirs before the game (each classmate's own rating moves by the same rule).

K shrinks as a rating settles (`k_factor`): 250 for a student's first 3 rated games of a game,
200 up to the 8th, 150 up to the 20th, 100 up to the 40th, then 64. A new rating must find the
child quickly: 20 games are a few weeks of play, and from the middle of the range a child at
either end is 100-150 points away, which K = 32 would take some 30 games to cover (the child
winning or losing most of them meanwhile: the very thing "just right" is for). And while the
opponent follows the rating, a large K is what keeps the wins near half: over a run of games
the wins minus the expected wins are the rating's movement divided by K, and each win makes
the next opponent stronger at once (each loss, weaker). The price is a rating that wanders
(about ±110 points while K is 150), so teachers read its trend over five games, and the
number settles once K is small. Chosen by simulation (tests/games/test_just_right.py):
planted students of three strengths, 20 games each, 100 seeds; the share of seeds with all
three inside 40-60 % was 0.84 with K = 200/150/100, 0.86 with 300/150/150 and 0.92 with
250/200/150 (0.90 over 200 seeds).

"Just right" opponents
----------------------
`just_right_share`: the mixed bots' share p is chosen so that the student's expected chance of
winning the game is 50 %. Against k bots of equal rating B that is B = r - 400 log10(k) (one
bot: B = r); p is read off the mix curve (linear between the measured points) and clamped
to the curve's ends: a child stronger than the expert meets the expert, one weaker than the
starter meets the starter (p = -1; a game without a starter ends at the beginner, p = 0).
Before the starter, a child weaker than the beginner could only meet the beginner and won
about a third of their games; `python manage.py just_right` prints the win rates of planted
students of five strengths, the weakest included (docs/play.md has the figures).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext_lazy, pgettext_lazy

from games import registry
from games.engine.bots import BotRatings, mix_level, mix_share

JUST_RIGHT = "just_right"  # an assignment's bot level: tuned for each child (Assignment.bot_level)
JUST_RIGHT_LABEL = gettext_lazy("Just right (adapts to each child)")
# The computer players' levels as menus name them, easiest first (a game's own level without
# a name here shows its key).
LEVEL_LABELS = {"starter": gettext_lazy("Starter (easiest)"), "beginner": gettext_lazy("Beginner (easy)"),
                "player": gettext_lazy("Player (medium)"), "expert": gettext_lazy("Expert (hard)")}
# A computer player's level as a table names it, beside its name ("computer · player").
LEVEL_WORDS = {"starter": pgettext_lazy("computer player level", "starter"),
               "beginner": pgettext_lazy("computer player level", "beginner"),
               "player": pgettext_lazy("computer player level", "player"),
               "expert": pgettext_lazy("computer player level", "expert"),
               "just right": pgettext_lazy("computer player level", "just right")}


def level_label(level: str) -> str:
    return LEVEL_LABELS.get(level, level.capitalize())


@dataclass(frozen=True)
class Figures:
    """A game's fixed bot ratings: its levels, and the mix curve ((p, rating), p ascending)."""

    levels: Mapping[str, float]
    mix: tuple[tuple[float, float], ...]

    @property
    def low(self) -> float:
        """The easiest opponent's rating (the starter's; the beginner's in a game without)."""
        return self.mix[0][1]

    @property
    def beginner(self) -> float:
        return self.levels.get("beginner", dict(self.mix).get(0.0, self.low))

    @property
    def high(self) -> float:
        return self.mix[-1][1]


def _figures(measured: BotRatings) -> Figures:
    points = sorted((float(p), float(r)) for p, r in measured.mix.items())
    # A curve measured by self-play can wobble by a few points: keep it rising, so that a
    # rating maps to one share.
    rising, top = [], -math.inf
    for p, r in points:
        top = max(top, r)
        rising.append((p, top))
    return Figures({k: float(v) for k, v in measured.levels.items()}, tuple(rising))


GENERIC = _figures(BotRatings(levels={"beginner": 1000, "player": 1200, "expert": 1300},
                              mix={0: 1000, 0.5: 1150, 1: 1300}))


def figures_for(key: str) -> Figures:
    """The game's own figures (`GameSpec.ratings`), or `GENERIC` for a game without them (or
    one no longer registered)."""
    spec = registry.get(key)
    return _figures(spec.ratings) if spec is not None and spec.ratings is not None else GENERIC


def default_rating(key: str) -> float:
    """Where a student new to the game starts: halfway between the beginner and the expert."""
    f = figures_for(key)
    return (f.beginner + f.high) / 2


def k_factor(games: int) -> float:
    """How far one game moves a rating that has `games` rated games behind it."""
    if games < 3:
        return 250.0
    if games < 8:
        return 200.0
    if games < 20:
        return 150.0
    if games < 40:
        return 100.0
    return 64.0


def mix_rating(key: str, p: float) -> float:
    """The rating of the mixed bot with share p (linear between the measured points)."""
    points = figures_for(key).mix
    p = min(max(p, points[0][0]), points[-1][0])
    i = max(1, min(bisect_right([q for q, _ in points], p), len(points) - 1))
    (p0, r0), (p1, r1) = points[i - 1], points[i]
    return r0 if p1 == p0 else r0 + (r1 - r0) * (p - p0) / (p1 - p0)


def bot_rating(key: str, level: str) -> float:
    """A computer player's fixed rating: its level's, or its mix's; an unknown level counts as
    the middle of the range."""
    p = mix_share(level)
    if p is not None:
        return mix_rating(key, p)
    return figures_for(key).levels.get(level, default_rating(key))


def expected_scores(ratings: Sequence[float]) -> list[float]:
    """Each player's expected score at one table (Luce; two players: Elo's formula)."""
    top = max(ratings)
    weights = [10 ** ((r - top) / 400) for r in ratings]
    total = sum(weights)
    return [w / total for w in weights]


def actual_scores(winners: Sequence[bool]) -> list[float]:
    """1 for a sole winner, 1/n each for n winners together, 0 for the others (no winner at
    all: an even share each)."""
    n = sum(winners)
    if n == 0:
        return [1 / len(winners)] * len(winners)
    return [1 / n if w else 0.0 for w in winners]


def updated(rating: float, *, expected: float, score: float, games: int) -> tuple[float, float]:
    """(the new rating, the K used)."""
    k = k_factor(games)
    return rating + k * (score - expected), k


def just_right_share(key: str, rating: float, bots: int = 1) -> float:
    """The mixed bots' share p (hundredths) that gives a student of `rating` an even chance of
    winning a game against `bots` such bots."""
    target = rating - 400 * math.log10(max(bots, 1))
    points = figures_for(key).mix
    if target <= points[0][1]:
        return points[0][0]
    if target >= points[-1][1]:
        return points[-1][0]
    for (p0, r0), (p1, r1) in zip(points, points[1:]):
        if r0 <= target <= r1:
            p = p0 if r1 == r0 else p0 + (p1 - p0) * (target - r0) / (r1 - r0)
            return round(p, 2)
    return points[-1][0]  # not reached: the curve rises


def just_right_level(key: str, rating: float, bots: int = 1) -> str:
    """The bot level string ("mix:0.42"; "mix:-0.30" below the beginner) of a just-right
    opponent."""
    return mix_level(just_right_share(key, rating, bots))


# What a child sees instead of the number: a friendly name for where they are in the game's
# range from the beginner to the expert (never a number, and never a name that shames: the
# lowest is a start, not a verdict; a child below the beginner reads it too).
# The child's level names (friendly words, never the number).
FRIENDLY_LEVELS = (pgettext_lazy("a child's rating level", "Getting warmed up"),
                   pgettext_lazy("a child's rating level", "Finding your feet"),
                   pgettext_lazy("a child's rating level", "On a roll"),
                   pgettext_lazy("a child's rating level", "Sharp player"),
                   pgettext_lazy("a child's rating level", "Card shark"))


def friendly_level(key: str, rating: float) -> str:
    f = figures_for(key)
    span = max(f.high - f.beginner, 1.0)
    share = (rating - f.beginner) / span
    band = int(min(max(share, 0.0), 0.999) * len(FRIENDLY_LEVELS))
    return FRIENDLY_LEVELS[band]
