"""The times-table heat map: a student's or the class's all-time roll-ups per fact, and the
cards behind a student's wrong facts."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from classroom.models import Classroom
from games.engine.skills import FACT_RANGE, Measure, parse_fact

from ..cells import seconds
from ..measures import fact_measures
from ..models import SkillEvidence, SkillRollup
from ..uncertainty import band_for
from ..words import fact_to_practise
from .practice import rank_weakest

Scope = SkillRollup.Scope


@dataclass(frozen=True)
class FactCell:
    """One square of the heat map. a × b and b × a are one fact, kept in the square with
    a ≤ b; the square with a > b is its `mirror` (it shows where to look, not the numbers
    again). `median` is the median seconds per try (None when not known)."""

    a: int
    b: int
    declared: int
    wrong: int
    median: float | None = None
    mirror: bool = False

    @property
    def right(self) -> int:
        return self.declared - self.wrong

    @property
    def detail(self) -> str:
        return f"{self.a}x{self.b}"

    @property
    def product(self) -> int:
        return self.a * self.b

    @property
    def name(self) -> str:
        return f"{self.a} × {self.b}"

    @property
    def seconds(self) -> str:
        return seconds(self.median) if self.median is not None else ""

    @property
    def words(self) -> str:
        """'7 × 8: right 3 of 4 times, median 4.2 s' / '7 × 9: not tried yet'."""
        if self.mirror:
            # Translators: "8 × 7: the same fact as 7 × 8".
            return _("%(fact)s: the same fact as %(other)s") % {
                "fact": self.name, "other": f"{self.b} × {self.a}"}
        if not self.declared:
            return _("%(fact)s: not tried yet") % {"fact": self.name}
        values = {"fact": self.name, "right": self.right, "count": self.declared,
                  "time": seconds(self.median)}
        if self.median is not None:
            # Translators: "7 × 8: right 3 of 4 times, median 4.2 s a try".
            # Translators: English says "times" for 1 as well ("1 of 1 times": tries counted).
            return ngettext("%(fact)s: right %(right)s of %(count)s times, median %(time)s a try",
                            "%(fact)s: right %(right)s of %(count)s times, median %(time)s a try",
                            self.declared) % values
        return ngettext("%(fact)s: right %(right)s of %(count)s times",
                        "%(fact)s: right %(right)s of %(count)s times", self.declared) % values


@dataclass(frozen=True)
class MissedCard:
    """A card one student named a wrong fact for: the card's number (None when the move did
    not record it), the wrong facts said for it (most often first), how many times a fact
    was named wrong for it and how many times right."""

    card: int | None
    said: tuple[tuple[int, int], ...]
    wrong: int
    right: int = 0

    @property
    def words(self) -> str:
        """For the student: '12 is 2 × 6 or 3 × 4 (you said 4 × 1)'."""
        return fact_to_practise(self.card, self.said)


@dataclass(frozen=True)
class FactGrid:
    rows: list[list[FactCell]]  # a = 1..10 down, b = 1..10 across; a > b: mirrors of b × a
    measure: Measure | None = None  # whose facts (None: no registered game has a fact grid)
    # One student's grid: the cards to practise, worst first (see `missed_cards`).
    missed: tuple[MissedCard, ...] = ()

    def facts(self) -> list[FactCell]:
        """Every fact once (a ≤ b): 55 of them."""
        return [c for row in self.rows for c in row if not c.mirror]

    @property
    def declared(self) -> int:
        return sum(c.declared for c in self.facts())

    @property
    def tried(self) -> int:
        return sum(1 for c in self.facts() if c.declared)

    @property
    def never_tried(self) -> list[FactCell]:
        return [c for c in self.facts() if not c.declared]

    def practise(self, limit: int = 8) -> list[FactCell]:
        """Facts most often wrong (at least once), worst first."""
        cells = [c for c in self.facts() if c.wrong]
        return sorted(cells, key=lambda c: (-c.wrong / c.declared, -c.declared))[:limit]

    def to_practise(self, limit: int = 8) -> list[FactCell]:
        """The facts a teacher is offered "Practise this" for: those whose own band says
        Practise or Needs help, worst first by the evidence (selectors/practice.py
        `rank_weakest`): never a slip among many right, nor a fact tried once or twice."""
        cells = {c.detail: c for c in self.facts()}
        ranked = rank_weakest({d: (c.wrong, c.declared) for d, c in cells.items()}, limit)
        return [cells[d] for d in ranked if band_for(cells[d].wrong, cells[d].declared).offers_practice]

    def known(self) -> list[FactCell]:
        return [c for c in self.facts() if c.declared and not c.wrong]


def fact_measure() -> Measure | None:
    """The measure the heat map shows: the first registered one whose details are facts
    (`Measure.fact_grid`; today The Multiplication Game's only)."""
    return next(iter(fact_measures()), None)


def grid_of_rows(rows, measure: Measure | None) -> FactGrid:
    """Rows (detail, chances, misses, median seconds) of facts, a × b and b × a merged into
    the fact with a ≤ b. Two medians of one fact (rows from before details were written
    smaller number first) are joined as their mean weighted by tries."""
    counts: dict[tuple[int, int], list] = {}
    for detail, chances, misses, *median in rows:
        fact = parse_fact(detail)
        if fact is None:
            continue
        key = (min(fact), max(fact))
        found = counts.setdefault(key, [0, 0, 0.0, 0])
        found[0] += chances
        found[1] += misses
        med = median[0] if median else None
        if med is not None and chances:
            found[2] += med * chances
            found[3] += chances

    def cell(a, b):
        if a > b:
            return FactCell(a, b, 0, 0, mirror=True)
        chances, misses, weighted, timed = counts.get((a, b), (0, 0, 0.0, 0))
        return FactCell(a, b, chances, misses, round(weighted / timed, 1) if timed else None)

    return FactGrid([[cell(a, b) for b in FACT_RANGE] for a in FACT_RANGE], measure)


def missed_cards(grid: FactGrid, evidence: QuerySet[SkillEvidence], limit: int = 8) -> tuple[MissedCard, ...]:
    """The cards behind a student's wrong facts, worst first: one query over `evidence` (that
    student's rows). A miss is counted on the fact the card needed (revision 2: "8 × 7" said
    for 54 is a miss of 6 × 9); what the child said is in the move's analysis (`fact`: a, b
    and the card, The Multiplication Game's analysis), and both are shown: the card to
    practise, and what was said for it. A row whose move recorded no card says only its fact.
    A card was named right whenever a correct fact for it was declared: the grid's right
    answers with that product."""
    if grid.measure is None:
        return ()
    said: dict[int | None, dict[tuple[int, int], int]] = defaultdict(lambda: defaultdict(int))
    rows = (evidence.filter(measure=grid.measure.id, missed=True)
            .values_list("detail", "move__analysis__fact__card", "move__analysis__fact__a",
                         "move__analysis__fact__b")
            .annotate(n=Count("id")).order_by())
    for detail, card, a, b, n in rows:
        fact = (a, b) if type(a) is int and type(b) is int else parse_fact(detail)  # as said
        if fact is None:
            continue
        card = card if type(card) is int and card > 0 else None
        said[card][fact] += n
    right: dict[int, int] = defaultdict(int)
    for c in grid.facts():
        right[c.product] += c.right
    cards = [MissedCard(card, tuple(sorted(facts, key=lambda f: (-facts[f], f))), sum(facts.values()),
                        right[card]) for card, facts in said.items() if card is not None]
    cards.sort(key=lambda m: (-m.wrong / (m.wrong + m.right), -m.wrong, m.card))
    unknown = [MissedCard(None, (fact,), n) for fact, n in
               sorted(said.get(None, {}).items(), key=lambda kv: (-kv[1], kv[0]))]
    return tuple((cards + unknown)[:limit])


def _fact_rollups(*, classroom: Classroom, measure: Measure) -> QuerySet[SkillRollup]:
    """The class's all-time roll-ups of the heat map's measure per declared fact (every
    scope: the caller picks the student's or the class's)."""
    return SkillRollup.objects.filter(classroom=classroom, measure=measure.id, week__isnull=True,
                                      assignment__isnull=True).exclude(detail="")


def fact_grid(*, classroom: Classroom, student: User | None = None) -> FactGrid:
    """All-time roll-ups of the heat map's measure per declared fact, of one student or the
    class; a student's with the cards to practise (`missed_cards`)."""
    measure = fact_measure()
    if measure is None:
        return grid_of_rows((), None)
    rows = _fact_rollups(classroom=classroom, measure=measure)
    rows = rows.filter(scope=Scope.STUDENT, student=student) if student else rows.filter(scope=Scope.CLASS)
    grid = grid_of_rows(rows.values_list("detail", "chances", "misses", "amount_median"), measure)
    if student is None:
        return grid
    evidence = SkillEvidence.objects.filter(classroom=classroom, student=student)
    return replace(grid, missed=missed_cards(grid, evidence))


def fact_grids(*, classroom: Classroom, students: list[User]) -> dict[int | None, FactGrid]:
    """`fact_grid` of every one of these students (by id) and of the class (None), without
    the cards to practise, in one query (the exports); {} when no game has a fact grid."""
    measure = fact_measure()
    if measure is None:
        return {}
    rows = _fact_rollups(classroom=classroom, measure=measure).filter(
        Q(scope=Scope.STUDENT, student__in=[s.pk for s in students]) | Q(scope=Scope.CLASS))
    by_student: dict[int | None, list[tuple]] = defaultdict(list)
    for student_id, *row in rows.values_list("student_id", "detail", "chances", "misses",
                                             "amount_median"):
        by_student[student_id].append(row)
    return {sid: grid_of_rows(by_student.get(sid, ()), measure)
            for sid in [*(s.pk for s in students), None]}
