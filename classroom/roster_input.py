"""Reading lists of students: pasted names (one per line) and CSV files (`name`, `username`).

The column names may be written in English or in any language the site offers ("nombre",
"الاسم"): a teacher names them in their own language, and the help shows them in the reader's.

Pure functions, no database: they turn what a teacher pasted or uploaded into numbered rows,
and report every problem with its line number, so the teacher can fix them all in one go.
Checks that need the database (usernames already taken) are added by the roster service.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from dataclasses import dataclass

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _, ngettext, pgettext

from . import names

MAX_ROWS = 200
MAX_UPLOAD_BYTES = 200 * 1024
USERNAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]{2,29}$")


class RosterInputError(ValueError):
    """The whole input cannot be read (empty, wrong encoding, no `name` column, too big)."""


@dataclass(frozen=True)
class Row:
    line: int
    name: str
    username: str = ""


@dataclass(frozen=True)
class Problem:
    line: int
    text: str  # what the teacher wrote on that line, to find it quickly
    reason: str


def column_names() -> dict[str, str]:
    """The two columns' names in the active language: {"name": ..., "username": ...}."""
    return {"name": pgettext("CSV column", "name"), "username": pgettext("CSV column", "username")}


def _column_spellings() -> dict[str, set[str]]:
    """Every accepted spelling of each column: English and each offered language's."""
    spellings = {"name": {"name"}, "username": {"username"}}
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            for column, word in column_names().items():
                spellings[column].add(word.strip().lower())
    return spellings


def rows_from_text(text: str) -> list[Row]:
    """One name per line; blank lines are skipped but still counted in line numbers."""
    rows = [Row(line=n, name=line) for n, line in enumerate((text or "").splitlines(), start=1)
            if line.strip()]
    if not rows:
        raise RosterInputError(_("The list is empty. Type or paste one name per line."))
    if len(rows) > MAX_ROWS:
        raise RosterInputError(ngettext(
            "That is %(count)s name; please add at most %(most)s at a time.",
            "That is %(count)s names; please add at most %(most)s at a time.",
            len(rows)) % {"count": len(rows), "most": MAX_ROWS})
    return rows


def too_big_message(size: int) -> str:
    """For a file over MAX_UPLOAD_BYTES (the form and the reader both refuse one)."""
    return ngettext(
        "This file is too big (%(size)s KB). A class list should be under %(most)s KB; please "
        "upload at most %(rows)s student at a time.",
        "This file is too big (%(size)s KB). A class list should be under %(most)s KB; please "
        "upload at most %(rows)s students at a time.",
        MAX_ROWS) % {"size": size // 1024, "most": MAX_UPLOAD_BYTES // 1024, "rows": MAX_ROWS}


def _decode(data: bytes) -> str:
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise RosterInputError(_(
            "This file is saved as UTF-16 text. Please save it as “CSV UTF-8” "
            "(in Excel: File › Save As › CSV UTF-8) and upload it again."))
    if data.startswith(b"PK\x03\x04"):
        raise RosterInputError(_(
            "This looks like a spreadsheet file, not a CSV file. Please save it as "
            "“CSV UTF-8” (File › Save As) and upload that."))
    try:
        text = data.decode("utf-8-sig")  # Excel's "CSV UTF-8" starts with a byte-order mark
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RosterInputError(_(
            "This file is not UTF-8 text (the first unreadable character is on line %(line)s). "
            "It may be saved as Latin-1 or “Windows” text. Please save it as “CSV UTF-8” "
            "and upload it again.") % {"line": line}) from exc
    if "\x00" in text:
        raise RosterInputError(_("This file has unreadable bytes in it; it does not look like a CSV file."))
    return text


def _dialect(sample: str):
    """Excel's CSV rules (quotes doubled inside quoted cells: "Ann ""Annie"" Lee"), with the
    delimiter the header row uses. Only the delimiter is sniffed: from a header row without
    quotes the sniffer also guesses the quoting, wrongly, and names with quotes broke."""
    try:
        delimiter = csv.Sniffer().sniff(sample.splitlines()[0], delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","

    class Dialect(csv.excel):
        pass

    Dialect.delimiter = delimiter
    return Dialect


def _one_line_each(reader, lines: list[str]) -> list[str] | None:
    """The next row with something in it (None at the end), refused when it took more than one
    line. A quote mark that is never closed makes the csv module read on to the next quote,
    or to the end of the file, as one cell: two children (or twenty) would silently become
    one. A name never spans lines, so a row that does is always that mistake."""
    while True:
        first = reader.line_num + 1
        cells = next(reader, None)
        if cells is None:
            return None
        if not any(cell.strip() for cell in cells):
            continue
        if reader.line_num > first or any("\n" in cell or "\r" in cell for cell in cells):
            shown = lines[first - 1].strip()
            shown = shown if len(shown) <= 60 else shown[:60] + "…"
            # Translators: %(text)s is the line as the teacher's file has it.
            raise RosterInputError(_(
                "Line %(line)s has a quote mark that is never closed: %(text)s — quote marks "
                "come in pairs on the same line. Delete it, or add the closing one, then upload "
                "the file again. Nobody was added.") % {"line": first, "text": shown})
        return cells


def rows_from_csv(data: bytes) -> list[Row]:
    """Rows of a CSV whose first row names the columns: `name` (needed), `username` (optional)."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise RosterInputError(too_big_message(len(data)))
    text = _decode(data)
    if not text.strip():
        raise RosterInputError(
            _("The file is empty. It needs a first row with “%(name)s”, then one student per row.")
            % column_names())
    reader = csv.reader(io.StringIO(text, newline=""), _dialect(text))
    lines = list(io.StringIO(text, newline=""))  # the lines exactly as the reader counts them
    spellings = _column_spellings()
    try:
        header = _one_line_each(reader, lines)
        columns = [cell.strip().lower() for cell in header]
        name_at = next((i for i, c in enumerate(columns) if c in spellings["name"]), None)
        if name_at is None:
            found = ", ".join(f"“{c}”" for c in columns if c)
            words = column_names()
            raise RosterInputError(
                _("The first row must name the columns, with one called “%(name)s” (and, if you like, "
                  "one called “%(username)s”). The first row has: %(found)s.") % {**words, "found": found}
                if found else
                _("The first row must name the columns, with one called “%(name)s” (and, if you like, "
                  "one called “%(username)s”). The first row is empty.") % words)
        username_at = next((i for i, c in enumerate(columns) if c in spellings["username"]), None)
        rows = []
        while (cells := _one_line_each(reader, lines)) is not None:
            rows.append(Row(
                line=reader.line_num,
                name=cells[name_at] if name_at < len(cells) else "",
                username=(cells[username_at] if username_at is not None and username_at < len(cells)
                          else ""),
            ))
    except csv.Error as exc:
        # The csv module's own words are English and technical: the line number is what helps.
        raise RosterInputError(_("This file could not be read as CSV (line %(line)s). Check that "
                                 "line, save the file as “CSV UTF-8” and upload it again.")
                               % {"line": reader.line_num}) from exc
    if not rows:
        raise RosterInputError(_("The file has column names but no students. Add one student per row."))
    if len(rows) > MAX_ROWS:
        raise RosterInputError(ngettext(
            "This file has %(count)s student; please upload at most %(most)s at a time.",
            "This file has %(count)s students; please upload at most %(most)s at a time.",
            len(rows)) % {"count": len(rows), "most": MAX_ROWS})
    return rows


@dataclass(frozen=True)
class CheckedRow:
    line: int
    name: str
    username: str


def check_rows(rows: list[Row], *, names_in_class: set[str]) -> tuple[list[CheckedRow], list[Problem]]:
    """Tidy every row and list every problem (bad name, name already used, bad username).

    `names_in_class` holds `names.key()`s of the class's current students.
    """
    taken = set(names_in_class)
    first_line_of: dict[str, int] = {}
    usernames_seen: dict[str, int] = {}
    checked, problems = [], []
    for row in rows:
        shown = names.tidy(row.name) or _("(empty)")
        try:
            name = names.check(row.name)
        except names.InvalidName as exc:
            problems.append(Problem(row.line, shown[:80], str(exc)))
            continue
        name_key = names.key(name)
        if name_key in first_line_of:
            problems.append(Problem(row.line, name, (
                _("“%(name)s” is also on line %(line)s.") % {"name": name, "line": first_line_of[name_key]}
                + " " + names.tell_apart_hint(name, taken))))
            continue
        if name_key in names_in_class:
            problems.append(Problem(row.line, name, names.duplicate_message(name, taken)))
            continue
        username = row.username.strip().lower()
        if username and not USERNAME_PATTERN.match(username):
            problems.append(Problem(row.line, name, _(
                "The username “%(username)s” is not allowed: use 3 to 30 letters, digits, "
                "dots, dashes or underscores, starting with a letter or digit.")
                % {"username": username[:40]}))
            continue
        if username and username in usernames_seen:
            problems.append(Problem(row.line, name,
                                    _("The username “%(username)s” is also on line %(line)s.")
                                    % {"username": username, "line": usernames_seen[username]}))
            continue
        first_line_of[name_key] = row.line
        taken.add(name_key)
        if username:
            usernames_seen[username] = row.line
        checked.append(CheckedRow(row.line, name, username))
    return checked, problems
