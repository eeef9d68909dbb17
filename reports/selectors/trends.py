"""Weekly roll-ups as lines: the class's per measure (the dashboard's charts), and the
helpers a student's trend is built with."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta

from django.utils import timezone

from classroom.models import Classroom
from games.engine.skills import Measure

from ..measures import all_measures
from ..models import SkillRollup
from ..uncertainty import MIN_CHANCES, rate_change

Scope = SkillRollup.Scope
TREND_WEEKS = 8


def monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


@dataclass(frozen=True)
class WeekPoint:
    week: date
    misses: int
    chances: int
    median: float | None = None

    @property
    def rate(self) -> float | None:
        return self.misses / self.chances if self.chances else None


@dataclass(frozen=True)
class Trend:
    measure: Measure
    points: list[WeekPoint]  # one per week, oldest first; chances 0 for a week without play


def recent_weeks(*, today: date | None = None, count: int = TREND_WEEKS) -> list[date]:
    last = monday(today or timezone.localdate())
    return [last - timedelta(weeks=count - 1 - i) for i in range(count)]


def trends_of(rows, weeks: list[date]) -> list[Trend]:
    series: dict[str, dict[date, WeekPoint]] = defaultdict(dict)
    for measure_id, week, chances, misses, median in rows:
        series[measure_id][week] = WeekPoint(week, misses, chances, median)
    return [Trend(m, [series[m.id].get(w) or WeekPoint(w, 0, 0) for w in weeks])
            for m in all_measures() if any(p.chances for p in series.get(m.id, {}).values())]


def class_trends(*, classroom: Classroom, weeks: list[date] | None = None) -> list[Trend]:
    """The class's weekly roll-ups per measure over the last weeks: one query."""
    weeks = weeks or recent_weeks()
    rows = SkillRollup.objects.filter(
        classroom=classroom, scope=Scope.CLASS, student__isnull=True, assignment__isnull=True,
        detail="", week__gte=weeks[0], week__lte=weeks[-1],
    ).values_list("measure", "week", "chances", "misses", "amount_median")
    return trends_of(rows, weeks)


@dataclass(frozen=True)
class WeekChange:
    """The class's skills this week beside last week: how many missed clearly less (better),
    clearly more (worse), or about as often (`uncertainty.rate_change`), among the skills
    with misses played enough in both weeks."""

    better: int
    worse: int
    same: int

    @property
    def compared(self) -> int:
        return self.better + self.worse + self.same


def week_on_week(trends: list[Trend]) -> WeekChange:
    """From `class_trends` (no query): each measure with misses, its last two weekly points."""
    changes = [rate_change((t.points[-2].misses, t.points[-2].chances),
                           (t.points[-1].misses, t.points[-1].chances))
               for t in trends if t.measure.has_misses and len(t.points) >= 2
               and min(t.points[-2].chances, t.points[-1].chances) >= MIN_CHANCES]
    return WeekChange(better=changes.count(-1), worse=changes.count(1), same=changes.count(0))
