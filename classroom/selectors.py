"""Reads for the classroom, filtered by who is asking (see accounts/permissions.py)."""

from django.db.models import QuerySet

from accounts.models import User

from .models import Classroom


def classes_for_teacher(*, teacher: User, archived: bool = False) -> QuerySet[Classroom]:
    """Classes the teacher owns or co-teaches."""
    return (
        Classroom.objects.filter(teachers=teacher, archived_at__isnull=not archived)
        .distinct()
        .order_by("name", "id")
    )


def class_by_join_code(*, code: str) -> Classroom | None:
    """An active class for the student sign-in flow (archived classes cannot be joined)."""
    return Classroom.objects.filter(join_code=code, archived_at__isnull=True).first()


def students_of_class(*, classroom: Classroom) -> QuerySet[User]:
    return classroom.students.filter(role=User.Role.STUDENT, is_active=True).order_by(
        "display_name", "id"
    )
