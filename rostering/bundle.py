"""Reading a OneRoster CSV bundle (a zip) into `records`, with every problem by file and line.

`read_bundle(data)` returns the bundle and its problems; a bundle with any problem must
change nothing (the preview and the apply refuse it). Files are found by name anywhere in the
zip (some exporters put them in a folder). Only the columns Numberdeck keeps are read
(records.py); the others, and files it does not read, are never kept.

References between files are checked once every file is read: an enrollment to a class or a
user, a class to its course, school and terms, a course to its org, a 1.2 role to its user and
org. A bulk file holds everything, so an id missing from it is an error. A delta file holds
only changes: an id it does not hold may be one an earlier import brought (`known_users`,
`known_classes`); other delta references are not checked.
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass, replace
from datetime import date, datetime

from django.utils.translation import gettext as _

from . import spec
from .records import Bundle, Class, Course, Enrollment, Org, Person, Problem, Session

MAX_UNZIPPED_BYTES = 50 * 1024 * 1024  # every file Numberdeck reads, unzipped, together


class BundleError(ValueError):
    """The bundle cannot be used; `problems` lists why, by file and line."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


@dataclass(frozen=True)
class _Ref:
    file: str
    line: int
    column: str
    target: str  # the file that must hold the id
    value: str


class _Reader:
    def __init__(self, version: str, modes: dict[str, str]):
        self.version = version
        self.modes = modes
        self.problems: list[Problem] = []
        self.refs: list[_Ref] = []
        self.ids: dict[str, set[str]] = {}

    def problem(self, file: str, line: int, message: str) -> None:
        self.problems.append(Problem(file, line, message))

    def rows(self, file: str, text: str):
        """(line, row dict) for each non-blank row, after the header's check; [] on a bad header."""
        reader = csv.reader(io.StringIO(text, newline=""))
        try:
            header = next(reader, None)
        except csv.Error as exc:
            self.problem(file, 1, _("The header cannot be read: %(error)s") % {"error": exc})
            return []
        if not header or not any(h.strip() for h in header):
            self.problem(file, 1, _("The file is empty: it needs a header line."))
            return []
        header = [h.strip() for h in header]
        missing = [c for c in spec.REQUIRED[self.version][file] if c not in header]
        if missing:
            self.problem(file, 1, _("Missing column(s): %(columns)s. Column names are case-sensitive.")
                         % {"columns": ", ".join(missing)})
            return []
        found = []
        try:
            for number, values in enumerate(reader, start=2):
                if not any(v.strip() for v in values):
                    continue
                found.append((number, {name: (values[i].strip() if i < len(values) else "")
                                       for i, name in enumerate(header)}))
        except csv.Error as exc:
            self.problem(file, len(found) + 2, _("This line cannot be read: %(error)s") % {"error": exc})
        return found

    def common(self, file: str, line: int, row: dict) -> str | None:
        """Check sourcedId, status and the dates; the sourcedId, or None to skip the row."""
        sourced_id = row["sourcedId"]
        status = row["status"]
        if status and status not in spec.STATUSES[self.version]:
            self.problem(file, line, _("Unknown status “%(status)s” (expected active or tobedeleted).")
                         % {"status": status})
        elif not status and self.modes.get(file) == "delta":
            self.problem(file, line, _("The status is empty; a delta file must give it."))
        for column in spec.DATETIME_COLUMNS + spec.DATE_COLUMNS:
            self.date(file, line, row, column)
        if not sourced_id:
            self.problem(file, line, _("The sourcedId is empty."))
            return None
        seen = self.ids.setdefault(file, set())
        if sourced_id in seen:
            self.problem(file, line, _("The sourcedId “%(id)s” appears more than once in this file.")
                         % {"id": sourced_id})
            return None
        seen.add(sourced_id)
        return sourced_id

    def date(self, file: str, line: int, row: dict, column: str) -> None:
        value = row.get(column, "")
        if not value:
            return
        try:
            (datetime if column in spec.DATETIME_COLUMNS else date).fromisoformat(value)
        except ValueError:
            example = "2026-09-01T08:00:00.000Z" if column in spec.DATETIME_COLUMNS else "2026-09-01"
            self.problem(file, line, _("%(column)s “%(value)s” is not a date like %(example)s.")
                         % {"column": column, "value": value, "example": example})

    def dates_in_order(self, file: str, line: int, start: str, end: str) -> None:
        try:
            if start and end and date.fromisoformat(end) < date.fromisoformat(start):
                self.problem(file, line, _("The end date %(end)s is before the start date %(start)s.")
                             % {"end": end, "start": start})
        except ValueError:
            pass  # already reported

    def required(self, file: str, line: int, row: dict, *columns: str) -> bool:
        empty = [c for c in columns if not row.get(c)]
        for column in empty:
            self.problem(file, line, _("%(column)s is empty.") % {"column": column})
        return not empty

    def vocabulary(self, file: str, line: int, column: str, value: str, allowed: set[str]) -> bool:
        if value in allowed or (self.version == "1.2" and value.startswith(spec.EXTENSION_PREFIX)):
            return True
        self.problem(file, line, _("Unknown %(column)s “%(value)s” (expected one of: %(allowed)s).")
                     % {"column": column, "value": value, "allowed": ", ".join(sorted(allowed))})
        return False

    def boolean(self, file: str, line: int, column: str, value: str, default: bool) -> bool:
        if not value:
            return default
        if value.lower() in spec.BOOLEANS:
            return spec.BOOLEANS[value.lower()]
        self.problem(file, line, _("%(column)s must be true or false, not “%(value)s”.")
                     % {"column": column, "value": value})
        return default

    def ref(self, file: str, line: int, column: str, target: str, value: str) -> None:
        for one in _list(value):
            self.refs.append(_Ref(file, line, column, target, one))


def _list(value: str) -> tuple[str, ...]:
    """A list column: comma-separated values ("grades", "termSourcedIds")."""
    return tuple(v.strip() for v in value.split(",") if v.strip())


def _status(row: dict) -> str:
    return "tobedeleted" if row["status"] in spec.TO_BE_DELETED else "active"


def read_bundle(data: bytes, *, known_users: set[str] = frozenset(),
                known_classes: set[str] = frozenset()) -> tuple[Bundle, list[Problem]]:
    """The bundle in `data` (a zip's bytes) and every problem found in it."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = [i for i in archive.infolist() if not i.is_dir() and not i.filename.startswith("__MACOSX/")]
    except (zipfile.BadZipFile, OSError, ValueError):
        return Bundle(), [Problem(_("the file"), 0, _("This is not a zip file. Upload the .zip your "
                                                      "school's system exported."))]
    by_name: dict[str, list[zipfile.ZipInfo]] = {}
    for info in entries:
        by_name.setdefault(info.filename.rsplit("/", 1)[-1], []).append(info)

    def text_of(file: str, problems: list[Problem]) -> str | None:
        found = by_name.get(file, [])
        if not found:
            problems.append(Problem(file, 0, _("The file is missing from the zip.")))
            return None
        if len(found) > 1:
            problems.append(Problem(file, 0, _("The zip holds this file more than once.")))
            return None
        if found[0].file_size > MAX_UNZIPPED_BYTES:
            problems.append(Problem(file, 0, _("The file is too big.")))
            return None
        try:
            return archive.read(found[0]).decode("utf-8-sig")
        except UnicodeDecodeError:
            problems.append(Problem(file, 0, _("The file is not UTF-8 text.")))
        except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError):
            problems.append(Problem(file, 0, _("The file cannot be unzipped.")))
        return None

    problems: list[Problem] = []
    manifest = text_of(spec.MANIFEST, problems)
    if manifest is None:
        return Bundle(), problems
    properties = _manifest(manifest, problems)
    version = properties.get("oneroster.version", "")
    if version not in spec.VERSIONS:
        problems.append(Problem(spec.MANIFEST, 0, _("oneroster.version is “%(version)s”; Numberdeck reads "
                                                    "1.1 and 1.2.") % {"version": version}))
        return Bundle(), problems
    if sum(i.file_size for i in entries) > MAX_UNZIPPED_BYTES:
        return Bundle(), [Problem(_("the file"), 0, _("The zip unpacks to more than 50 MB."))]
    modes = {f: properties.get(spec.MANIFEST_KEY[f], "bulk") or "bulk" for f in spec.DATA_FILES[version]}
    reader = _Reader(version, modes)
    reader.problems = problems
    bundle = Bundle(version=version, source_name=properties.get("source.systemName", ""), modes=modes)
    roles: dict[str, list[str]] = {}
    for file in spec.DATA_FILES[version]:
        if modes[file] == "absent":
            continue
        text = text_of(file, problems)
        if text is None:
            continue
        for line, row in reader.rows(file, text):
            _READERS[file](reader, bundle, roles, line, row)
    if version == "1.2":
        bundle.people = [_with_roles(p, roles.get(p.sourced_id, [])) for p in bundle.people]
    _check_references(reader, known={spec.USERS: set(known_users), spec.CLASSES: set(known_classes)})
    return bundle, sorted(problems, key=lambda p: (_file_order(version, p.file), p.line))


def _file_order(version: str, file: str) -> int:
    files = (spec.MANIFEST,) + spec.DATA_FILES[version]
    return files.index(file) if file in files else -1


def _manifest(text: str, problems: list[Problem]) -> dict[str, str]:
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows or [c.strip() for c in rows[0][:2]] != ["propertyName", "value"]:
        problems.append(Problem(spec.MANIFEST, 1, _("The header must be propertyName,value.")))
        return {}
    return {r[0].strip(): r[1].strip() for r in rows[1:] if len(r) >= 2}


def _with_roles(person: Person, roles: list[str]) -> Person:
    email = person.email if "teacher" in roles and "student" not in roles else ""
    return replace(person, roles=tuple(roles), email=email)


# ----- one reader per file ---------------------------------------------------------------

def _orgs(r: _Reader, b: Bundle, roles, line: int, row: dict) -> None:
    sid = r.common(spec.ORGS, line, row)
    if sid and r.required(spec.ORGS, line, row, "name"):
        b.orgs.append(Org(sid, _status(row), row["name"], row["type"], line))
        r.ref(spec.ORGS, line, "parentSourcedId", spec.ORGS, row.get("parentSourcedId", ""))


def _sessions(r: _Reader, b: Bundle, roles, line: int, row: dict) -> None:
    sid = r.common(spec.SESSIONS, line, row)
    r.dates_in_order(spec.SESSIONS, line, row["startDate"], row["endDate"])
    if sid and r.required(spec.SESSIONS, line, row, "title"):
        b.sessions.append(Session(sid, _status(row), row["title"], row["type"], row["startDate"],
                                  row["endDate"], line))


def _courses(r: _Reader, b: Bundle, roles, line: int, row: dict) -> None:
    sid = r.common(spec.COURSES, line, row)
    if sid and r.required(spec.COURSES, line, row, "title", "orgSourcedId"):
        b.courses.append(Course(sid, _status(row), row["title"], row["orgSourcedId"], line))
        r.ref(spec.COURSES, line, "orgSourcedId", spec.ORGS, row["orgSourcedId"])


def _classes(r: _Reader, b: Bundle, roles, line: int, row: dict) -> None:
    sid = r.common(spec.CLASSES, line, row)
    if sid and r.required(spec.CLASSES, line, row, "title", "courseSourcedId", "schoolSourcedId"):
        b.classes.append(Class(sid, _status(row), row["title"], row["courseSourcedId"], row["schoolSourcedId"],
                               _list(row["termSourcedIds"]), _list(row.get("grades", "")), line))
        r.ref(spec.CLASSES, line, "courseSourcedId", spec.COURSES, row["courseSourcedId"])
        r.ref(spec.CLASSES, line, "schoolSourcedId", spec.ORGS, row["schoolSourcedId"])
        r.ref(spec.CLASSES, line, "termSourcedIds", spec.SESSIONS, row["termSourcedIds"])


def _users(r: _Reader, b: Bundle, roles, line: int, row: dict) -> None:
    sid = r.common(spec.USERS, line, row)
    enabled = r.boolean(spec.USERS, line, "enabledUser", row["enabledUser"], default=True)
    user_roles: tuple[str, ...] = ()
    if r.version == "1.1":
        if r.required(spec.USERS, line, row, "role") and \
                r.vocabulary(spec.USERS, line, "role", row["role"], spec.USER_ROLES["1.1"]):
            user_roles = (row["role"],)
        r.ref(spec.USERS, line, "orgSourcedIds", spec.ORGS, row["orgSourcedIds"])
    if not (sid and r.required(spec.USERS, line, row, "givenName", "familyName")):
        return
    # preferredFirstName is a common 1.1 extension column; preferredGivenName is 1.2's.
    preferred = row.get("preferredGivenName", "") or row.get("preferredFirstName", "")
    teacher = user_roles == ("teacher",)
    b.people.append(Person(
        sourced_id=sid, status=_status(row), enabled=enabled, given_name=row["givenName"],
        family_name=row["familyName"], preferred_name=preferred, username=row["username"],
        identifier=row.get("identifier", ""), email=row.get("email", "") if teacher or r.version == "1.2" else "",
        grades=_list(row.get("grades", "")), roles=user_roles, line=line))


def _roles(r: _Reader, b: Bundle, roles: dict, line: int, row: dict) -> None:
    sid = r.common(spec.ROLES, line, row)
    if not (sid and r.required(spec.ROLES, line, row, "userSourcedId", "role")):
        return
    r.vocabulary(spec.ROLES, line, "roleType", row["roleType"], spec.ROLE_TYPES)
    if r.vocabulary(spec.ROLES, line, "role", row["role"], spec.USER_ROLES["1.2"]) and \
            _status(row) == "active":
        found = roles.setdefault(row["userSourcedId"], [])
        # The primary role first: it decides when a person has several.
        found.insert(0 if row["roleType"] == "primary" else len(found), row["role"])
    r.ref(spec.ROLES, line, "userSourcedId", spec.USERS, row["userSourcedId"])
    r.ref(spec.ROLES, line, "orgSourcedId", spec.ORGS, row["orgSourcedId"])


def _enrollments(r: _Reader, b: Bundle, roles, line: int, row: dict) -> None:
    sid = r.common(spec.ENROLLMENTS, line, row)
    r.dates_in_order(spec.ENROLLMENTS, line, row.get("beginDate", ""), row.get("endDate", ""))
    if not (sid and r.required(spec.ENROLLMENTS, line, row, "classSourcedId", "userSourcedId", "role")):
        return
    if not r.vocabulary(spec.ENROLLMENTS, line, "role", row["role"], spec.ENROLLMENT_ROLES[r.version]):
        return
    b.enrollments.append(Enrollment(
        sid, _status(row), row["classSourcedId"], row["userSourcedId"], row["role"],
        r.boolean(spec.ENROLLMENTS, line, "primary", row.get("primary", ""), default=False),
        row.get("beginDate", ""), row.get("endDate", ""), line))
    r.ref(spec.ENROLLMENTS, line, "classSourcedId", spec.CLASSES, row["classSourcedId"])
    r.ref(spec.ENROLLMENTS, line, "userSourcedId", spec.USERS, row["userSourcedId"])
    r.ref(spec.ENROLLMENTS, line, "schoolSourcedId", spec.ORGS, row["schoolSourcedId"])


_READERS = {spec.ORGS: _orgs, spec.SESSIONS: _sessions, spec.COURSES: _courses, spec.CLASSES: _classes,
            spec.USERS: _users, spec.ROLES: _roles, spec.ENROLLMENTS: _enrollments}


def _check_references(r: _Reader, *, known: dict[str, set[str]]) -> None:
    for ref in r.refs:
        mode = r.modes.get(ref.target, "absent")
        if ref.value in r.ids.get(ref.target, set()):
            continue
        # A bulk file is the whole list; a delta one may leave out what an earlier import brought.
        if mode == "bulk" or (ref.target in known and ref.value not in known[ref.target]):
            r.problem(ref.file, ref.line, _("%(column)s “%(id)s” is not in %(file)s.")
                      % {"column": ref.column, "id": ref.value, "file": ref.target})


def checked_bundle(data: bytes, **known) -> Bundle:
    """The bundle, or BundleError listing every problem."""
    bundle, problems = read_bundle(data, **known)
    if problems:
        raise BundleError(problems)
    return bundle
