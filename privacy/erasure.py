"""Erasing a student, or a whole class, on request (docs/privacy-export-erase.md, "Erasure"): driven by every app's
declarations (privacy/registry.py), so a model that refers to a student cannot be forgotten
here without tests/privacy/test_declarations.py failing.

Afterwards no row anywhere refers to the student: rows about them are deleted, rows that are
someone else's (a classmate's game, a table they opened) no longer name them, and the account
itself is deleted last. Each call is one transaction, checked before it commits: if any
declared row still refers to the student, nothing is erased at all (`ErasureIncomplete`).
"""

from __future__ import annotations

import logging

from django.db import models, transaction
from django.utils.module_loading import import_string
from django.utils.translation import npgettext_lazy

from accounts.membership import membership_changed
from accounts.models import User
from classroom.models import Classroom

from .registry import Held, declarations
from .selectors import students_only_of_class
from .words import count_in_words

log = logging.getLogger(__name__)


class ErasureIncomplete(RuntimeError):
    """Rows still referred to the student after erasure: the transaction was rolled back."""


# The kinds of a class's erasure besides its students' (`classroom_erasure_preview`).
CLASS_LABELS = {
    "students": npgettext_lazy("data held about a class", "%(count)s student", "%(count)s students", "count"),
    "class_games": npgettext_lazy(
        "data held about a class", "%(count)s game of the class", "%(count)s games of the class", "count"),
    "class_assignments": npgettext_lazy(
        "data held about a class", "%(count)s assignment of the class", "%(count)s assignments of the class",
        "count"),
    "class_arenas": npgettext_lazy(
        "data held about a class", "%(count)s arena of the class", "%(count)s arenas of the class", "count"),
    "class_report_files": npgettext_lazy(
        "data held about a class", "%(count)s report job or file of the class",
        "%(count)s report jobs and files of the class", "count"),
    "class": npgettext_lazy("data held about a class", "%(count)s class", "%(count)s classes", "count"),
}


def counts_in_words(counts: dict[str, int]) -> list[str]:
    """["312 moves", "40 games played", ...] in the active language: what the confirmation page
    and the message after an erasure say, in the order of `counts`."""
    labels = {h.kind: h.label for h in declarations()}
    return [CLASS_LABELS[kind] % {"count": n} if kind in CLASS_LABELS else count_in_words(labels[kind], n)
            for kind, n in counts.items()]


def erasure_preview(*, student: User) -> dict[str, int]:
    """What erasing the student would touch: rows per declared kind (kinds with none left
    out), in the order of the declarations. The confirmation page shows exactly these."""
    counts = {held.kind: held.rows(student.pk).count() for held in declarations()}
    return {kind: n for kind, n in counts.items() if n}


def _delete_files(rows: models.QuerySet) -> None:
    """Files of the rows' file fields (export files name students) go once the rows' deletion
    is committed; a file already gone is no error."""
    file_fields = [f.name for f in rows.model._meta.fields if isinstance(f, models.FileField)]
    if not file_fields:
        return
    files = [getattr(row, name) for row in rows for name in file_fields if getattr(row, name)]
    transaction.on_commit(lambda: [f.delete(save=False) for f in files], robust=True)


def _erase(held: Held, student: User) -> None:
    rows = held.rows(student.pk)
    if held.erase == "follows":
        return
    if held.erase == "delete":
        _delete_files(rows)
        rows.delete()
    elif held.erase == "detach":
        for path in held.paths:
            held.model._default_manager.filter(pk__in=rows.values("pk"), **{path: student.pk}).update(
                **{path: None})
    elif held.erase == "unlink":
        for row in rows:
            for path in held.paths:
                getattr(row, path).remove(student.pk)
    else:
        import_string(held.erase)(student=student)


def _leftovers(student_id: int) -> dict[str, int]:
    """Declared rows that still refer to the student, but for the account itself."""
    counts = {held.kind: held.rows(student_id).count() for held in declarations()
              if held.model is not User}
    return {kind: n for kind, n in counts.items() if n}


def erase_student(*, student: User, erased_by: User | None = None) -> dict[str, int]:
    """Erase everything held about one student; returns what went (`erasure_preview`'s
    counts, taken inside the same transaction). The caller has checked that `erased_by` may."""
    if not student.is_student:
        raise ValueError("Only a student's data can be erased here.")
    student_id = student.pk
    with transaction.atomic():
        # The account row locked first: two erasures of one student cannot interleave.
        student = User.objects.select_for_update().get(pk=student_id)
        class_ids = set(student.memberships.values_list("classroom_id", flat=True))
        counts = erasure_preview(student=student)
        held_list = declarations()
        for held in held_list:
            if held.model is not User:
                _erase(held, student)
        # Checked before the account goes: its deletion would cascade to what a declaration
        # missed, and leave rows that name the student without a key (a seat's name) unseen.
        left = _leftovers(student_id)
        if left:
            raise ErasureIncomplete(f"Rows still refer to student {student_id}: {left}")
        for held in held_list:
            if held.model is User:
                _erase(held, student)
        membership_changed(*class_ids)  # their classes' open sockets re-check access
    log.info("student %s erased by user %s: %s", student_id,
             erased_by.pk if erased_by else None, counts)
    return counts


def _class_rows(classroom: Classroom) -> dict[str, models.QuerySet]:
    """The class's own rows that the class's deletion takes with it, by kind."""
    return {
        "class_games": classroom.games.all(),
        "class_assignments": classroom.assignments.all(),
        "class_arenas": classroom.arenas.all(),
        "class_report_files": classroom.report_jobs.all(),
    }


def classroom_erasure_preview(*, classroom: Classroom) -> dict[str, int]:
    """What erasing the class would touch: its students' rows per kind (as for one student),
    then all the class's own games, assignments, arenas and report files (its students' games
    among them), and the class."""
    students = list(students_only_of_class(classroom=classroom))
    total = {"students": len(students)}
    for student in students:
        for kind, n in erasure_preview(student=student).items():
            total[kind] = total.get(kind, 0) + n
    total.update({kind: rows.count() for kind, rows in _class_rows(classroom).items()})
    total["class"] = 1
    return {kind: n for kind, n in total.items() if n}


def erase_classroom(*, classroom: Classroom, erased_by: User | None = None) -> dict[str, int]:
    """Erase a class: every student who was only ever in this class (as `erase_student`; a
    child also in another class keeps their account there, and loses this class's games with
    the class), then the class's own rows and the class itself, in one transaction. Returns what went
    (`classroom_erasure_preview`'s counts, taken inside the same transaction)."""
    classroom_id = classroom.pk
    with transaction.atomic():
        classroom = Classroom.objects.select_for_update().get(pk=classroom_id)
        counts = classroom_erasure_preview(classroom=classroom)
        for student in students_only_of_class(classroom=classroom):
            erase_student(student=student, erased_by=erased_by)
        _delete_files(_class_rows(classroom)["class_report_files"])
        classroom.delete()
        membership_changed(classroom_id)  # its open sockets close at their next push
    log.info("class %s erased by user %s: %s", classroom_id, erased_by.pk if erased_by else None, counts)
    return counts
