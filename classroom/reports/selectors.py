"""Reads for the skill reports, always for one class the caller has already fetched through
`classroom.selectors.classes_for_teacher` (views and the dashboard consumer do that), or for
a student's own rows.

The dashboard reads roll-ups, never evidence, in a fixed number of queries whatever the class
size; the drill-down reads the evidence rows behind one number.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from classroom import selectors as classroom_selectors
from classroom.models import Assignment, Classroom
from classroom.progress import Progress
from games.models import Game, Seat

from .measures import MEASURES, MEASURES_BY_ID, Measure, evidence_measures
from .models import NeedsHelpFlag, RecomputeJob, SkillEvidence, SkillRollup
from .words import Cell

STUDENT, CLASS, ASSIGNMENT = (SkillRollup.Scope.STUDENT, SkillRollup.Scope.CLASS,
                              SkillRollup.Scope.ASSIGNMENT)
TREND_WEEKS = 8
PLAYING_NOW_WINDOW = timedelta(minutes=10)  # an "active" game untouched longer is not "now"
FACTS = "mg.facts"
FACT_RANGE = range(1, 11)
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
class SkillTable:
    measures: list[Measure]  # the columns: measures with at least one chance
    rows: list[SkillRow]
    class_cells: list[Cell]
    updated_at: datetime | None


def skill_table(*, classroom: Classroom, students: list[User],
                assignment: Assignment | None = None) -> SkillTable:
    """Students × measures from all-time roll-ups (of one assignment if given): one query."""
    rollups = SkillRollup.objects.filter(classroom=classroom, week__isnull=True, detail="")
    if assignment is not None:
        rollups = rollups.filter(scope=ASSIGNMENT, assignment=assignment)
    else:
        rollups = rollups.filter(scope__in=[STUDENT, CLASS])
    by_student: dict[int | None, dict[str, Cell]] = defaultdict(dict)
    updated = None
    for student_id, measure_id, chances, misses, median, when in rollups.values_list(
            "student_id", "measure", "chances", "misses", "amount_median", "updated_at"):
        measure = MEASURES_BY_ID.get(measure_id)
        if measure is None:
            continue
        by_student[student_id][measure_id] = Cell(measure, misses, chances, median)
        updated = when if updated is None or when > updated else updated
    used = {mid for cells in by_student.values() for mid, c in cells.items() if c.chances}
    measures = [m for m in MEASURES if m.id in used]
    rows = [SkillRow(s, [by_student.get(s.pk, {}).get(m.id) or Cell(m) for m in measures])
            for s in students]
    class_cells = [by_student.get(None, {}).get(m.id) or Cell(m) for m in measures]
    return SkillTable(measures, rows, class_cells, updated)


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
            for m in MEASURES if any(p.chances for p in series.get(m.id, {}).values())]


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
    since = timezone.now() - PLAYING_NOW_WINDOW
    return list(Seat.objects.filter(
        game__classroom=classroom, game__status=Game.Status.ACTIVE, game__updated_at__gte=since,
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
    counts = classroom_selectors._finished_counts(Seat.objects.filter(
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
    a: int
    b: int
    declared: int
    wrong: int

    @property
    def right(self) -> int:
        return self.declared - self.wrong

    @property
    def detail(self) -> str:
        return f"{self.a}x{self.b}"

    @property
    def product(self) -> int:
        return self.a * self.b


@dataclass(frozen=True)
class FactGrid:
    rows: list[list[FactCell]]  # a = 1..10 down, b = 1..10 across, as declared

    @property
    def declared(self) -> int:
        return sum(c.declared for row in self.rows for c in row)

    def practise(self, limit: int = 8) -> list[FactCell]:
        """Facts most often wrong (at least once), worst first."""
        cells = [c for row in self.rows for c in row if c.wrong]
        return sorted(cells, key=lambda c: (-c.wrong / c.declared, -c.declared))[:limit]

    def known(self) -> list[FactCell]:
        return [c for row in self.rows for c in row if c.declared and not c.wrong]


def _grid(rows) -> FactGrid:
    counts = {}
    for detail, chances, misses in rows:
        a, _, b = detail.partition("x")
        if a.isdigit() and b.isdigit():
            counts[(int(a), int(b))] = (chances, misses)
    return FactGrid([[FactCell(a, b, *counts.get((a, b), (0, 0))) for b in FACT_RANGE]
                     for a in FACT_RANGE])


def fact_grid(*, classroom: Classroom, student: User | None = None) -> FactGrid:
    """All-time mg.facts roll-ups per declared fact, of one student or the class."""
    rows = SkillRollup.objects.filter(classroom=classroom, measure=FACTS, week__isnull=True,
                                      assignment__isnull=True).exclude(detail="")
    rows = rows.filter(scope=STUDENT, student=student) if student else rows.filter(scope=CLASS)
    return _grid(rows.values_list("detail", "chances", "misses"))


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
    ).values_list("student_id", "measure", "week", "chances", "misses", "amount_median")
    mine, theirs, weekly = {}, {}, []
    for student_id, measure_id, week, chances, misses, median in rows:
        measure = MEASURES_BY_ID.get(measure_id)
        if measure is None:
            continue
        if student_id is None:
            theirs[measure_id] = Cell(measure, misses, chances, median)
        elif week is None:
            mine[measure_id] = Cell(measure, misses, chances, median)
        elif weeks[0] <= week <= weeks[-1]:
            weekly.append((measure_id, week, chances, misses, median))
    trends = {t.measure.id: t for t in _trends(weekly, weeks)}
    return [StudentMeasure(mine[m.id], theirs.get(m.id) or Cell(m), trends.get(m.id))
            for m in MEASURES if m.id in mine and mine[m.id].chances]


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


def own_progress(*, student: User) -> OwnProgress:
    """A student's own roll-ups only (never a classmate's, never the class's): two queries."""
    rows = SkillRollup.objects.filter(scope=STUDENT, student=student, assignment__isnull=True)
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    medians: dict[str, float | None] = {}
    weekly: dict[str, dict[date, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for measure_id, week, chances, misses, median in rows.filter(detail="").values_list(
            "measure", "week", "chances", "misses", "amount_median"):
        if measure_id not in MEASURES_BY_ID:
            continue
        if week is None:
            totals[measure_id][0] += misses
            totals[measure_id][1] += chances
            medians[measure_id] = median
        else:
            weekly[measure_id][week][0] += misses
            weekly[measure_id][week][1] += chances
    measures = []
    for m in MEASURES:
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
    facts = _grid(rows.filter(measure=FACTS, week__isnull=True).exclude(detail="")
                  .values_list("detail", "chances", "misses"))
    return OwnProgress(measures, facts)


# ----- jobs -------------------------------------------------------------------------

def class_job(*, classroom: Classroom, pk: int) -> RecomputeJob | None:
    return RecomputeJob.objects.filter(classroom=classroom, pk=pk).first()


def recent_exports(*, classroom: Classroom, limit: int = 8) -> QuerySet[RecomputeJob]:
    return (RecomputeJob.objects.filter(classroom=classroom, kind=RecomputeJob.Kind.EXPORT)
            .select_related("requested_by").order_by("-created_at", "-id")[:limit])
