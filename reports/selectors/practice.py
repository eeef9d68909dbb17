""""Practise this": what to practise (the weakest measure and details), and how the students
did before a practice assignment was set and in it."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from classroom import selectors as classroom_selectors
from classroom.models import Assignment, Classroom
from classroom.progress import Progress
from games import registry
from games.engine.skills import Measure, both_orders, fact_name, parse_fact
from games.models import Seat
from games.practice import label_of

from ..measures import measures_by_id
from ..models import SkillEvidence, SkillRollup
from ..uncertainty import band_for, likely_at_least
from ..words import listed

Scope = SkillRollup.Scope


MIN_CHANCES_TO_PICK = 5  # fewer chances than this say nothing (uncertainty.MIN_CHANCES)


def rank_weakest(counts: dict[str, tuple[int, int]], limit: int = 8) -> list[str]:
    """Details (facts, operations) worst first by the evidence, from {detail: (misses,
    chances)}: those whose own band says Practise or Needs help first, then the others with
    MIN_CHANCES_TO_PICK chances and a miss, each by the miss rate the student very likely has
    at least (`likely_at_least`), then by misses; last, misses in fewer tries. A detail with
    a miss or two in a handful of tries never outranks one with evidence: a raw rate would
    put 1 of 1 first."""
    ranked = []
    for detail, (misses, chances) in counts.items():
        if not misses:
            continue
        # 0: its band says Practise or Needs help; 1: enough chances to say something; 2: a
        # miss in a few tries, last (then most misses first): when a child's misses are
        # spread thin, the facts they did miss still beat the plain game.
        tier = 0 if band_for(misses, chances).offers_practice else 1 if chances >= MIN_CHANCES_TO_PICK else 2
        order = (-misses, -likely_at_least(misses, chances)) if tier == 2 else \
            (-likely_at_least(misses, chances), -misses)
        ranked.append(((tier, *order, detail), detail))
    return [detail for _, detail in sorted(ranked)[:limit]]


def pick_weakest(rows, can_practise) -> str | None:
    """The measure to practise among (measure id, misses, chances) rows: one whose band says
    Practise or Needs help and that `can_practise(measure id)` accepts, the one with the
    highest miss rate the student very likely has at least; None when there is none. The
    dashboard's row link and the Practise page use this one rule."""
    best, best_low = None, -1.0
    for measure_id, misses, chances in rows:
        if not band_for(misses, chances).offers_practice or not can_practise(measure_id):
            continue
        low = likely_at_least(misses, chances)
        if low > best_low:
            best, best_low = measure_id, low
    return best


def _all_time_rows(*, classroom: Classroom, students: list[User] | None, measure: str):
    rows = SkillRollup.objects.filter(classroom=classroom, measure=measure, week__isnull=True,
                                      assignment__isnull=True)
    return (rows.filter(scope=Scope.STUDENT, student__in=students) if students
            else rows.filter(scope=Scope.CLASS))


def weakest_details(*, classroom: Classroom, measure: str, students: list[User] | None = None,
                    limit: int = 8) -> list[str]:
    """The details of a measure (times-table facts, operations) these students (the class
    when none) most need to practise, worst first by the evidence (`rank_weakest`), from the
    all-time roll-ups: one query. a × b and b × a are one fact."""
    rows = _all_time_rows(classroom=classroom, students=students, measure=measure).exclude(detail="")
    summed: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for detail, chances, misses in rows.values_list("detail", "chances", "misses"):
        fact = parse_fact(detail)
        key = f"{min(fact)}x{max(fact)}" if fact else detail
        summed[key][0] += misses
        summed[key][1] += chances
    return rank_weakest({k: (m, c) for k, (m, c) in summed.items()}, limit)


def weakest_measure(*, classroom: Classroom, student: User, can_practise) -> str | None:
    """The measure the student most needs to practise (`pick_weakest`) from the all-time
    roll-ups, or None when no band says Practise or Needs help yet. One query."""
    return pick_weakest(SkillRollup.objects.filter(
        classroom=classroom, scope=Scope.STUDENT, student=student, week__isnull=True,
        assignment__isnull=True, detail="").order_by("measure").values_list(
        "measure", "misses", "chances"), can_practise)


def nothing_to_practise(*, classroom: Classroom, students: list[User], measure: Measure | None,
                        detail: str = "") -> str:
    """Why "Practise this" has nothing to give these students, in words ("" when it has):
    no evidence of the measure (or its detail) for any of them, or, with no measure chosen
    for one student, no skill a game can practise at Practise or Needs help."""
    if not students:
        return ""
    shown = [s.display_name for s in students[:3]]
    # Translators: the end of a list of more than three students' names, "Ann, Ben, Cy and others".
    names = listed(shown + [_("others")]) if len(students) > 3 else listed(shown)
    count = len(students)
    evidence = SkillRollup.objects.filter(classroom=classroom, scope=Scope.STUDENT, student__in=students,
                                          week__isnull=True, assignment__isnull=True, chances__gt=0)
    if not evidence.exists():
        return ngettext(
            "Nothing to practise yet: %(names)s has not finished a game yet. Set an ordinary "
            "assignment first; Practise this appears once a skill needs it.",
            "Nothing to practise yet: %(names)s have not finished a game yet. Set an ordinary "
            "assignment first; Practise this appears once a skill needs it.", count) % {"names": names}
    if measure is None:
        # Translators: names is one student's name (or a few); "Practise" and "Needs help" are skill bands.
        return _("Nothing to practise: none of %(names)s’s skills that a game can practise is at "
                 "Practise or Needs help. Set an ordinary assignment to keep playing.") % {"names": names}
    rows = evidence.filter(measure=measure.id)
    if detail:
        rows = rows.filter(detail__in=both_orders(detail))
    if rows.exists():
        return ""
    game = registry.get(measure.game)
    if game is not None and not evidence.filter(measure__in=[m.id for m in game.skills.measures]).exists():
        return ngettext("Nothing to practise yet: %(names)s has not played a game of %(game)s yet.",
                        "Nothing to practise yet: %(names)s have not played a game of %(game)s yet.",
                        count) % {"names": names, "game": game.name}
    # Translators: what is a times-table fact ("7 × 8") or a skill's name in quotes.
    what = fact_name(detail) if detail else _("“%(skill)s”") % {"skill": measure.title}
    return _("Nothing to practise yet: %(names)s’s games have not asked for %(what)s yet.") % {
        "names": names, "what": what}


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
    def arithmetic(self) -> bool:
        return self.measure.family == "arithmetic"

    @staticmethod
    def _part(counts: tuple[int, int], arithmetic: bool) -> str:
        misses, chances = counts
        if not chances:
            return _("no chances yet")
        values = {"misses": misses, "count": chances}
        # Translators: "3 of 5 wrong" (sums) / "3 of 5 missed" (choices), before and in a practice.
        return (_("%(misses)s of %(count)s wrong") if arithmetic else _("%(misses)s of %(count)s missed")) % values

    @property
    def before_words(self) -> str:
        return self._part(self.before, self.arithmetic)

    @property
    def during_words(self) -> str:
        return self._part(self.during, self.arithmetic)

    @property
    def words(self) -> str:
        """"7 × 8: before 3 of 5 wrong, in this practice 1 of 9 wrong"."""
        # Translators: "7 × 8: before 3 of 5 wrong, in this practice 1 of 9 wrong".
        return _("%(skill)s: before %(before)s, in this practice %(during)s") % {
            "skill": self.label, "before": self.before_words, "during": self.during_words}

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
            outcomes.append(FocusOutcome(a, s, measure, label_of(a.focus) or measure.title,
                                         before.get(s.pk, (0, 0)), during.get(s.pk, (0, 0)),
                                         Progress(a, *counts[(s.pk, a.pk)])))
    return outcomes
