"""How far a student is with an assignment, in words, a bar and stars.

Counts come from the selectors (finished games of the assignment where the student had a
seat); this module only turns them into what students and teachers read.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _, ngettext

from .models import Assignment

MAX_STARS_SHOWN = 10  # a row of more stars stops being readable; the text carries the count


@dataclass(frozen=True)
class Progress:
    assignment: Assignment
    played: int = 0
    won: int = 0

    @property
    def counted(self) -> int:
        """What the goal counts: wins for a 'win M' goal, games otherwise."""
        return self.won if self.assignment.goal == Assignment.Goal.WIN else self.played

    @property
    def target(self) -> int | None:
        """The number to reach, or None for 'play until a date'."""
        if self.assignment.goal == Assignment.Goal.UNTIL:
            return None
        return self.assignment.goal_count

    @property
    def complete(self) -> bool:
        if self.target is None:
            until = self.assignment.goal_until
            return bool(until and self.played and until < _today())
        return self.counted >= self.target

    @property
    def percent(self) -> int:
        if self.target is None:
            return 100 if self.complete else 0
        return min(100, round(100 * self.counted / self.target)) if self.target else 100

    @property
    def text(self) -> str:
        if self.assignment.goal == Assignment.Goal.WIN:
            # Translators: progress towards a goal, "2 of 5 wins" (the plural follows the goal).
            return ngettext("%(done)s of %(target)s win", "%(done)s of %(target)s wins",
                            self.target) % {"done": self.won, "target": self.target}
        if self.assignment.goal == Assignment.Goal.PLAY:
            return ngettext("%(done)s of %(target)s game", "%(done)s of %(target)s games",
                            self.target) % {"done": self.played, "target": self.target}
        until = self.assignment.goal_until
        if until:
            # Translators: "3 games played (until 5 Jun)".
            return ngettext("%(count)s game played (until %(date)s)", "%(count)s games played (until %(date)s)",
                            self.played) % {"count": self.played, "date": date_format(until, "j M")}
        return ngettext("%(count)s game played", "%(count)s games played",
                        self.played) % {"count": self.played}

    @property
    def stars_earned(self) -> int:
        limit = self.target if self.target is not None else MAX_STARS_SHOWN
        return min(self.counted, limit, MAX_STARS_SHOWN)

    @property
    def stars_left(self) -> int:
        if self.target is None:
            return 0
        return max(0, min(self.target, MAX_STARS_SHOWN) - self.stars_earned)

    @property
    def star_range(self) -> range:
        return range(self.stars_earned)

    @property
    def empty_star_range(self) -> range:
        return range(self.stars_left)


def _today() -> date:
    return timezone.localdate()
