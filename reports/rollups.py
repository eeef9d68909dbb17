"""A class's roll-ups, rebuilt from its evidence (the dashboard reads only these).

One GROUP BY in the database counts the evidence per (student, assignment, week, measure,
detail); every roll-up is a sum of those groups, so Python only adds a few thousand numbers.
Medians (thinking time; seconds per times-table fact) need the values themselves: the same
GROUP BY also splits those measures' groups by amount (one scan of the evidence, not two:
the second scan and its sort were half the roll-up of a million decisions), so each smallest
group's values come as (amount, how many rows have it), joined per roll-up.

Rows written (see models.SkillRollup): for the student, the class, each assignment (per
student and whole), all time (week null) and per week (its Monday); detail "" for the whole
measure, plus one row per detail of a measure whose rows have details (a fact of a
`fact_grid` measure, e.g. "7x8"), `all.rule_errors` (each error code) and `all.think_time`
(each decision kind). `all.rule_errors` chances also count the
accepted moves' `all.think_time` rows (see measures.evidence_measures).

Call through services.class_rollups_rebuild, which locks the class row: the rows are
deleted and written again in one transaction (SQLite does not enforce the unique key when
some of its columns are null, so nothing may rely on it).
"""

from __future__ import annotations

from collections import defaultdict
from itertools import chain

from django.db import connection
from django.db.models import Case, Count, F, FloatField, Q, Sum, When

from .measures import RULES, THINK, fact_measures
from .models import SkillEvidence, SkillRollup

Scope = SkillRollup.Scope


def _targets(student, assignment, week, detail):
    """The roll-up keys (scope, student, assignment, week, detail) one group adds to."""
    weeks = (None, week)
    details = ("", detail) if detail else ("",)
    for w in weeks:
        for d in details:
            yield (Scope.STUDENT, student, None, w, d)
            yield (Scope.CLASS, None, None, w, d)
            if assignment is not None:
                yield (Scope.ASSIGNMENT, student, assignment, w, d)
                yield (Scope.ASSIGNMENT, None, assignment, w, d)


def rebuild(*, classroom_id: int) -> int:
    """Replace the class's roll-ups; returns how many rows were written."""
    if connection.vendor == "postgresql":
        # Hashing a big class's groups needs more than the default 4 MB of work memory;
        # without it the planner sorted a million rows on disk to group them (about three
        # times slower). SET LOCAL: for this transaction only.
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL work_mem = '64MB'")
    median_ids = [THINK, *(m.id for m in fact_measures())]
    # A median measure's amount is part of its group (seconds are whole milliseconds, so
    # amounts repeat: far fewer groups than rows); every other measure's is null here.
    value = Case(When(measure__in=median_ids, then=F("amount")), default=None, output_field=FloatField())
    groups = (SkillEvidence.objects.filter(classroom_id=classroom_id).order_by()
              .annotate(value=value)
              .values_list("student_id", "assignment_id", "week", "measure", "detail", "value")
              .annotate(chances=Count("id"), misses=Count("id", filter=Q(missed=True)),
                        amount=Sum("amount")))
    totals: dict[tuple, list] = defaultdict(lambda: [0, 0, 0.0])
    finest: dict[tuple, list[tuple[float, int]]] = defaultdict(list)  # median measures' values
    for student, assignment, week, measure, detail, value, chances, misses, amount in groups:
        for scope, s, a, w, d in _targets(student, assignment, week, detail):
            row = totals[(scope, s, a, w, measure, d)]
            row[0] += chances
            row[1] += misses
            row[2] += amount or 0.0
        if measure == THINK:  # accepted moves: chances at the rules too (measures.evidence_measures)
            for scope, s, a, w, d in _targets(student, assignment, week, ""):
                totals[(scope, s, a, w, RULES, d)][0] += chances
        if value is not None:
            finest[(measure, student, assignment, week, detail)].append((value, chances))
    medians = _medians(finest)
    SkillRollup.objects.filter(classroom_id=classroom_id).delete()
    rows = [SkillRollup(scope=scope, classroom_id=classroom_id, student_id=s, assignment_id=a, week=w,
                        measure=measure, detail=d, chances=c, misses=x, amount_total=round(amount, 3),
                        amount_median=medians.get((measure, scope, s, a, w, d)))
            for (scope, s, a, w, measure, d), (c, x, amount) in totals.items()]
    SkillRollup.objects.bulk_create(rows, batch_size=2000)
    return len(rows)


def _medians(finest: dict[tuple, list[tuple[float, int]]]) -> dict[tuple, float]:
    """Median amounts per roll-up of the median measures: seconds per decision
    (all.think_time) and per times-table fact (a fact row's amount is the seconds its
    decision took), from each smallest group's (amount, how many rows have it) (`finest`,
    keyed by measure, student, assignment, week, detail)."""
    joined: dict[tuple, list[list[tuple[float, int]]]] = defaultdict(list)
    for (measure, student, assignment, week, detail), counted in finest.items():
        for key in _targets(student, assignment, week, detail):
            joined[(measure, *key)].append(counted)
    return {key: round(_median(parts), 3) for key, parts in joined.items()}


def _median(parts: list[list[tuple[float, int]]]) -> float:
    """statistics.median of the values these (value, count) pairs stand for: the middle
    value, or the mean of the two middle ones (the same float operations, so the same
    result)."""
    counted = sorted(chain.from_iterable(parts))
    total = sum(n for _, n in counted)
    low_at, high_at = (total - 1) // 2, total // 2  # positions of the middle value(s)
    low = None
    seen = 0
    for value, n in counted:
        seen += n
        if low is None and seen > low_at:
            low = value
        if seen > high_at:
            return low if total % 2 else (low + value) / 2
    raise ValueError("no values")
