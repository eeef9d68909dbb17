"""Everything held about a student, or a whole class, as a zip a school can hand to a family
(a subject-access request, issue #24): one JSON and one CSV file per declared kind
(privacy/registry.py) and a README.txt in plain words saying what each file is.

Only the student's own rows are read, each through its declaration's `fields`: their own
moves (never a classmate's, nor anyone's hidden cards: no game state is exported) and of a
shared game only what every player saw at the end (who won).
"""

from __future__ import annotations

import io
import json
import zipfile

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Count
from django.utils import timezone
from django.utils.text import slugify

from accounts.models import User
from classroom.models import Classroom
from reports.exports.csv import csv_bytes

from .registry import Held, declarations
from .selectors import class_students


def _column(field: str) -> str:
    return field.replace("__", " ")


def _rows(held: Held, student_id: int) -> list[dict]:
    return [{_column(k): v for k, v in row.items()}
            for row in held.rows(student_id).values(*held.fields)]


def _json(value) -> bytes:
    return json.dumps(value, cls=DjangoJSONEncoder, indent=2, ensure_ascii=False).encode("utf-8")


def _cell(value):
    """A CSV cell: lists and dicts (a move, a flag's numbers) as JSON text."""
    if isinstance(value, (list, dict)):
        return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False)
    return value


def _csv(held: Held, rows: list[dict]) -> bytes:
    header = [_column(f) for f in held.fields]
    return csv_bytes(header, ([_cell(row[c]) for c in header] for row in rows))


def _today() -> str:
    return timezone.localdate().isoformat()


def student_readme(student: User, counts: dict[str, int]) -> str:
    lines = [
        f"What Numberdeck holds about {student.display_name}",
        "=" * 60,
        "",
        f"Made on {_today()} for the teachers of {student.classroom or 'their class'}.",
        "Each kind of information is in two files with the same rows: a .csv file (opens in a",
        "spreadsheet) and a .json file (for computers). A kind with no rows still has its files.",
        "",
    ]
    for held in declarations():
        n = counts[held.kind]
        lines += [f"{held.kind}.csv / {held.kind}.json: {n} row{'' if n == 1 else 's'}",
                  f"    {held.about}", f"    Columns: {', '.join(_column(f) for f in held.fields)}", ""]
    lines += [
        "Not included: other children's moves and cards, and the student's sign-in pictures",
        "or password. Nothing here has been sent to anyone else: Numberdeck shares no data with",
        "third parties.",
    ]
    return "\n".join(lines) + "\n"


def student_files(*, student: User) -> dict[str, bytes]:
    """File name -> contents: README.txt, then two files per declared kind."""
    files: dict[str, bytes] = {}
    counts: dict[str, int] = {}
    for held in declarations():
        rows = _rows(held, student.pk)
        counts[held.kind] = len(rows)
        files[f"{held.kind}.json"] = _json(rows)
        files[f"{held.kind}.csv"] = _csv(held, rows)
    return {"README.txt": student_readme(student, counts).encode("utf-8"), **files}


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def student_zip(*, student: User) -> tuple[str, bytes]:
    """(file name, zip) of everything held about one student."""
    name = f"numberdeck-{slugify(student.display_name) or 'student'}-{student.pk}-{_today()}.zip"
    return name, _zip(student_files(student=student))


def student_folder(student: User) -> str:
    """A student's folder in a class's zip: names may repeat across classes, ids do not."""
    return f"{slugify(student.display_name) or 'student'}-{student.pk}"


CLASS_README = """What Numberdeck holds about the class {name}
============================================================

Made on {day}.

class.csv / class.json: the class itself: its name, grade, and when it was made or archived.
students.csv / students.json: every student of the class (also those removed from the class
    list), and the folder with their data.
assignments.csv / assignments.json: the work set for the class: the game, the goal, and
    whether it was for the whole class or for chosen students.
One folder per student: everything held about that student, with its own README.txt
    saying what each file is.

Nothing here has been sent to anyone else: Numberdeck shares no data with third parties.
"""


def classroom_files(*, classroom: Classroom) -> dict[str, bytes]:
    files = {"README.txt": CLASS_README.format(name=classroom.name, day=_today()).encode("utf-8")}
    tables = {
        "class": ([{"name": classroom.name, "grade": classroom.grade, "created at": classroom.created_at,
                    "archived at": classroom.archived_at}]),
        "students": [{"folder": student_folder(s), "name": s.display_name, "username": s.username,
                      "on the class list": s.is_active} for s in class_students(classroom=classroom)],
        "assignments": [{"title": a.title, "game": a.game, "goal": a.goal, "goal count": a.goal_count,
                         "due on": a.due_on, "for": "chosen students" if a.chosen else "the whole class",
                         "created at": a.created_at, "closed at": a.closed_at}
                        for a in _assignments(classroom)],
    }
    for name, rows in tables.items():
        header = list(rows[0]) if rows else []
        files[f"{name}.json"] = _json(rows)
        files[f"{name}.csv"] = csv_bytes(header, ([row[c] for c in header] for row in rows))
    for student in class_students(classroom=classroom):
        folder = student_folder(student)
        files.update({f"{folder}/{name}": content for name, content in student_files(student=student).items()})
    return files


def _assignments(classroom: Classroom):
    return classroom.assignments.annotate(chosen=Count("students")).order_by("created_at", "pk")


def classroom_zip(*, classroom: Classroom) -> tuple[str, bytes]:
    """(file name, zip) of everything held about a class and each of its students."""
    name = f"numberdeck-{slugify(classroom.name) or 'class'}-{classroom.pk}-{_today()}.zip"
    return name, _zip(classroom_files(classroom=classroom))
