"""Reads for the classroom, filtered by who is asking (see accounts/permissions.py).

Every view fetches through these, so an object outside the user's reach is simply not found.
Progress reads use a fixed number of queries however many students a class has.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.db.models import Count, F, Prefetch, Q, QuerySet
from django.utils import timezone

from accounts.models import Membership, User
from accounts.student_classes import active_class_ids, active_students_of_class
from games.models import Game, Seat

from .models import Assignment, Classroom, CoTeacherInvite
from .progress import Progress

FINISHED = Game.Status.FINISHED


# ----- classes -------------------------------------------------------------------------

def classes_for_teacher(*, teacher: User, archived: bool | None = False) -> QuerySet[Classroom]:
    """Classes the teacher owns or co-teaches: active ones, archived ones, or (None) both."""
    classes = Classroom.objects.filter(pk__in=Classroom.objects.filter(teachers=teacher).values("pk"))
    if archived is not None:
        classes = classes.filter(archived_at__isnull=not archived)
    return classes.order_by("name", "id")


def class_page_for_teacher(*, teacher: User, pk: int) -> Classroom | None:
    """One of the teacher's classes (active or archived) for its page, with `course_links`: how
    many courses of a learning platform open it (lti.CourseClass, by its reverse name, read in
    the same query; the page then links to the class list from the course)."""
    return classes_for_teacher(teacher=teacher, archived=None).annotate(
        course_links=Count("lti_courses")).filter(pk=pk).first()


def class_summaries_for_teacher(*, teacher: User, archived: bool = False) -> QuerySet[Classroom]:
    """The teacher's classes with `student_count` and `open_assignment_count`."""
    return classes_for_teacher(teacher=teacher, archived=archived).annotate(
        student_count=Count("memberships", filter=Q(memberships__archived_at__isnull=True,
                                                    memberships__student__role=User.Role.STUDENT,
                                                    memberships__student__is_active=True), distinct=True),
        open_assignment_count=Count("assignments", filter=Q(assignments__closed_at__isnull=True),
                                    distinct=True),
    )


def class_by_join_code(*, code: str) -> Classroom | None:
    """An active class for the student sign-in flow (archived classes cannot be joined)."""
    return Classroom.objects.filter(join_code=code, archived_at__isnull=True).first()


def teachers_of_class(*, classroom: Classroom) -> QuerySet[User]:
    return classroom.teachers.order_by("display_name", "id")


# ----- students ------------------------------------------------------------------------

def students_of_class(*, classroom: Classroom) -> QuerySet[User]:
    """The class list: active students with an active membership of the class."""
    return active_students_of_class(classroom_id=classroom.pk).order_by("display_name", "id")


def students_for_teacher(*, teacher: User) -> QuerySet[User]:
    """Active students in (an active membership of) one of the teacher's active classes. A
    child in several classes is reached through the teacher's own classes only: what the
    teacher sees of them is then filtered by class (`classes_of_student_for_teacher`)."""
    return User.objects.filter(
        pk__in=Membership.objects.filter(classroom__in=classes_for_teacher(teacher=teacher),
                                         archived_at__isnull=True).values("student_id"),
        role=User.Role.STUDENT, is_active=True,
    )


def classes_of_student_for_teacher(*, teacher: User, student: User) -> QuerySet[Classroom]:
    """The teacher's active classes the student is in now (never the child's other classes)."""
    return classes_for_teacher(teacher=teacher).filter(
        memberships__student=student, memberships__archived_at__isnull=True)


def active_classes_of_student(*, student: User) -> list[Classroom]:
    """The student's own active classes, the earliest joined first (their home page)."""
    ids = active_class_ids(student=student)
    by_id = Classroom.objects.in_bulk(ids)
    return [by_id[pk] for pk in ids if pk in by_id]


def roster_with_activity(*, classroom: Classroom) -> QuerySet[User]:
    """The class's students with `games_played`: finished games of this class (a child in
    several classes has games in each; a class shows its own), one query."""
    return students_of_class(classroom=classroom).annotate(
        games_played=Count("seats__game", filter=Q(seats__game__status=FINISHED,
                                                   seats__game__classroom=classroom), distinct=True)
    )


# ----- assignments ---------------------------------------------------------------------

def assignments_for_teacher(*, teacher: User) -> QuerySet[Assignment]:
    """Assignments of the teacher's active classes."""
    return Assignment.objects.filter(
        classroom__in=classes_for_teacher(teacher=teacher)
    ).select_related("classroom")


def assignments_of_class(*, classroom: Classroom) -> QuerySet[Assignment]:
    """Open assignments first, newest first, with their chosen students prefetched."""
    return (classroom.assignments.order_by("closed_at", "-created_at", "-id")
            .prefetch_related(Prefetch("students", queryset=User.objects.only("id", "display_name"))))


def finished_counts(seats: QuerySet[Seat]) -> dict[tuple[int, int], tuple[int, int]]:
    """{(student id, assignment id): (games played, games won)} in one query."""
    rows = seats.filter(game__status=FINISHED, game__assignment__isnull=False).values(
        "user_id", "game__assignment_id"
    ).annotate(
        played=Count("game", distinct=True),
        won=Count("game", filter=Q(is_winner=True), distinct=True),
    )
    return {(r["user_id"], r["game__assignment_id"]): (r["played"], r["won"]) for r in rows}


@dataclass(frozen=True)
class RosterRow:
    student: User
    cells: list[Progress | None]  # one per assignment; None: not assigned to this student


@dataclass(frozen=True)
class ClassProgress:
    assignments: list[Assignment]
    rows: list[RosterRow]


def class_progress(*, classroom: Classroom) -> ClassProgress:
    """The class page grid: each student × each open assignment. Four queries in all."""
    students = list(roster_with_activity(classroom=classroom))
    assignments = [a for a in assignments_of_class(classroom=classroom) if not a.is_closed]
    counts = finished_counts(Seat.objects.filter(
        user__in=students_of_class(classroom=classroom).values("pk"),
        game__assignment__in=[a.pk for a in assignments]))
    chosen = {a.pk: {s.pk for s in a.students.all()} for a in assignments}
    rows = []
    for student in students:
        cells = []
        for assignment in assignments:
            if chosen[assignment.pk] and student.pk not in chosen[assignment.pk]:
                cells.append(None)
                continue
            played, won = counts.get((student.pk, assignment.pk), (0, 0))
            cells.append(Progress(assignment=assignment, played=played, won=won))
        rows.append(RosterRow(student=student, cells=cells))
    return ClassProgress(assignments=assignments, rows=rows)


def open_assignments_for_student(*, student: User) -> QuerySet[Assignment]:
    """Assignments a student may play now: open, in one of their active classes (every one of
    them: a child in two classes sees both classes' work), for the whole class or chosen for
    them."""
    return (
        Assignment.objects.filter(classroom_id__in=Membership.objects.filter(
                                      student=student, archived_at__isnull=True).values("classroom_id"),
                                  classroom__archived_at__isnull=True, closed_at__isnull=True)
        .select_related("classroom")
        .filter(Q(students__isnull=True) | Q(students=student))
        .distinct()
        # Work with a due date first, soonest first; then undated work, newest first.
        .order_by(F("due_on").asc(nulls_last=True), "-created_at", "-id")
    )


def assignment_progress_for_student(*, student: User) -> list[Progress]:
    """The student's open assignments with their progress, in two queries."""
    assignments = list(open_assignments_for_student(student=student))
    counts = finished_counts(Seat.objects.filter(user=student, game__assignment__in=assignments))
    progress = []
    for assignment in assignments:
        played, won = counts.get((student.pk, assignment.pk), (0, 0))
        progress.append(Progress(assignment=assignment, played=played, won=won))
    return progress


def recent_games_for_student(*, student: User, limit: int = 8) -> list[Seat]:
    """The student's own seats in finished games, newest first, with `player_count`."""
    return list(
        Seat.objects.filter(user=student, game__status=FINISHED)
        .select_related("game", "game__assignment")
        .annotate(player_count=Count("game__seats"))
        .order_by("-game__finished_at", "-game_id")[:limit]
    )


def games_in_progress_for_student(*, student: User, limit: int = 30) -> list[Seat]:
    """Unfinished games the student sits in, so a closed tab can be picked up again: the most
    recently played first (by the last move: `turn_started_at`, set by the deal and each move)."""
    return list(
        Seat.objects.filter(user=student, game__status=Game.Status.ACTIVE)
        .select_related("game", "game__assignment")
        .order_by(F("game__turn_started_at").desc(nulls_last=True), "-game_id")[:limit]
    )


def carry_on_for_student(*, student: User, shown: int = 3) -> tuple[list[Seat], list[Seat]]:
    """The student's unfinished games as their page shows them (docs/play.md, "Stopping a
    game, and games left alone"): the most recent of
    each game, at most `shown` of them (one "Carry on" per kind above the assignments, which
    stay on a phone's first screen), then all the others, most recently played first."""
    seats = games_in_progress_for_student(student=student)
    first: dict[str, Seat] = {}
    for seat in seats:
        if seat.game.key not in first and len(first) < shown:
            first[seat.game.key] = seat
    chosen = {seat.pk for seat in first.values()}
    return list(first.values()), [seat for seat in seats if seat.pk not in chosen]


# ----- co-teaching ---------------------------------------------------------------------

def hash_invite_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def invite_by_token(*, token: str) -> CoTeacherInvite | None:
    return (CoTeacherInvite.objects.select_related("classroom", "invited_by")
            .filter(token_hash=hash_invite_token(token)).first())


def pending_invites_of_class(*, classroom: Classroom) -> QuerySet[CoTeacherInvite]:
    return classroom.invites.filter(accepted_at__isnull=True, withdrawn_at__isnull=True,
                                    expires_at__gt=timezone.now())
