"""The skill table: students × measures from the class's all-time roll-ups (of one
assignment if asked), with the accuracy per operation and the totals given away. The
dashboard shows it; the exports read it too, so both say the same numbers."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import User
from classroom.models import Assignment, Classroom
from games.engine.skills import OPERATIONS, Measure

from ..cells import Cell, OpCell, Total
from ..families import Family, by_family, family_groups
from ..measures import all_measures, measures_by_id
from ..models import SkillRollup
from ..operations import operation_details, operation_of
from .practice import PracticeTarget, best_target

Scope = SkillRollup.Scope


@dataclass(frozen=True)
class SkillRow:
    student: User
    cells: list[Cell]
    # The student's "Needs help" flags (all time), when the reader shows them (the dashboard):
    # the row's "Practise this" may practise one of them (a fact, an operation, the rules).
    flags: tuple = ()

    @property
    def practise_target(self) -> PracticeTarget | None:
        """What the row's "Practise this" practises: the weakest of the skills whose band says
        Practise or Needs help and of the flags (practice.py `best_target`, the rule the
        Practise page uses), or None: then the row says why there is nothing to practise."""
        return best_target([(c.measure.id, c.misses, c.chances) for c in self.cells
                            if c.measure.has_misses], self.flags)

    @property
    def practise_none(self) -> str:
        """What the row says when it has no "Practise this": no games yet, or no skill at
        Practise or Needs help (and no flag)."""
        if not any(c.chances for c in self.cells):
            return _("No games yet")
        # Translators: "Practise" is the name of a skill band.
        return _("No skill at Practise")


@dataclass(frozen=True)
class OperationRow:
    student: User
    cells: list[OpCell]


@dataclass(frozen=True)
class OperationTable:
    """Accuracy per operation (+ − × ÷), summed over the measures with `by_operation`."""

    ops: list[str]                  # the columns: operations with at least one chance
    rows: list[OperationRow]
    class_cells: list[OpCell]
    measures: list[Measure]         # the measures summed


@dataclass(frozen=True)
class TotalRow:
    student: User
    cells: list[Total]


@dataclass(frozen=True)
class TotalsTable:
    """Points given away, cards left behind: the amounts of the measures with `amount_words`,
    summed per student and for the class (one column per kind of amount)."""

    words: list[tuple[str, str]]    # the columns
    rows: list[TotalRow]
    class_cells: list[Total]
    measures: list[Measure]

    def measures_of(self, words) -> list[Measure]:
        return [m for m in self.measures if tuple(m.amount_words) == tuple(words)]


@dataclass(frozen=True)
class SkillTable:
    measures: list[Measure]  # the columns: measures with at least one chance, by family
    rows: list[SkillRow]
    class_cells: list[Cell]
    updated_at: datetime | None
    operations: OperationTable | None = None
    totals: TotalsTable | None = None

    def needing(self, measure_id: str) -> list[User]:
        """The students whose band on a measure is Practise or Needs help (a group to give
        "Practise this")."""
        try:
            i = [m.id for m in self.measures].index(measure_id)
        except ValueError:
            return []
        return [r.student for r in self.rows if r.cells[i].chances and r.cells[i].band.key in ("practise", "help")]

    @property
    def families(self) -> list[tuple[Family, int]]:
        """(family, how many columns it has), in column order: the table's group headings."""
        return [(fam, len(ms)) for fam, ms in family_groups(self.measures)]


def operation_measures() -> list[Measure]:
    return [m for m in all_measures() if getattr(m, "by_operation", False)]


def amount_measures() -> list[Measure]:
    """The strategy measures whose amount is what a choice cost (points given away, cards
    left behind): the totals. (An arithmetic measure's amount, e.g. seconds per fact, is not
    a cost to add up.)"""
    return [m for m in all_measures() if m.amount_words and m.family == "strategy"]


def _operation_table(per: dict, students: list[User], measures: list[Measure]) -> OperationTable:
    """`per[(student_id or None, op)] = [misses, chances, {measure ids}]`."""
    ops = [op for op in OPERATIONS if any(k[1] == op and v[1] for k, v in per.items())]

    def cell(sid, op):
        misses, chances, ids = per.get((sid, op), (0, 0, set()))
        return OpCell(op, misses, chances, tuple(sorted(ids)))

    return OperationTable(ops, [OperationRow(s, [cell(s.pk, op) for op in ops]) for s in students],
                          [cell(None, op) for op in ops], measures)


def totals_table(cells: dict, students: list[User], measures: list[Measure]) -> TotalsTable:
    """`cells[student_id or None][measure_id]` = Cell (with its amount)."""
    words: list[tuple[str, str]] = []
    for m in measures:
        if tuple(m.amount_words) not in words:
            words.append(m.amount_words)  # a Unit: said in the reader's language

    def total(sid, w, class_size=0):
        mine = [cells.get(sid, {}).get(m.id) for m in measures if tuple(m.amount_words) == w]
        mine = [c for c in mine if c is not None]
        return Total(w, sum(c.amount for c in mine), sum(c.chances for c in mine), class_size)

    played = {w: sum(1 for s in students if total(s.pk, w).chances) for w in words}
    used = [w for w in words if total(None, w).chances or played[w]]
    return TotalsTable(used, [TotalRow(s, [total(s.pk, w) for w in used]) for s in students],
                       [total(None, w, played[w]) for w in used], measures)


def skill_table(*, classroom: Classroom, students: list[User],
                assignment: Assignment | None = None, flags=()) -> SkillTable:
    """Students × measures from all-time roll-ups (of one assignment if given), with the
    per-operation accuracy and the totals given away: one query. `flags`: the class's "Needs
    help" flags, each row given its student's (for its "Practise this")."""
    op_measures = operation_measures()
    rollups = SkillRollup.objects.filter(classroom=classroom, week__isnull=True).filter(
        Q(detail="") | Q(measure__in=[m.id for m in op_measures], detail__in=operation_details()))
    if assignment is not None:
        rollups = rollups.filter(scope=Scope.ASSIGNMENT, assignment=assignment)
    else:
        rollups = rollups.filter(scope__in=[Scope.STUDENT, Scope.CLASS])
    by_student: dict[int | None, dict[str, Cell]] = defaultdict(dict)
    per_op: dict[tuple, list] = {}
    updated = None
    known = measures_by_id()
    for student_id, measure_id, detail, chances, misses, median, amount, when in rollups.values_list(
            "student_id", "measure", "detail", "chances", "misses", "amount_median", "amount_total",
            "updated_at"):
        measure = known.get(measure_id)
        if measure is None:
            continue
        if detail:
            op = operation_of(detail)
            if op is not None:
                row = per_op.setdefault((student_id, op), [0, 0, set()])
                row[0] += misses
                row[1] += chances
                row[2].add(measure_id)
            continue
        by_student[student_id][measure_id] = Cell(measure, misses, chances, median, amount or 0.0)
        updated = when if updated is None or when > updated else updated
    used = {mid for cells in by_student.values() for mid, c in cells.items() if c.chances}
    measures = by_family([m for m in known.values() if m.id in used])
    flagged: dict[int, list] = defaultdict(list)
    for flag in flags:
        flagged[flag.student_id].append(flag)
    rows = [SkillRow(s, [by_student.get(s.pk, {}).get(m.id) or Cell(m) for m in measures],
                     tuple(flagged.get(s.pk, ())))
            for s in students]
    class_cells = [by_student.get(None, {}).get(m.id) or Cell(m) for m in measures]
    return SkillTable(measures, rows, class_cells, updated,
                      operations=_operation_table(per_op, students, op_measures),
                      totals=totals_table(by_student, students,
                                           [m for m in amount_measures() if m.id in used]))
