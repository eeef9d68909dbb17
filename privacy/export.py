"""Everything held about a student, or a whole class, as a zip a school can hand to a family
(a subject-access request; docs/privacy-export-erase.md, "Export"): one JSON and one CSV file per declared kind
(privacy/registry.py) and a README.txt in plain words saying what each file is. The README and
the CSV headings are in the language of the teacher who downloads it; the values and the JSON keys
are the same in every language (data for programs).

Only the student's own rows are read, each through its declaration's `fields`: their own
moves (never a classmate's, nor anyone's hidden cards: no game state is exported) and of a
shared game only what every player saw at the end (who won). The other players of a game are
never named: where a row names them (a declaration's `players`), a classmate is "another
player" and a computer player "a computer player", so the zip holds no classmate's name, id
or rating.
"""

from __future__ import annotations

import io
import json
import textwrap
import zipfile

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Count
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from accounts.models import User
from classroom.models import Classroom
from games.player_names import renamed, unique_name
from reports.exports.csv import csv_bytes

from .registry import Held, declarations
from .selectors import class_students, game_seats
from .words import about_in_words, column_heading, joined

# How a student's export says the other players of their games (data, the same in every
# language, like every value of the files; README.txt explains them in the reader's language).
ANOTHER_PLAYER = "another player"
A_COMPUTER_PLAYER = "a computer player"


def _column(field: str) -> str:
    return field.replace("__", " ")


def others_said(*, student_id: int, game_ids) -> dict[int, dict[str, str]]:
    """Game id -> {the name of each seat that is not the student's: how the export says it}:
    "another player" (a classmate, or a former student), "a computer player", numbered in
    seat order when a game had more than one ("another player (2)")."""
    seats = game_seats(game_ids=game_ids)
    own = {(game_id, name) for game_id, name, user_id, _ in seats if user_id == student_id}
    said: dict[int, dict[str, str]] = {}
    for game_id, name, user_id, bot_level in seats:
        if (game_id, name) in own:
            continue
        names = said.setdefault(game_id, {})
        taken = {*names.values(), *(n for g, n in own if g == game_id)}
        names[name] = unique_name(A_COMPUTER_PLAYER if bot_level else ANOTHER_PLAYER, taken)
    return said


def _listed_player(entry, names: dict[str, str]) -> dict:
    """A player listed as {"name", "level", ...}: who they were to the student, and a computer
    player's level; nothing else (a classmate's rating is theirs)."""
    entry = entry if isinstance(entry, dict) else {}
    level = entry.get("level") or ""
    return {"name": names.get(entry.get("name")) or (A_COMPUTER_PLAYER if level else ANOTHER_PLAYER),
            "level": level}


def _players_said(players: dict, rows: list[dict], student_id: int) -> list[dict]:
    """Rows with the other players named as the student's export names them (a declaration's
    `players`: privacy/registry.py)."""
    said = others_said(student_id=student_id, game_ids={row[players["game"]] for row in rows})
    for row in rows:
        names = said.get(row[players["game"]], {})
        for name in players["names"]:
            row[name] = renamed(row[name], names)
        for name in players["seats"]:
            row[name] = [_listed_player(entry, names) for entry in row[name] or []]
    return rows


def _rows(held: Held, student_id: int) -> list[dict]:
    rows = list(held.rows(student_id).values(*held.fields))
    if held.players:
        rows = _players_said(held.players, rows, student_id)
    return [{_column(k): v for k, v in row.items()} for row in rows]


def _json(value) -> bytes:
    return json.dumps(value, cls=DjangoJSONEncoder, indent=2, ensure_ascii=False).encode("utf-8")


def _cell(value):
    """A CSV cell: lists and dicts (a move, a flag's numbers) as JSON text."""
    if isinstance(value, (list, dict)):
        return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False)
    return value


def _csv(held: Held, rows: list[dict]) -> bytes:
    columns = [_column(f) for f in held.fields]
    return csv_bytes([column_heading(c) for c in columns], ([_cell(row[c]) for c in columns] for row in rows))


def _today() -> str:
    return timezone.localdate().isoformat()


def _paragraph(text: str) -> list[str]:
    """A translated paragraph as README lines (a plain text file: wrapped, not too wide)."""
    return textwrap.wrap(text, width=90, break_on_hyphens=False) or [""]


def _files_explained() -> list[str]:
    return _paragraph(_(
        "Each kind of information is in two files with the same rows: a .csv file (opens in a "
        "spreadsheet) and a .json file (for computers). A kind with no rows still has its files. "
        "The .csv files' column headings are in the language of the teacher who downloaded them; "
        "the .json files keep their keys in English, because they are data keys for computers. "
        "Dates, times and numbers are written the same way in every language (2026-11-26, "
        "14:03, 12.5), so any program can read them."))


def _nothing_shared() -> list[str]:
    return _paragraph(_("Nothing here has been sent to anyone else: Numberdeck shares no data with "
                        "third parties."))


def student_readme(student: User, counts: dict[str, int]) -> str:
    classes = [m.classroom.name for m in student.memberships.select_related("classroom")
               .order_by("joined_at", "pk")]
    if classes:
        made = _("Made on %(day)s for the teachers of %(class)s.") % {
            "day": _today(), "class": joined(classes)}
    else:
        made = _("Made on %(day)s for the student's teachers.") % {"day": _today()}
    lines = [_("What Numberdeck holds about %(name)s") % {"name": student.display_name}, "=" * 60, "",
             *_paragraph(made), "", *_files_explained(), ""]
    for held in declarations():
        n = counts[held.kind]
        rows = ngettext("%(count)s row", "%(count)s rows", n) % {"count": n}
        columns = joined(column_heading(_column(f)) for f in held.fields)
        lines += [f"{held.kind}.csv / {held.kind}.json: {rows}",
                  f"    {about_in_words(held.about)}", "    " + _("Columns: %(columns)s") % {"columns": columns},
                  ""]
    lines += [*_paragraph(_('Other players: in a game played with others, a classmate is called "another '
                            'player" and a computer player "a computer player" ("another player (2)" when '
                            'there were two), in every file: in the moves, in who won and in the rating '
                            'changes. Their names, usernames and ratings are theirs, not this student\'s.')),
              "",
              *_paragraph(_("Not included: other children's names, moves, cards and ratings, and the "
                            "student's sign-in pictures or password.")), *_nothing_shared()]
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


def class_readme(classroom: Classroom) -> str:
    lines = [_("What Numberdeck holds about the class %(name)s") % {"name": classroom.name}, "=" * 60, "",
             _("Made on %(day)s.") % {"day": _today()}, "", *_files_explained(), ""]
    for files, about in (
        ("class.csv / class.json", _("The class itself: its name, grade, and when it was made or archived.")),
        ("students.csv / students.json", _("Every student of the class (also those removed from the class "
                                           "list), and the folder with their data.")),
        ("assignments.csv / assignments.json", _("The work set for the class: the game, the goal, and whether "
                                                 "it was for the whole class or for chosen students.")),
    ):
        lines += [f"{files}:", *["    " + line for line in _paragraph(about)]]
    lines += [*_paragraph(_("One folder per student: everything held about that student, with its own "
                            "README.txt saying what each file is.")), "",
              *_paragraph(_("A student who is also in a class you do not teach has no folder: their data "
                            "holds what they did in that class too.")), "", *_nothing_shared()]
    return "\n".join(lines) + "\n"


# The class's own tables: English keys (the JSON keys) -> the CSV headings.
CLASS_COLUMNS = {
    "name": pgettext_lazy("column of a data export", "name"),
    "grade": pgettext_lazy("column of a data export", "grade"),
    "created at": pgettext_lazy("column of a data export", "created at"),
    "archived at": pgettext_lazy("column of a data export", "archived at"),
    "folder": pgettext_lazy("column of a data export", "folder"),
    "username": pgettext_lazy("column of a data export", "username"),
    "on the class list": pgettext_lazy("column of a data export", "on the class list"),
    "title": pgettext_lazy("column of a data export", "title"),
    "game": pgettext_lazy("column of a data export", "game"),
    "goal": pgettext_lazy("column of a data export", "goal"),
    "goal count": pgettext_lazy("column of a data export", "goal count"),
    "due on": pgettext_lazy("column of a data export", "due on"),
    "for": pgettext_lazy("column of a data export: whom an assignment was for", "for"),
    "closed at": pgettext_lazy("column of a data export", "closed at"),
}


def classroom_files(*, classroom: Classroom, with_folder=lambda student: True) -> dict[str, bytes]:
    """The class's files, and a folder per student for whom `with_folder(student)` (a child
    also in a class the downloader does not teach has none: their folder would show that
    class's games; accounts/permissions.py)."""
    files = {"README.txt": class_readme(classroom).encode("utf-8")}
    students = list(class_students(classroom=classroom))
    foldered = {s.pk for s in students if with_folder(s)}
    tables = {
        "class": ([{"name": classroom.name, "grade": classroom.grade, "created at": classroom.created_at,
                    "archived at": classroom.archived_at}]),
        "students": [{"folder": student_folder(s) if s.pk in foldered else "", "name": s.display_name,
                      "username": s.username, "on the class list": _on_list(s, classroom)}
                     for s in students],
        "assignments": [{"title": a.title, "game": a.game, "goal": a.goal, "goal count": a.goal_count,
                         "due on": a.due_on,
                         "for": _("chosen students") if a.chosen else _("the whole class"),
                         "created at": a.created_at, "closed at": a.closed_at}
                        for a in _assignments(classroom)],
    }
    for name, rows in tables.items():
        keys = list(rows[0]) if rows else []
        files[f"{name}.json"] = _json(rows)
        files[f"{name}.csv"] = csv_bytes([str(CLASS_COLUMNS[k]) for k in keys],
                                         ([row[k] for k in keys] for row in rows))
    for student in students:
        if student.pk not in foldered:
            continue
        folder = student_folder(student)
        files.update({f"{folder}/{name}": content for name, content in student_files(student=student).items()})
    return files


def _on_list(student: User, classroom: Classroom) -> bool:
    return student.is_active and student.memberships.filter(classroom=classroom, archived_at__isnull=True).exists()


def _assignments(classroom: Classroom):
    return classroom.assignments.annotate(chosen=Count("students")).order_by("created_at", "pk")


def classroom_zip(*, classroom: Classroom, with_folder=lambda student: True) -> tuple[str, bytes]:
    """(file name, zip) of everything held about a class and each of its students (see
    `classroom_files` for `with_folder`)."""
    name = f"numberdeck-{slugify(classroom.name) or 'class'}-{classroom.pk}-{_today()}.zip"
    return name, _zip(classroom_files(classroom=classroom, with_folder=with_folder))
