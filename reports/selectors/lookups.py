"""One assignment or student of a class, by an id from a URL (None for a missing or foreign
id: the view says 404)."""

from __future__ import annotations

from accounts.models import User
from classroom import selectors as classroom_selectors
from classroom.models import Assignment, Classroom


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
