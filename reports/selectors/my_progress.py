"""A student's own progress ("My progress"): their own roll-ups only, never a classmate's
or the class's."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import date

from accounts.models import User
from games.engine.skills import OPERATIONS, Measure

from ..cells import Cell, OpCell, Total
from ..families import by_family
from ..measures import measures_by_id
from ..models import SkillEvidence, SkillRollup
from ..operations import operation_details, operation_of
from .facts import FactGrid, fact_measure, grid_of_rows, missed_cards
from .skills import amount_measures, operation_measures, totals_table

Scope = SkillRollup.Scope


@dataclass(frozen=True)
class OwnMeasure:
    measure: Measure
    total: Cell
    recent: tuple[int, int]   # (misses, chances) in the last week played
    before: tuple[int, int]   # (misses, chances) in the weeks before it
    recent_week: date | None


@dataclass(frozen=True)
class OwnProgress:
    measures: list[OwnMeasure]
    facts: FactGrid
    ops: list[OpCell] = field(default_factory=list)  # operations tried, in OPERATIONS order
    totals: list[Total] = field(default_factory=list)  # what choices gave away, per kind


def own_progress(*, student: User) -> OwnProgress:
    """A student's own roll-ups only (never a classmate's, never the class's), the cards
    behind their wrong facts, and their accuracy per operation: four queries."""
    rows = SkillRollup.objects.filter(scope=Scope.STUDENT, student=student, assignment__isnull=True)
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    amounts: dict[str, float] = defaultdict(float)
    medians: dict[str, float | None] = {}
    weekly: dict[str, dict[date, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    known = measures_by_id()
    for measure_id, week, chances, misses, median, amount in rows.filter(detail="").values_list(
            "measure", "week", "chances", "misses", "amount_median", "amount_total"):
        if measure_id not in known:
            continue
        if week is None:
            totals[measure_id][0] += misses
            totals[measure_id][1] += chances
            amounts[measure_id] += amount
            medians[measure_id] = median
        else:
            weekly[measure_id][week][0] += misses
            weekly[measure_id][week][1] += chances
    measures = []
    for m in known.values():
        misses, chances = totals.get(m.id, (0, 0))
        if not chances:
            continue
        weeks = sorted(weekly.get(m.id, {}).items())
        recent_week, recent, before = None, (0, 0), (0, 0)
        if weeks:
            recent_week, (r_miss, r_chances) = weeks[-1]
            recent = (r_miss, r_chances)
            before = (sum(v[0] for _, v in weeks[:-1]), sum(v[1] for _, v in weeks[:-1]))
        measures.append(OwnMeasure(m, Cell(m, misses, chances, medians.get(m.id)),
                                   recent, before, recent_week))
    fm = fact_measure()
    facts = grid_of_rows(rows.filter(measure=fm.id, week__isnull=True).exclude(detail="")
                  .values_list("detail", "chances", "misses", "amount_median") if fm else (), fm)
    if facts.declared:
        facts = replace(facts, missed=missed_cards(facts, SkillEvidence.objects.filter(student=student)))
    per_op: dict[str, list] = {}
    op_ids = [m.id for m in operation_measures()]
    if op_ids:
        for measure_id, detail, chances, misses in rows.filter(
                measure__in=op_ids, week__isnull=True, detail__in=operation_details()).values_list(
                "measure", "detail", "chances", "misses"):
            op = operation_of(detail)
            found = per_op.setdefault(op, [0, 0, set()])
            found[0] += misses
            found[1] += chances
            found[2].add(measure_id)
    ops = [OpCell(op, per_op[op][0], per_op[op][1], tuple(sorted(per_op[op][2])))
           for op in OPERATIONS if op in per_op and per_op[op][1]]
    spent = amount_measures()
    cells = {student.pk: {m.id: Cell(m, *totals[m.id], amount=amounts[m.id]) for m in spent if m.id in totals}}
    given = totals_table(cells, [student], spent).rows[0].cells
    return OwnProgress(by_family_own(measures), facts, ops, given)


def by_family_own(measures: list[OwnMeasure]) -> list[OwnMeasure]:
    order = {m.id: i for i, m in enumerate(by_family([om.measure for om in measures]))}
    return sorted(measures, key=lambda om: order[om.measure.id])
