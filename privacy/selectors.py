"""Reads for export and erasure, filtered by who is asking (accounts/permissions.py)."""

from __future__ import annotations

from django.db.models import QuerySet

from accounts.models import Membership, User
from classroom.models import Classroom
from classroom.selectors import classes_for_teacher
from games.models import Seat


def class_students(*, classroom: Classroom) -> QuerySet[User]:
    """Every student with a membership of the class (accounts.Membership), those removed from
    the class list included: their data is still held."""
    return User.objects.filter(role=User.Role.STUDENT, pk__in=Membership.objects.filter(
        classroom=classroom).values("student_id")).order_by("display_name", "pk")


def students_only_of_class(*, classroom: Classroom) -> QuerySet[User]:
    """The class's students who are, and were, in no other class: erasing the class erases
    them. A child also in another class keeps their account there; the class's own games go
    with the class."""
    return class_students(classroom=classroom).exclude(
        pk__in=Membership.objects.exclude(classroom=classroom).values("student_id"))


def students_for_teacher(*, teacher: User) -> QuerySet[User]:
    """Students, on the class list or removed from it, of every class the teacher teaches
    (active or archived): those whose pages of data they may open. Whether they may download
    or erase it is accounts/permissions.py's (`may_export_student_data`)."""
    return User.objects.filter(role=User.Role.STUDENT, pk__in=Membership.objects.filter(
        classroom__in=classes_for_teacher(teacher=teacher, archived=None)).values("student_id"))


def student_class_for_teacher(*, teacher: User, student: User, wanted=None) -> Classroom | None:
    """The class a page about the child is seen from: `wanted` (an id) when the child is or was
    in it and the teacher teaches it, else the first such class (active classes first)."""
    classes = list(classes_for_teacher(teacher=teacher, archived=None)
                   .filter(memberships__student=student)
                   .order_by("archived_at", "memberships__archived_at", "name", "id"))
    return next((c for c in classes if str(c.pk) == str(wanted)), classes[0] if classes else None)


def game_seats(*, game_ids) -> list[tuple[int, str, int | None, str]]:
    """(game id, seat name, user id, bot level) of every seat of the games, in seat order."""
    return list(Seat.objects.filter(game_id__in=game_ids).order_by("game_id", "position")
                .values_list("game_id", "name", "user_id", "bot_level"))
