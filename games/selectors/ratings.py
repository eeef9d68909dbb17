"""Ratings reads: a student's rating in each game and its trend (games/ratings.py: the scale).

Teachers see the number and its trend; children see `RatingSummary.level_name` only (a
friendly name, never a number). templates/games/_rating.html shows one summary either way.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.utils.translation import gettext, ngettext

from games import ratings, registry
from games.models import PlayerRating, RatingChange

TREND_GAMES = 5      # the trend a teacher reads: the change over the last five rated games
STEADY_WITHIN = 15   # a smaller change over them reads "steady"
SPARK_GAMES = 20     # the sparkline: the last twenty rated games
SPARK_WIDTH, SPARK_HEIGHT = 120, 28


@dataclass(frozen=True)
class RatingPoint:
    played_at: datetime
    game_id: int
    before: float
    after: float
    score: float

    @property
    def won(self) -> bool:
        return self.score > 0


@dataclass(frozen=True)
class RatingSummary:
    key: str
    game_name: str
    rating: int           # rounded: for teachers only
    games: int            # rated games so far
    level_name: str       # what a child sees
    points: list[RatingPoint] = field(default_factory=list)  # the last SPARK_GAMES, oldest first

    @property
    def change(self) -> int:
        """The change over the last TREND_GAMES rated games (all of them when fewer)."""
        recent = self.points[-TREND_GAMES:]
        return round(recent[-1].after - recent[0].before) if recent else 0

    @property
    def trend_games(self) -> int:
        return len(self.points[-TREND_GAMES:])

    @property
    def direction(self) -> str:
        """"up", "down" or "steady" (also before any rated game)."""
        if abs(self.change) < STEADY_WITHIN:
            return "steady"
        return "up" if self.change > 0 else "down"

    @property
    def trend_words(self) -> str:
        """For a teacher: "up 64 over the last 5 games", "steady over the last 3 games"."""
        n = self.trend_games
        if n == 0:
            return gettext("no rated games yet")
        values = {"n": n, "change": abs(self.change)}
        if self.direction == "steady":
            return ngettext("steady over the last game", "steady over the last %(n)s games", n) % values
        if self.direction == "up":
            return ngettext("up %(change)s over the last game", "up %(change)s over the last %(n)s games",
                            n) % values
        return ngettext("down %(change)s over the last game", "down %(change)s over the last %(n)s games",
                        n) % values

    @property
    def sparkline(self) -> str:
        """SVG polyline points of the rating before the first shown game and after each."""
        values = ([self.points[0].before] + [p.after for p in self.points]) if self.points else []
        if len(values) < 2:
            return ""
        low, high = min(values), max(values)
        span = max(high - low, 1.0)
        step = SPARK_WIDTH / (len(values) - 1)
        return " ".join(f"{i * step:.1f},{SPARK_HEIGHT - 2 - (v - low) / span * (SPARK_HEIGHT - 4):.1f}"
                        for i, v in enumerate(values))

    @property
    def spark_width(self) -> int:
        return SPARK_WIDTH

    @property
    def spark_height(self) -> int:
        return SPARK_HEIGHT


def _summary(key: str, row: PlayerRating | None, points: list[RatingPoint]) -> RatingSummary:
    value = row.rating if row is not None else ratings.default_rating(key)
    games = row.games if row is not None else 0
    # Before any rated game a child is "Getting warmed up", whatever the default rating.
    name = ratings.friendly_level(key, value) if games else ratings.FRIENDLY_LEVELS[0]
    return RatingSummary(key=key, game_name=registry.game_name(key), rating=round(value), games=games,
                         level_name=str(name), points=points)


def _points(changes: Iterable[RatingChange]) -> dict[tuple[int, str], list[RatingPoint]]:
    by: dict[tuple[int, str], list[RatingPoint]] = defaultdict(list)
    for c in changes:
        by[(c.user_id, c.key)].append(RatingPoint(c.played_at, c.game_id, c.before, c.after, c.score))
    return {k: v[-SPARK_GAMES:] for k, v in by.items()}


def _menu_order(keys: Iterable[str]) -> list[str]:
    order = {spec.key: i for i, spec in enumerate(registry.all_games())}
    return sorted(keys, key=lambda k: (order.get(k, len(order)), k))


def student_rating(*, student, key: str) -> RatingSummary:
    """The student's rating in one game, with its trend (the default before any rated game).
    Two queries."""
    row = PlayerRating.objects.filter(user=student, key=key).first()
    changes = list(RatingChange.objects.filter(user=student, key=key).order_by("-played_at", "-id")
                   .only("user_id", "key", "game_id", "played_at", "before", "after", "score")[:SPARK_GAMES])
    return _summary(key, row, _points(reversed(changes)).get((student.pk, key), []))


def rating_trend(*, student, key: str, last: int = SPARK_GAMES) -> list[RatingPoint]:
    """The student's last `last` rating changes in a game, oldest first."""
    changes = list(RatingChange.objects.filter(user=student, key=key).order_by("-played_at", "-id")[:last])
    return [RatingPoint(c.played_at, c.game_id, c.before, c.after, c.score) for c in reversed(changes)]


def student_ratings(*, student) -> list[RatingSummary]:
    """Every game the student has a rating in, in menu order. Two queries."""
    return students_ratings(students=[student]).get(student.pk, [])


def students_ratings(*, students, key: str | None = None) -> dict[int, list[RatingSummary]]:
    """student id -> their ratings (menu order; only games they have a rating in), for a class
    report or an export. Two queries whatever the number of students. With `key`, that game
    only."""
    ids = [s.pk for s in students]
    rows = PlayerRating.objects.filter(user_id__in=ids)
    changes = RatingChange.objects.filter(user_id__in=ids).order_by("played_at", "id").only(
        "user_id", "key", "game_id", "played_at", "before", "after", "score")
    if key is not None:
        rows, changes = rows.filter(key=key), changes.filter(key=key)
    points = _points(changes)
    by_student: dict[int, dict[str, PlayerRating]] = defaultdict(dict)
    for row in rows:
        by_student[row.user_id][row.key] = row
    return {sid: [_summary(k, by_student[sid][k], points.get((sid, k), []))
                  for k in _menu_order(by_student[sid])]
            for sid in ids if sid in by_student}
