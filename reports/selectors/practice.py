""""Practise this": what to practise (the weakest measure and details), and how the students
did before a practice assignment was set and in it."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q

from accounts.models import User
from classroom import selectors as classroom_selectors
from classroom.models import Assignment, Classroom
from classroom.progress import Progress
from games.engine.skills import Measure, parse_fact
from games.models import Seat

from ..measures import measures_by_id
from ..models import SkillEvidence, SkillRollup
from ..uncertainty import wilson

Scope = SkillRollup.Scope


MIN_CHANCES_TO_PICK = 5  # a student's weakest skill is picked among measures with this many


def weakest_details(*, classroom: Classroom, measure: str, students: list[User] | None = None,
                    limit: int = 8) -> list[str]:
    """The details of a measure (times-table facts, operations) missed most often by these
    students (the class when none), worst first, from the all-time roll-ups: one query."""
    rows = SkillRollup.objects.filter(classroom=classroom, measure=measure, week__isnull=True,
                                      assignment__isnull=True, misses__gt=0).exclude(detail="")
    rows = (rows.filter(scope=Scope.STUDENT, student__in=students) if students
            else rows.filter(scope=Scope.CLASS))
    summed: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for detail, chances, misses in rows.values_list("detail", "chances", "misses"):
        fact = parse_fact(detail)
        key = f"{min(fact)}x{max(fact)}" if fact else detail
        summed[key][0] += misses
        summed[key][1] += chances
    ranked = sorted(summed.items(), key=lambda kv: (-kv[1][0] / kv[1][1], -kv[1][0], kv[0]))
    return [detail for detail, _ in ranked[:limit]]


def weakest_measure(*, classroom: Classroom, student: User, can_practise) -> str | None:
    """The measure the student most likely misses most (the lower end of its likely range),
    among those with MIN_CHANCES_TO_PICK chances and a miss that `can_practise(measure id)`
    accepts; None when there is none yet. One query."""
    best, best_low = None, -1.0
    for measure_id, chances, misses in SkillRollup.objects.filter(
            classroom=classroom, scope=Scope.STUDENT, student=student, week__isnull=True,
            assignment__isnull=True, detail="", misses__gt=0,
            chances__gte=MIN_CHANCES_TO_PICK).order_by("measure").values_list(
            "measure", "chances", "misses"):
        if not can_practise(measure_id):
            continue
        low = wilson(misses, chances)[0]
        if low > best_low:
            best, best_low = measure_id, low
    return best


@dataclass(frozen=True)
class FocusOutcome:
    """One student's focused skill before a "Practise this" assignment was set (every game
    before then) and in its games."""

    assignment: Assignment
    student: User
    measure: Measure
    label: str
    before: tuple[int, int]   # (misses, chances) before the assignment was set
    during: tuple[int, int]   # (misses, chances) in the assignment's games
    progress: Progress

    @property
    def noun(self) -> str:
        return "wrong" if self.measure.family == "arithmetic" else "missed"

    @staticmethod
    def _part(counts: tuple[int, int], noun: str) -> str:
        misses, chances = counts
        return f"{misses} of {chances} {noun}" if chances else "no chances yet"

    @property
    def before_words(self) -> str:
        return self._part(self.before, self.noun)

    @property
    def during_words(self) -> str:
        return self._part(self.during, self.noun)

    @property
    def words(self) -> str:
        """"7 × 8: before 3 of 5 wrong, in this practice 1 of 9 wrong"."""
        return f"{self.label}: before {self.before_words}, in this practice {self.during_words}"

    @property
    def done(self) -> bool:
        return self.progress.complete

    @property
    def change(self) -> str:
        """"better", "worse" or "" (too few chances to say, or about the same)."""
        (bm, bc), (dm, dc) = self.before, self.during
        if bc < MIN_CHANCES_TO_PICK or dc < MIN_CHANCES_TO_PICK:
            return ""
        before, during = bm / bc, dm / dc
        if during <= before - 0.1:
            return "better"
        if during >= before + 0.1:
            return "worse"
        return ""


def focused_assignments(*, classroom: Classroom, assignment: Assignment | None = None) -> list[Assignment]:
    found = classroom.assignments.exclude(focus={}).prefetch_related("students").order_by("created_at", "pk")
    if assignment is not None:
        found = found.filter(pk=assignment.pk)
    return list(found)


def focus_outcomes(*, classroom: Classroom, student: User | None = None,
                   assignment: Assignment | None = None,
                   students: list[User] | None = None) -> list[FocusOutcome]:
    """Before and after of every "Practise this" assignment of the class (or one), for each
    of its students who finished at least one of its games (or one student): three queries
    per focused assignment. Before: the student's evidence of the focused measure (and its
    details: a fact counts in either order) played before the assignment was set; during:
    the evidence of the assignment's games."""
    known = measures_by_id()
    if students is None:
        students = ([student] if student is not None
                    else list(classroom_selectors.students_of_class(classroom=classroom)))
    elif student is not None:
        students = [s for s in students if s.pk == student.pk]
    outcomes = []
    for a in focused_assignments(classroom=classroom, assignment=assignment):
        measure = known.get(a.focus.get("measure", ""))
        if measure is None:
            continue
        chosen = {s.pk for s in a.students.all()}
        audience = [s for s in students if not chosen or s.pk in chosen]
        if not audience:
            continue
        counts = classroom_selectors.finished_counts(Seat.objects.filter(user__in=[s.pk for s in audience], game__assignment=a))
        played = [s for s in audience if counts.get((s.pk, a.pk), (0, 0))[0]]
        if not played:
            continue
        rows = SkillEvidence.objects.filter(classroom=classroom, measure=measure.id,
                                            student__in=[s.pk for s in played])
        details = a.focus.get("details") or []
        if details:
            rows = rows.filter(detail__in=details)

        def tally(qs):
            return {r["student_id"]: (r["misses"], r["chances"]) for r in qs.values("student_id").annotate(
                chances=Count("id"), misses=Count("id", filter=Q(missed=True))).order_by()}

        before = tally(rows.filter(played_at__lt=a.created_at).exclude(assignment=a))
        during = tally(rows.filter(assignment=a))
        for s in played:
            outcomes.append(FocusOutcome(a, s, measure, a.focus.get("label") or measure.title,
                                         before.get(s.pk, (0, 0)), during.get(s.pk, (0, 0)),
                                         Progress(a, *counts[(s.pk, a.pk)])))
    return outcomes
