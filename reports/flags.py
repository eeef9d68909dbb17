"""'Needs help' flags of a class, rebuilt from its roll-ups and evidence.

A student is flagged on a measure when both hold (all time, the whole measure):

1. Enough chances to mean something: at least MIN_CHANCES (10) of the student's own, and at
   least MIN_CLASS_CHANCES (20) among the rest of the class.
2. Clearly worse than the class: the student's miss rate is at least MIN_GAP (15 percentage
   points) above the miss rate of the *rest* of the class (the student is left out, so one
   student cannot hide in, or drag up, the average they are compared with), and a one-sided
   two-proportion z-test says a gap that large is unlikely to be luck: z >= Z_CRITICAL (2.33,
   about 1 in 100).

A student who missed nothing is never flagged. Separately, 4 or more refused attempts (rule
errors) in one game flag that game; and a fact, an operation or a family whose own band is
Practise or Needs help, among all the student's rows looked at together, is flagged on its own
(reports/detail_flags.py). Each flag keeps the numbers behind it in `evidence`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from math import sqrt

from .detail_flags import FACT, OPERATION, detail_flags, detail_rows
from .measures import RULES, measures_by_id
from .models import NeedsHelpFlag, SkillEvidence, SkillRollup
from .uncertainty import STRONG_MAX, wilson

MIN_CHANCES = 10
MIN_CLASS_CHANCES = 20
MIN_GAP = 0.15
Z_CRITICAL = 2.33
RULE_ERRORS_IN_GAME = 4
TEST_NAME = "one-sided two-proportion z-test against the rest of the class"


def z_score(misses: int, chances: int, other_misses: int, other_chances: int) -> float:
    """How many standard errors the student's miss rate lies above the others' (pooled)."""
    pooled = (misses + other_misses) / (chances + other_chances)
    spread = sqrt(pooled * (1 - pooled) * (1 / chances + 1 / other_chances))
    if spread == 0:
        return 0.0
    return (misses / chances - other_misses / other_chances) / spread


def miss_rate_verdict(misses: int, chances: int, other_misses: int, other_chances: int) -> dict | None:
    """The evidence for a flag, or None when the numbers do not call for one."""
    if misses == 0 or chances < MIN_CHANCES or other_chances < MIN_CLASS_CHANCES:
        return None
    rate, other_rate = misses / chances, other_misses / other_chances
    z = z_score(misses, chances, other_misses, other_chances)
    if rate - other_rate < MIN_GAP or z < Z_CRITICAL:
        return None
    # Revision 2: never "needs help" while the student's own 90 % interval still reaches
    # Strong (a few unlucky misses in a class that misses nothing can pass the z-test).
    if wilson(misses, chances)[0] <= STRONG_MAX:
        return None
    return {
        "student": {"misses": misses, "chances": chances, "rate": round(rate, 4)},
        "class": {"misses": other_misses, "chances": other_chances, "rate": round(other_rate, 4),
                  "note": "the rest of the class, without this student"},
        "test": TEST_NAME, "z": round(z, 2), "z_needed": Z_CRITICAL,
        "min_gap": MIN_GAP, "min_chances": MIN_CHANCES,
    }


def _miss_rate_flags(classroom_id: int) -> list[NeedsHelpFlag]:
    rows = SkillRollup.objects.filter(classroom_id=classroom_id, scope=SkillRollup.Scope.STUDENT,
                                      week__isnull=True, detail="", student__is_active=True)
    per_measure: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    known = measures_by_id()
    for student_id, measure, chances, misses in rows.values_list("student_id", "measure", "chances", "misses"):
        m = known.get(measure)
        if m is not None and m.has_misses:
            per_measure[measure].append((student_id, misses, chances))
    flags = []
    for measure, students in per_measure.items():
        all_misses = sum(x for _, x, _ in students)
        all_chances = sum(c for _, _, c in students)
        for student_id, misses, chances in students:
            verdict = miss_rate_verdict(misses, chances, all_misses - misses, all_chances - chances)
            if verdict is not None:
                flags.append(NeedsHelpFlag(classroom_id=classroom_id, student_id=student_id, measure=measure,
                                           reason=NeedsHelpFlag.Reason.MISS_RATE, evidence=verdict))
    return flags


def _rule_error_flags(classroom_id: int) -> list[NeedsHelpFlag]:
    refused = (SkillEvidence.objects.filter(classroom_id=classroom_id, measure=RULES, missed=True,
                                            student__is_active=True)
               .order_by("game_id", "turn", "move_id")
               .values_list("student_id", "game_id", "detail", "turn", "move_id"))
    per_game: dict[tuple[int, int], list[tuple[str, int, int]]] = defaultdict(list)
    for student_id, game_id, code, turn, move_id in refused:
        per_game[(student_id, game_id)].append((code, turn, move_id))
    flags = []
    for (student_id, game_id), errors in per_game.items():
        if len(errors) < RULE_ERRORS_IN_GAME:
            continue
        flags.append(NeedsHelpFlag(
            classroom_id=classroom_id, student_id=student_id, measure=RULES,
            reason=NeedsHelpFlag.Reason.RULE_ERRORS, game_id=game_id,
            evidence={"game_id": game_id, "errors": len(errors), "threshold": RULE_ERRORS_IN_GAME,
                      "codes": dict(Counter(code for code, _, _ in errors)),
                      "turns": [turn for _, turn, _ in errors]}))
    return flags


_REASONS = {FACT: NeedsHelpFlag.Reason.FACT, OPERATION: NeedsHelpFlag.Reason.OPERATION}


def _detail_flags(classroom_id: int) -> list[NeedsHelpFlag]:
    """Each student's facts, operations and families, judged together (detail_flags)."""
    rows = SkillRollup.objects.filter(classroom_id=classroom_id, scope=SkillRollup.Scope.STUDENT,
                                      week__isnull=True, student__is_active=True)
    per_student: dict[int, list[tuple[str, str, int, int]]] = defaultdict(list)
    for student_id, *counts in rows.values_list("student_id", "measure", "detail", "chances", "misses"):
        per_student[student_id].append(counts)
    known = measures_by_id()
    flags = []
    for student_id, counts in per_student.items():
        for found in detail_flags(detail_rows(counts, known)):
            row = found.row
            flags.append(NeedsHelpFlag(
                classroom_id=classroom_id, student_id=student_id,
                measure=row.measure, detail=row.key,
                reason=_REASONS.get(row.kind, NeedsHelpFlag.Reason.FAMILY), evidence=found.evidence))
    return flags


def refresh(*, classroom_id: int) -> int:
    """Make the class's flags match the evidence; a flag that still holds keeps its
    created_at (so "flagged since" stays true). Returns how many flags there are."""
    wanted = {(f.student_id, f.measure, f.reason, f.detail, f.game_id): f
              for f in _miss_rate_flags(classroom_id) + _rule_error_flags(classroom_id)
              + _detail_flags(classroom_id)}
    for flag in NeedsHelpFlag.objects.filter(classroom_id=classroom_id):
        key = (flag.student_id, flag.measure, flag.reason, flag.detail, flag.game_id)
        new = wanted.pop(key, None)
        if new is None:
            flag.delete()
        elif flag.evidence != new.evidence:
            flag.evidence = new.evidence
            flag.save(update_fields=["evidence", "updated_at"])
    NeedsHelpFlag.objects.bulk_create(wanted.values())
    return NeedsHelpFlag.objects.filter(classroom_id=classroom_id).count()
