import hashlib

from django.db.models import QuerySet
from django.utils import timezone
from lti_tool.models import LtiRegistration, LtiUser

from classroom.models import Assignment
from classroom.progress import Progress
from classroom.selectors import classes_for_teacher, finished_counts, students_of_class
from games.models import Game, Seat
from reports.models import NeedsHelpFlag, SkillEvidence

from .models import CourseClass, GradePost, PlacedAssignment, RegistrationLink


def lti_platforms() -> QuerySet[LtiRegistration]:
    return LtiRegistration.objects.prefetch_related("deployments").order_by("name", "pk")


def lti_platform_exists(*, issuer: str, client_id: str) -> bool:
    return LtiRegistration.objects.filter(issuer=issuer.strip(), client_id=client_id.strip()).exists()


def hash_link_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def lti_registration_links_usable(*, token: str) -> QuerySet[RegistrationLink]:
    return RegistrationLink.objects.filter(token_hash=hash_link_token(token), used_at__isnull=True,
                                           expires_at__gt=timezone.now())


# ----- placed assignments and their grades (lti/grades.py) ------------------------------------

def lti_gradable_students(*, placement: PlacedAssignment) -> dict[int, str]:
    """{student id: the platform's `sub`} of the class's students who came through this course:
    only they have a place in the platform's grade book. Others (added on Numberdeck) get none."""
    students = students_of_class(classroom=placement.assignment.classroom)
    chosen = set(placement.assignment.students.values_list("pk", flat=True))
    linked = LtiUser.objects.filter(
        registration=placement.context.deployment.registration, auth_user__in=students.values("pk"),
        memberships__context=placement.context).values_list("auth_user_id", "sub")
    return {pk: sub for pk, sub in linked if not chosen or pk in chosen}


def lti_placements_of_assignment(*, assignment_id: int) -> QuerySet[PlacedAssignment]:
    return PlacedAssignment.objects.filter(assignment_id=assignment_id).select_related(
        "assignment__classroom", "context__deployment__registration")


def lti_placements_of_class(*, classroom_id: int) -> QuerySet[PlacedAssignment]:
    return PlacedAssignment.objects.filter(assignment__classroom_id=classroom_id).select_related(
        "assignment__classroom", "context__deployment__registration").order_by("pk")


def lti_assignment_players(*, assignment_id: int) -> set[int]:
    """The students who finished a game of the assignment."""
    return set(Seat.objects.filter(game__assignment_id=assignment_id, game__status=Game.Status.FINISHED,
                                   user__isnull=False).values_list("user_id", flat=True).distinct())


def lti_placements_for_teacher(*, teacher) -> QuerySet[PlacedAssignment]:
    return PlacedAssignment.objects.filter(assignment__classroom__in=classes_for_teacher(teacher=teacher))


def lti_grade_posts(*, placement: PlacedAssignment) -> QuerySet[GradePost]:
    """Failures first, then by name."""
    return placement.grade_posts.select_related("student").order_by("-state", "student__display_name", "pk")


def lti_score(*, assignment: Assignment, student_id: int) -> tuple[float, bool]:
    """The score out of 100 (docs/lti.md, "Grades") and whether the assignment is complete:
    70 for completion (the share of the assignment's goal reached) and 30 for skill (the share
    of the skill measures the student met in its games that are not flagged "needs help"); with
    no skill measure yet, completion alone counts for all 100. Never the rating."""
    played, won = finished_counts(Seat.objects.filter(user_id=student_id, game__assignment=assignment)).get(
        (student_id, assignment.pk), (0, 0))
    progress = Progress(assignment=assignment, played=played, won=won)
    measures = set(SkillEvidence.objects.filter(student_id=student_id, assignment=assignment)
                   .values_list("measure", flat=True).distinct())
    completion = progress.percent / 100
    if not measures:
        return round(100 * completion, 1), progress.complete
    flagged = set(NeedsHelpFlag.objects.filter(student_id=student_id, classroom_id=assignment.classroom_id,
                                               measure__in=measures).values_list("measure", flat=True))
    skill = 1 - len(flagged) / len(measures)
    return round(70 * completion + 30 * skill, 1), progress.complete


# ----- class lists from the courses (lti/roster_sync.py) ---------------------------------------

def lti_course_class_for_teacher(*, teacher, classroom_id: int) -> CourseClass | None:
    """The course a class of this teacher's (owned or co-taught) comes from; None otherwise."""
    return CourseClass.objects.select_related("classroom", "context").filter(
        classroom__in=classes_for_teacher(teacher=teacher), classroom_id=classroom_id).order_by("pk").first()
