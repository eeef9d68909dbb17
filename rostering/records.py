"""The rows of a OneRoster bundle that Numberdeck keeps, and the problems found in it.

Only what Numberdeck needs is kept: no birth dates, addresses, demographics, phone numbers,
middle names, passwords or user ids from other systems, even when the files hold them. A
student's e-mail is not kept either (students have none in Numberdeck); a teacher's is.
Pure data, no Django: `Bundle.as_json`/`from_json` let a checked bundle wait between the
preview and the apply without keeping the uploaded file.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields


@dataclass(frozen=True)
class Problem:
    """One problem, where a spreadsheet shows it: the header is line 1 (0: the whole file)."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}, line {self.line}: {self.message}" if self.line else f"{self.file}: {self.message}"


@dataclass(frozen=True)
class Org:
    sourced_id: str
    status: str
    name: str
    type: str
    line: int = 0


@dataclass(frozen=True)
class Session:
    sourced_id: str
    status: str
    title: str
    type: str
    start_date: str
    end_date: str
    line: int = 0


@dataclass(frozen=True)
class Course:
    sourced_id: str
    status: str
    title: str
    org: str
    line: int = 0


@dataclass(frozen=True)
class Class:
    sourced_id: str
    status: str
    title: str
    course: str
    school: str
    terms: tuple[str, ...] = ()
    grades: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True)
class Person:
    """A user: `roles` from users.csv (1.1) or roles.csv (1.2); `email` kept for teachers only."""

    sourced_id: str
    status: str
    enabled: bool
    given_name: str
    family_name: str
    preferred_name: str = ""
    username: str = ""
    identifier: str = ""
    email: str = ""
    grades: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    line: int = 0

    @property
    def role(self) -> str:
        """What Numberdeck makes of them: "student", "teacher", or "" (not imported)."""
        for role in ("student", "teacher"):
            if role in self.roles:
                return role
        return ""

    @property
    def name(self) -> str:
        first = self.preferred_name or self.given_name
        return " ".join(f"{first} {self.family_name}".split())


@dataclass(frozen=True)
class Enrollment:
    sourced_id: str
    status: str
    class_id: str
    user_id: str
    role: str
    primary: bool = False
    begin_date: str = ""
    end_date: str = ""
    line: int = 0


_KINDS = {"orgs": Org, "sessions": Session, "courses": Course, "classes": Class, "people": Person,
          "enrollments": Enrollment}


@dataclass
class Bundle:
    """A read bundle. `modes`: file name -> "bulk", "delta" or "absent" (the manifest's)."""

    version: str = ""
    source_name: str = ""
    modes: dict[str, str] = field(default_factory=dict)
    orgs: list[Org] = field(default_factory=list)
    sessions: list[Session] = field(default_factory=list)
    courses: list[Course] = field(default_factory=list)
    classes: list[Class] = field(default_factory=list)
    people: list[Person] = field(default_factory=list)
    enrollments: list[Enrollment] = field(default_factory=list)

    def is_bulk(self, file_name: str) -> bool:
        return self.modes.get(file_name) == "bulk"

    def as_json(self) -> dict:
        return {"version": self.version, "source_name": self.source_name, "modes": dict(self.modes),
                **{kind: [asdict(row) for row in getattr(self, kind)] for kind in _KINDS}}

    @classmethod
    def from_json(cls, data: dict) -> Bundle:
        def row(kind_class, values: dict):
            names = {f.name for f in fields(kind_class)}
            return kind_class(**{k: tuple(v) if isinstance(v, list) else v
                                 for k, v in values.items() if k in names})

        return cls(version=data["version"], source_name=data.get("source_name", ""),
                   modes=dict(data.get("modes", {})),
                   **{kind: [row(kind_class, values) for values in data.get(kind, [])]
                      for kind, kind_class in _KINDS.items()})
