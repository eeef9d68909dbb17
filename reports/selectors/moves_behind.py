"""The evidence rows behind one number of a report (the moves page)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from accounts.models import User
from classroom.models import Assignment, Classroom
from classroom.selectors import students_of_class
from games.engine.skills import parse_fact

from ..measures import evidence_measures, fact_measures
from ..models import SkillEvidence

DRILL_LIMIT = 100


@dataclass(frozen=True)
class DrillDown:
    rows: list[SkillEvidence]
    total: int
    limit: int
    page: int = 1

    @property
    def first(self) -> int:
        return (self.page - 1) * self.limit + 1

    @property
    def last(self) -> int:
        return self.first + len(self.rows) - 1

    @property
    def has_next(self) -> bool:
        return self.page * self.limit < self.total


def evidence_behind(*, classroom: Classroom, measure: str, student: User | None = None,
                    detail: str | None = None, missed: bool | None = True,
                    week: date | None = None, assignment: Assignment | None = None,
                    game_id: int | None = None, limit: int = DRILL_LIMIT, page: int = 1) -> DrillDown:
    """The evidence rows counted by one number, newest first, `limit` a page. A detail (an
    error code, a fact, a decision kind) belongs to the measure's own rows."""
    measures = evidence_measures(measure) if detail is None else (measure,)
    rows = SkillEvidence.objects.filter(classroom=classroom, measure__in=measures,
                                        student__in=students_of_class(classroom=classroom))
    if student is not None:
        rows = rows.filter(student=student)
    if detail is not None:
        fact = parse_fact(detail)
        if fact is not None and measure in {m.id for m in fact_measures()}:
            # a × b and b × a are one fact (rows written before that may say either)
            rows = rows.filter(detail__in={f"{fact[0]}x{fact[1]}", f"{fact[1]}x{fact[0]}"})
        else:
            rows = rows.filter(detail=detail)
    if missed is not None:
        rows = rows.filter(missed=missed)
    if week is not None:
        rows = rows.filter(week=week)
    if assignment is not None:
        rows = rows.filter(assignment=assignment)
    if game_id is not None:
        rows = rows.filter(game_id=game_id)
    total = rows.count()
    start = (page - 1) * limit
    found = list(rows.select_related("game", "student", "assignment", "move")
                 .order_by("-played_at", "-id")[start:start + limit])
    return DrillDown(found, total, limit, page)
