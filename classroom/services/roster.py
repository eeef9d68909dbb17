"""The class list: add students (one, a pasted list or a CSV), move and remove them.

Adding is all-or-nothing: every row is checked first and nothing is saved unless every row is
good, so a teacher never has to work out which half of a list went in.

A child may be in several classes (accounts.Membership). Removing them from a class archives
that membership: they stay in their other classes, and their games and evidence stay where
they are. A child removed from their last class can no longer sign in (the account is made
inactive and their report data is forgotten, as docs/reports.md "Privacy" says). Every class
whose list changes gets `membership_changed`, so its open sockets re-check access.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import services as accounts
from accounts.membership import membership_changed
from accounts.models import Membership, User
from games.models import Game, Seat

from .. import names
from ..models import Classroom
from ..roster_input import CheckedRow, Problem, Row, check_rows
from ..selectors import students_of_class
from ..signals import student_removed


class RosterError(ValueError):
    """Rows that cannot be added, each with its line number and reason."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(f"line {p.line}: {p.reason}" for p in problems))


def _name_keys(classroom: Classroom, *, exclude: User | None = None) -> set[str]:
    students = students_of_class(classroom=classroom)
    if exclude is not None:
        students = students.exclude(pk=exclude.pk)
    return {names.key(n) for n in students.values_list("display_name", flat=True)}


def _taken_usernames(rows: list[CheckedRow]) -> list[Problem]:
    wanted = {row.username: row for row in rows if row.username}
    taken = User.objects.filter(username__in=list(wanted)).values_list("username", flat=True)
    return [Problem(wanted[u].line, wanted[u].name,
                    _("The username “%(username)s” is already used by another account.") % {"username": u})
            for u in taken]


@transaction.atomic
def students_add(*, classroom: Classroom, rows: list[Row]) -> list[User]:
    """Add every row as a student, or none of them (raises RosterError listing every problem)."""
    # Lock the class row so two simultaneous imports cannot both add the same name.
    Classroom.objects.select_for_update().filter(pk=classroom.pk).first()
    checked, problems = check_rows(rows, names_in_class=_name_keys(classroom))
    problems = sorted(problems + _taken_usernames(checked), key=lambda p: p.line)
    if problems:
        raise RosterError(problems)
    return [accounts.student_create(classroom=classroom, display_name=row.name, username=row.username)
            for row in checked]


def student_add(*, classroom: Classroom, name: str, username: str = "") -> User:
    return students_add(classroom=classroom, rows=[Row(line=1, name=name, username=username)])[0]


@transaction.atomic
def student_rename(*, student: User, name: str) -> User:
    """Rename, refusing a name another student of one of their classes already has."""
    name = names.check(name)
    taken = set()
    for classroom in Classroom.objects.filter(memberships__student=student,
                                              memberships__archived_at__isnull=True):
        taken |= _name_keys(classroom, exclude=student)
    if names.key(name) in taken:
        raise names.InvalidName(names.duplicate_message(name, taken))
    return accounts.student_rename(student=student, display_name=name)


@transaction.atomic
def student_move(*, student: User, from_classroom: Classroom, to_classroom: Classroom) -> User:
    """Move a student from one of their classes to another: the old membership is archived,
    the new one made (or taken up again); their other classes are not touched, and their past
    games stay with the old class's records."""
    taken = _name_keys(to_classroom)
    if names.key(student.display_name) in taken:
        raise names.InvalidName(
            _("There is already a student called “%(name)s” in %(class_name)s. Rename this student "
              "first.") % {"name": student.display_name, "class_name": to_classroom.name}
            + " " + names.tell_apart_hint(student.display_name, taken))
    # Assignments chosen for them in the old class stay as they were: they are not removed
    # from those lists, because an emptied list would mean "the whole class".
    _leave(student, from_classroom)
    membership_join(student=student, classroom=to_classroom)
    # Open sockets of the old class (its lobbies) re-check who may still listen.
    membership_changed(from_classroom.pk, to_classroom.pk, *_classes_of_open_tables(student))
    return student


def _leave(student: User, classroom: Classroom) -> None:
    Membership.objects.filter(student=student, classroom=classroom, archived_at__isnull=True).update(
        archived_at=timezone.now())


@transaction.atomic
def membership_join(*, student: User, classroom: Classroom) -> Membership:
    """Put a student in a class (they keep their other classes). A child who left the class
    before takes up their archived membership again."""
    membership, created = Membership.objects.get_or_create(student=student, classroom=classroom)
    if not created and membership.archived_at is not None:
        membership.archived_at = None
        membership.save(update_fields=["archived_at"])
    membership_changed(classroom.pk)
    return membership


def _classes_of_open_tables(student: User) -> set[int]:
    """Classes of the tables the student sits at that are still gathering or playing (usually
    just their own class; a student moved earlier may still sit at an old class's table)."""
    return set(Seat.objects.filter(user=student, game__status__in=[Game.Status.LOBBY, Game.Status.ACTIVE])
               .values_list("game__classroom_id", flat=True).distinct())


@transaction.atomic
def student_remove(*, student: User, classroom: Classroom) -> bool:
    """Take a student off one class's list: the membership is archived (their games and
    evidence stay). A child still in another class keeps signing in and playing there (True);
    removed from their last class, their sign-in ends (their game history stays; reports
    forget their report data on `student_removed`) and this returns False."""
    _leave(student, classroom)
    still_in_a_class = Membership.objects.filter(student=student, archived_at__isnull=True).exists()
    if not still_in_a_class:
        accounts.student_deactivate(student=student)
    # An open table or lobby socket of theirs in that class refuses their next move and closes.
    membership_changed(classroom.pk, *_classes_of_open_tables(student))
    if not still_in_a_class:
        student_removed.send(sender=User, student=student)
    return still_in_a_class
