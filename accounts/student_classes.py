"""Which classes a student is in, and which one they are working in (accounts.Membership).

A child may be in several classes. Everything a child starts "in a class" (a free-play game, a
table for classmates) belongs to one class: the class they signed in through (the class code
chooses it) or the one they chose on their page since, remembered in their session; if that
class is not theirs any more, their first active class. Never a class they are not in.

Plain reads and one session key, kept here, below every app, so that games, classroom, arena
and privacy ask the same question the same way. Who may see what is still decided by the
selectors (accounts/permissions.py).
"""

from __future__ import annotations

from django.db.models import QuerySet

from .models import Membership, User

# The session's class: set at sign-in through a class code, and when the child picks a class.
SESSION_KEY = "working_class_id"


def active_memberships(*, student: User) -> QuerySet[Membership]:
    """The student's memberships of classes they are in now (not left, class not archived),
    the earliest joined first, each with its class."""
    return (Membership.objects.filter(student=student, archived_at__isnull=True,
                                      classroom__archived_at__isnull=True)
            .select_related("classroom").order_by("joined_at", "pk"))


def active_class_ids(*, student: User) -> list[int]:
    if not getattr(student, "pk", None):
        return []
    return list(active_memberships(student=student).values_list("classroom_id", flat=True))


def is_in_class(*, student: User, classroom_id: int | None) -> bool:
    """The student is in this (active) class now."""
    return classroom_id is not None and active_memberships(student=student).filter(
        classroom_id=classroom_id).exists()


def active_students_of_class(*, classroom_id: int) -> QuerySet[User]:
    """Active student accounts with an active membership of the class."""
    return User.objects.filter(role=User.Role.STUDENT, is_active=True,
                               memberships__classroom_id=classroom_id,
                               memberships__archived_at__isnull=True)


def working_class(*, student: User, chosen_id=None):
    """The class the student is working in: `chosen_id` (their session's) when they are still
    in it, else their first active class; None when they are in none."""
    memberships = list(active_memberships(student=student))
    for membership in memberships:
        if chosen_id is not None and str(membership.classroom_id) == str(chosen_id):
            return membership.classroom
    return memberships[0].classroom if memberships else None


def working_class_of(request):
    """The signed-in student's working class (see `working_class`)."""
    return working_class(student=request.user, chosen_id=request.session.get(SESSION_KEY))


def remember_working_class(request, *, classroom_id: int) -> None:
    request.session[SESSION_KEY] = int(classroom_id)
