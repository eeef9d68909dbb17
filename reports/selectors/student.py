"""One student's report beside the class's (the student page and the parents' PDF)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from accounts.models import User
from classroom import selectors as classroom_selectors
from classroom.models import Classroom

from ..cells import Cell, OpCell, Total
from ..families import Family, by_family, family_groups
from ..measures import measures_by_id
from ..models import SkillRollup
from .skills import skill_table
from .trends import Trend, recent_weeks, trends_of

Scope = SkillRollup.Scope


@dataclass(frozen=True)
class StudentMeasure:
    cell: Cell
    class_cell: Cell
    trend: Trend | None


def student_measures(*, classroom: Classroom, student: User) -> list[StudentMeasure]:
    """The student's all-time cells beside the class's, with the student's weekly trend."""
    weeks = recent_weeks()
    rows = SkillRollup.objects.filter(classroom=classroom, detail="", assignment__isnull=True).filter(
        Q(scope=Scope.STUDENT, student=student) | Q(scope=Scope.CLASS, week__isnull=True)
    ).values_list("student_id", "measure", "week", "chances", "misses", "amount_median",
                  "amount_total")
    mine, theirs, weekly = {}, {}, []
    known = measures_by_id()
    for student_id, measure_id, week, chances, misses, median, amount in rows:
        measure = known.get(measure_id)
        if measure is None:
            continue
        if student_id is None:
            theirs[measure_id] = Cell(measure, misses, chances, median, amount or 0.0)
        elif week is None:
            mine[measure_id] = Cell(measure, misses, chances, median, amount or 0.0)
        elif weeks[0] <= week <= weeks[-1]:
            weekly.append((measure_id, week, chances, misses, median))
    trends = {t.measure.id: t for t in trends_of(weekly, weeks)}
    return [StudentMeasure(mine[m.id], theirs.get(m.id) or Cell(m), trends.get(m.id))
            for m in by_family(known.values()) if m.id in mine and mine[m.id].chances]


def measures_by_family(measures: list[StudentMeasure]) -> list[tuple[Family, list[StudentMeasure]]]:
    """A student's measures under their family headings (Arithmetic, Strategy, ...)."""
    groups = family_groups([sm.cell.measure for sm in measures])
    by_id = {sm.cell.measure.id: sm for sm in measures}
    return [(fam, [by_id[m.id] for m in ms]) for fam, ms in groups]


@dataclass(frozen=True)
class StudentSummary:
    """One student's accuracy per operation and totals given away, beside the class's."""

    ops: list[tuple[OpCell, OpCell]]        # (the student's, the class's), operations tried
    totals: list[tuple[Total, Total]]       # (the student's, the class's)


def student_summary(*, classroom: Classroom, student: User) -> StudentSummary:
    """Per operation and totals of one student and the class: the dashboard's one query
    (`skill_table`) over the whole class, so the class's totals say "about N a student"."""
    students = list(classroom_selectors.students_of_class(classroom=classroom))
    table = skill_table(classroom=classroom, students=students)
    ops, totals = table.operations, table.totals
    op_row = next((r for r in ops.rows if r.student.pk == student.pk), None)
    total_row = next((r for r in totals.rows if r.student.pk == student.pk), None)
    return StudentSummary(
        [(c, k) for c, k in zip(op_row.cells, ops.class_cells) if c.chances] if op_row else [],
        [(c, k) for c, k in zip(total_row.cells, totals.class_cells) if c.chances] if total_row else [])
