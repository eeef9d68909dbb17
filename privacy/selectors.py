"""Reads for export and erasure, filtered by who is asking (accounts/permissions.py)."""

from __future__ import annotations

from django.db.models import QuerySet

from accounts.models import User
from classroom.models import Classroom
from classroom.selectors import classes_for_teacher
from games.models import Seat


def class_students(*, classroom: Classroom) -> QuerySet[User]:
    """Every student whose class it is (a student belongs to one class: `User.classroom`),
    those removed from the class list included: their data is still held."""
    return User.objects.filter(role=User.Role.STUDENT, classroom=classroom).order_by("display_name", "pk")


def students_for_teacher(*, teacher: User) -> QuerySet[User]:
    """Students, on the class list or removed from it, of every class the teacher teaches
    (active or archived): those whose data they may export."""
    return User.objects.filter(role=User.Role.STUDENT,
                               classroom__in=classes_for_teacher(teacher=teacher, archived=None)
                               ).select_related("classroom")


def game_seats(*, game_ids) -> list[tuple[int, str, int | None, str]]:
    """(game id, seat name, user id, bot level) of every seat of the games, in seat order."""
    return list(Seat.objects.filter(game_id__in=game_ids).order_by("game_id", "position")
                .values_list("game_id", "name", "user_id", "bot_level"))
