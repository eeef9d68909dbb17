"""Reads for the skill reports, always for one class the caller has already fetched through
`classroom.selectors.classes_for_teacher` (views and the dashboard consumer do that), or for
a student's own rows.

The dashboard reads roll-ups, never evidence, in a fixed number of queries whatever the class
size; the drill-down reads the evidence rows behind one number.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from accounts.models import User
from classroom import selectors as classroom_selectors
from classroom.models import Assignment, Classroom
from classroom.progress import Progress
from games.engine.skills import FACT_RANGE, OPERATIONS, Measure, parse_fact
from games.models import Game, Seat

from .measures import all_measures, evidence_measures, fact_measures, measures_by_id
from .models import NeedsHelpFlag, RecomputeJob, SkillEvidence, SkillRollup
from .words import (Cell, Family, OpCell, Total, by_family, fact_to_practise, family_groups,
                    operation_details, operation_of, seconds, wilson)

STUDENT, CLASS, ASSIGNMENT = (SkillRollup.Scope.STUDENT, SkillRollup.Scope.CLASS,
                              SkillRollup.Scope.ASSIGNMENT)
TREND_WEEKS = 8
DRILL_LIMIT = 100


def monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _empty_cells(measures) -> dict[str, Cell]:
    return {m.id: Cell(m) for m in measures}


# ----- the skill table ------------------------------------------------------------------

@dataclass(frozen=True)
class SkillRow:
    student: User
    cells: list[Cell]


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


def _totals_table(cells: dict, students: list[User], measures: list[Measure]) -> TotalsTable:
    """`cells[student_id or None][measure_id]` = Cell (with its amount)."""
    words: list[tuple[str, str]] = []
    for m in measures:
        if tuple(m.amount_words) not in words:
            words.append(tuple(m.amount_words))

    def total(sid, w, class_size=0):
        mine = [cells.get(sid, {}).get(m.id) for m in measures if tuple(m.amount_words) == w]
        mine = [c for c in mine if c is not None]
        return Total(w, sum(c.amount for c in mine), sum(c.chances for c in mine), class_size)

    played = {w: sum(1 for s in students if total(s.pk, w).chances) for w in words}
    used = [w for w in words if total(None, w).chances or played[w]]
    return TotalsTable(used, [TotalRow(s, [total(s.pk, w) for w in used]) for s in students],
                       [total(None, w, played[w]) for w in used], measures)


def skill_table(*, classroom: Classroom, students: list[User],
                assignment: Assignment | None = None) -> SkillTable:
    """Students × measures from all-time roll-ups (of one assignment if given), with the
    per-operation accuracy and the totals given away: one query."""
    op_measures = operation_measures()
    rollups = SkillRollup.objects.filter(classroom=classroom, week__isnull=True).filter(
        Q(detail="") | Q(measure__in=[m.id for m in op_measures], detail__in=operation_details()))
    if assignment is not None:
        rollups = rollups.filter(scope=ASSIGNMENT, assignment=assignment)
    else:
        rollups = rollups.filter(scope__in=[STUDENT, CLASS])
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
    rows = [SkillRow(s, [by_student.get(s.pk, {}).get(m.id) or Cell(m) for m in measures])
            for s in students]
    class_cells = [by_student.get(None, {}).get(m.id) or Cell(m) for m in measures]
    return SkillTable(measures, rows, class_cells, updated,
                      operations=_operation_table(per_op, students, op_measures),
                      totals=_totals_table(by_student, students,
                                           [m for m in amount_measures() if m.id in used]))


# ----- trends ---------------------------------------------------------------------------

@dataclass(frozen=True)
class WeekPoint:
    week: date
    misses: int
    chances: int
    median: float | None = None

    @property
    def rate(self) -> float | None:
        return self.misses / self.chances if self.chances else None


@dataclass(frozen=True)
class Trend:
    measure: Measure
    points: list[WeekPoint]  # one per week, oldest first; chances 0 for a week without play


def recent_weeks(*, today: date | None = None, count: int = TREND_WEEKS) -> list[date]:
    last = monday(today or timezone.localdate())
    return [last - timedelta(weeks=count - 1 - i) for i in range(count)]


def _trends(rows, weeks: list[date]) -> list[Trend]:
    series: dict[str, dict[date, WeekPoint]] = defaultdict(dict)
    for measure_id, week, chances, misses, median in rows:
        series[measure_id][week] = WeekPoint(week, misses, chances, median)
    return [Trend(m, [series[m.id].get(w) or WeekPoint(w, 0, 0) for w in weeks])
            for m in all_measures() if any(p.chances for p in series.get(m.id, {}).values())]


def class_trends(*, classroom: Classroom, weeks: list[date] | None = None) -> list[Trend]:
    """The class's weekly roll-ups per measure over the last weeks: one query."""
    weeks = weeks or recent_weeks()
    rows = SkillRollup.objects.filter(
        classroom=classroom, scope=CLASS, student__isnull=True, assignment__isnull=True,
        detail="", week__gte=weeks[0], week__lte=weeks[-1],
    ).values_list("measure", "week", "chances", "misses", "amount_median")
    return _trends(rows, weeks)


# ----- what is happening now ------------------------------------------------------------

@dataclass(frozen=True)
class Completion:
    assignment: Assignment
    done: int
    assigned: int


@dataclass(frozen=True)
class Today:
    games: int
    by_student: list[tuple[User, int]]


@dataclass
class Dashboard:
    classroom: Classroom
    students: list[User]
    playing: list[Seat]
    today: Today
    completion: list[Completion]
    skills: SkillTable
    trends: list[Trend]
    flags: list[NeedsHelpFlag]
    assignment: Assignment | None
    assignments: list[Assignment]
    last_job: RecomputeJob | None = None
    extra: dict = field(default_factory=dict)


def playing_now(*, classroom: Classroom) -> list[Seat]:
    """Students at games with a move in the last PLAYING_NOW_MINUTES (settings). A game's last
    move is `turn_started_at` (set by the deal and by each accepted move, and by nothing else);
    `updated_at` also changes when a seat changes hands or a game is stopped, so a game left
    alone could look busy. A game left for longer is not "now" (issue #15: one child's seven
    idle games were listed); the beat task puts it away after GAME_IDLE_CLOSE_MINUTES."""
    from django.conf import settings

    since = timezone.now() - timedelta(minutes=settings.PLAYING_NOW_MINUTES)
    # (a game stored without `turn_started_at`, never dealt by the services: its last change)
    recent = (Q(game__turn_started_at__gte=since)
              | Q(game__turn_started_at__isnull=True, game__updated_at__gte=since))
    return list(Seat.objects.filter(
        recent, game__classroom=classroom, game__status=Game.Status.ACTIVE,
        user__isnull=False, user__is_active=True,
    ).select_related("game", "game__assignment", "user").order_by("user__display_name", "game_id"))


def finished_today(*, classroom: Classroom, students: list[User]) -> Today:
    """Games of the class finished since midnight with a student at the table: one query."""
    start = timezone.make_aware(datetime.combine(timezone.localdate(), time.min))
    pairs = Seat.objects.filter(game__classroom=classroom, game__status=Game.Status.FINISHED,
                                game__finished_at__gte=start, user__isnull=False
                                ).values_list("user_id", "game_id")
    games, per_student = set(), defaultdict(int)
    for user_id, game_id in pairs:
        games.add(game_id)
        per_student[user_id] += 1
    return Today(len(games), [(s, per_student[s.pk]) for s in students if per_student.get(s.pk)])


def assignment_completion(*, classroom: Classroom, students: list[User]) -> list[Completion]:
    """Open assignments with how many of their students reached the goal: three queries.
    (The class page's `class_progress` also counts every game ever played per student,
    which the dashboard does not show and which is its slowest query on a big class.)"""
    assignments = [a for a in classroom_selectors.assignments_of_class(classroom=classroom)
                   if not a.is_closed]
    counts = classroom_selectors.finished_counts(Seat.objects.filter(
        user__in=[s.pk for s in students], game__assignment__in=[a.pk for a in assignments]))
    completion = []
    for a in assignments:
        chosen = {s.pk for s in a.students.all()}
        audience = [s for s in students if not chosen or s.pk in chosen]
        done = sum(1 for s in audience
                   if Progress(a, *counts.get((s.pk, a.pk), (0, 0))).complete)
        completion.append(Completion(a, done, len(audience)))
    return completion


def dashboard(*, classroom: Classroom, assignment: Assignment | None = None) -> Dashboard:
    """Everything the teacher dashboard shows, in a fixed number of queries (see the test)."""
    students = list(classroom_selectors.students_of_class(classroom=classroom))
    completion = assignment_completion(classroom=classroom, students=students)
    return Dashboard(
        classroom=classroom, students=students,
        playing=playing_now(classroom=classroom),
        today=finished_today(classroom=classroom, students=students),
        completion=completion,
        skills=skill_table(classroom=classroom, students=students, assignment=assignment),
        trends=class_trends(classroom=classroom),
        flags=needs_help(classroom=classroom),
        assignment=assignment, assignments=[c.assignment for c in completion],
        last_job=RecomputeJob.objects.filter(classroom=classroom, kind=RecomputeJob.Kind.RECOMPUTE)
        .order_by("-created_at", "-id").first(),
    )


def needs_help(*, classroom: Classroom, student: User | None = None) -> list[NeedsHelpFlag]:
    flags = NeedsHelpFlag.objects.filter(classroom=classroom, student__is_active=True,
                                         student__classroom=classroom)
    if student is not None:
        flags = flags.filter(student=student)
    return list(flags.select_related("student", "game").order_by("student__display_name", "measure"))


def class_assignment(*, classroom: Classroom, pk) -> Assignment | None:
    """An assignment of this class, or None for a missing or foreign id."""
    try:
        return classroom.assignments.filter(pk=int(pk)).first()
    except (TypeError, ValueError):
        return None


def class_student(*, classroom: Classroom, pk) -> User | None:
    try:
        return classroom_selectors.students_of_class(classroom=classroom).filter(pk=int(pk)).first()
    except (TypeError, ValueError):
        return None


# ----- the moves behind a number --------------------------------------------------------

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
                                        student__classroom=classroom)
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


# ----- the times-table heat map ---------------------------------------------------------

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
            return f"{self.a} × {self.b}: the same fact as {self.b} × {self.a}"
        if not self.declared:
            return f"{self.name}: not tried yet"
        text = f"{self.name}: right {self.right} of {self.declared} times"
        if self.median is not None:
            text += f", median {seconds(self.median)} a try"
        return text


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

    def known(self) -> list[FactCell]:
        return [c for c in self.facts() if c.declared and not c.wrong]


def fact_measure() -> Measure | None:
    """The measure the heat map shows: the first registered one whose details are facts
    (`Measure.fact_grid`; today The Multiplication Game's only)."""
    return next(iter(fact_measures()), None)


def _grid(rows, measure: Measure | None) -> FactGrid:
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


def fact_grid(*, classroom: Classroom, student: User | None = None) -> FactGrid:
    """All-time roll-ups of the heat map's measure per declared fact, of one student or the
    class; a student's with the cards to practise (`missed_cards`)."""
    measure = fact_measure()
    if measure is None:
        return _grid((), None)
    rows = SkillRollup.objects.filter(classroom=classroom, measure=measure.id, week__isnull=True,
                                      assignment__isnull=True).exclude(detail="")
    rows = rows.filter(scope=STUDENT, student=student) if student else rows.filter(scope=CLASS)
    grid = _grid(rows.values_list("detail", "chances", "misses", "amount_median"), measure)
    if student is None:
        return grid
    evidence = SkillEvidence.objects.filter(classroom=classroom, student=student)
    return replace(grid, missed=missed_cards(grid, evidence))


# ----- one student ------------------------------------------------------------------

@dataclass(frozen=True)
class StudentMeasure:
    cell: Cell
    class_cell: Cell
    trend: Trend | None


def student_measures(*, classroom: Classroom, student: User) -> list[StudentMeasure]:
    """The student's all-time cells beside the class's, with the student's weekly trend."""
    weeks = recent_weeks()
    rows = SkillRollup.objects.filter(classroom=classroom, detail="", assignment__isnull=True).filter(
        Q(scope=STUDENT, student=student) | Q(scope=CLASS, week__isnull=True)
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
    trends = {t.measure.id: t for t in _trends(weekly, weeks)}
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


# ----- a student's own progress -------------------------------------------------------

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
    rows = SkillRollup.objects.filter(scope=STUDENT, student=student, assignment__isnull=True)
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
    facts = _grid(rows.filter(measure=fm.id, week__isnull=True).exclude(detail="")
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
    given = _totals_table(cells, [student], spent).rows[0].cells
    return OwnProgress(by_family_own(measures), facts, ops, given)


def by_family_own(measures: list[OwnMeasure]) -> list[OwnMeasure]:
    order = {m.id: i for i, m in enumerate(by_family([om.measure for om in measures]))}
    return sorted(measures, key=lambda om: order[om.measure.id])


# ----- jobs -------------------------------------------------------------------------

def class_job(*, classroom: Classroom, pk: int) -> RecomputeJob | None:
    return RecomputeJob.objects.filter(classroom=classroom, pk=pk).first()


def recent_exports(*, classroom: Classroom, limit: int = 8) -> QuerySet[RecomputeJob]:
    return (RecomputeJob.objects.filter(classroom=classroom, kind=RecomputeJob.Kind.EXPORT)
            .select_related("requested_by").order_by("-created_at", "-id")[:limit])


# ----- "Practise this": what to practise, and before and after -----------------------------

MIN_CHANCES_TO_PICK = 5  # a student's weakest skill is picked among measures with this many


def weakest_details(*, classroom: Classroom, measure: str, students: list[User] | None = None,
                    limit: int = 8) -> list[str]:
    """The details of a measure (times-table facts, operations) missed most often by these
    students (the class when none), worst first, from the all-time roll-ups: one query."""
    rows = SkillRollup.objects.filter(classroom=classroom, measure=measure, week__isnull=True,
                                      assignment__isnull=True, misses__gt=0).exclude(detail="")
    rows = (rows.filter(scope=STUDENT, student__in=students) if students
            else rows.filter(scope=CLASS))
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
            classroom=classroom, scope=STUDENT, student=student, week__isnull=True,
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
