"""The class list: add students (one, a pasted list or a CSV), move and remove them.

Adding is all-or-nothing: every row is checked first and nothing is saved unless every row is
good, so a teacher never has to work out which half of a list went in.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts import services as accounts
from accounts.membership import membership_changed
from accounts.models import User
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
    """Rename, refusing a name another student of the class already has."""
    name = names.check(name)
    taken = _name_keys(student.classroom, exclude=student)
    if names.key(name) in taken:
        raise names.InvalidName(names.duplicate_message(name, taken))
    return accounts.student_rename(student=student, display_name=name)


@transaction.atomic
def student_move(*, student: User, to_classroom: Classroom) -> User:
    """Move a student to another class; their past games stay with the old class's records."""
    taken = _name_keys(to_classroom)
    if names.key(student.display_name) in taken:
        raise names.InvalidName(
            _("There is already a student called “%(name)s” in %(class_name)s. Rename this student "
              "first.") % {"name": student.display_name, "class_name": to_classroom.name}
            + " " + names.tell_apart_hint(student.display_name, taken))
    # Assignments chosen for them in the old class stay as they were: they are not removed
    # from those lists, because an emptied list would mean "the whole class".
    from_classroom_id = student.classroom_id
    student.classroom = to_classroom
    student.save(update_fields=["classroom"])
    # Open sockets of the old class (its lobbies) re-check who may still listen.
    membership_changed(from_classroom_id, to_classroom.pk, *_classes_of_open_tables(student))
    return student


def _classes_of_open_tables(student: User) -> set[int]:
    """Classes of the tables the student sits at that are still gathering or playing (usually
    just their own class; a student moved earlier may still sit at an old class's table)."""
    return set(Seat.objects.filter(user=student, game__status__in=[Game.Status.LOBBY, Game.Status.ACTIVE])
               .values_list("game__classroom_id", flat=True).distinct())


def student_remove(*, student: User) -> None:
    """Take a student off the class list and end their sign-in (their game history stays;
    reports forget their report data on `student_removed`)."""
    accounts.student_deactivate(student=student)
    # An open table or lobby socket of theirs refuses their next move and closes.
    membership_changed(student.classroom_id, *_classes_of_open_tables(student))
    student_removed.send(sender=User, student=student)
