"""The preview: what a checked bundle would change, class by class, and the steps to do it.

`make_plan(bundle=..., state=...)` compares the bundle with what the source's earlier imports
brought (selectors.State) and returns a `Plan`: per class, in plain words, who would be added,
moved in, renamed or taken off, which teachers added or removed, whether the class is new,
renamed or archived; notes about what Numberdeck leaves out; and `ops`, the steps
services.apply_plan carries out. The same bundle applied twice plans nothing the second time.

What the plan decides:
- A class comes in with its first teacher as its owner (the enrollment marked primary, else
  the first listed); a new class with no teacher yet is left out until a bundle gives it one.
- A person is archived by `status` tobedeleted, `enabledUser` false, or, in a bulk users.csv,
  by not being listed; an enrollment likewise, or by an `endDate` already past. A class by
  `status` tobedeleted, or by a bulk classes.csv that no longer lists it.
- A student is in every class the roster's active enrollments place them in (a membership
  added, or taken up again if they had left). A class the roster took them out of (an
  enrollment `tobedeleted`, ended, or no longer listed in a bulk enrollments.csv) is left:
  that membership is archived, never deleted, and they stay in their other classes. Left one
  class and joined another in the same bundle, they are said to move.
- Only when a child is left in no class at all (classroom.services.roster.student_remove
  decides) does their sign-in end, as when a teacher removes them from their last class. A
  class being archived keeps its students, as with any archived class.
- Two students with one name in a class are told apart: the roster's child gets a number
  ("Ben Diaz 2", rostering/naming.py) and the preview says so.
- An enrollment whose `beginDate` is still to come is not placed yet: the preview says when it
  starts, and the first bundle imported from that day places the child.
- Only what the roster brought is taken away again: a co-teacher a teacher invited, or a
  student added by hand, is never removed by a bundle.
- Only students and teachers are imported; other roles (parents, administrators, ...) are
  counted and left out.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date

from django.utils.translation import gettext as _, ngettext

from . import spec
from .naming import tell_apart
from .records import Bundle, Person
from .selectors import State

MAX_NAME = 60  # accounts.User.display_name
MAX_TITLE = 80  # classroom.Classroom.name

# The order the steps are carried out in: people and classes before they are put together.
OP_ORDER = ["person_add", "person_link", "person_restore", "person_rename",
            "class_add", "class_restore", "class_rename",
            "student_join", "teacher_add", "teacher_remove", "student_leave", "class_archive",
            "enrollment_save", "enrollment_archive", "person_archive"]


@dataclass
class ClassChanges:
    sourced_id: str
    title: str
    status: str = "kept"  # new, renamed, restored, archived, skipped, kept
    old_title: str = ""
    students_added: list[str] = field(default_factory=list)
    students_moved_in: list[tuple[str, str]] = field(default_factory=list)  # (name, from class)
    students_moved_out: list[tuple[str, str]] = field(default_factory=list)  # (name, to class)
    students_renamed: list[tuple[str, str]] = field(default_factory=list)  # (old, new)
    students_removed: list[str] = field(default_factory=list)
    teachers_added: list[str] = field(default_factory=list)
    teachers_removed: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.status != "kept" or any((self.students_added, self.students_moved_in, self.students_moved_out,
                                             self.students_renamed, self.students_removed, self.teachers_added,
                                             self.teachers_removed))


@dataclass
class Plan:
    classes: list[ClassChanges] = field(default_factory=list)
    teachers_renamed: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    ops: list[tuple] = field(default_factory=list)

    @property
    def changed_classes(self) -> list[ClassChanges]:
        return [c for c in self.classes if c.changed]

    @property
    def is_empty(self) -> bool:
        return not self.ops

    @property
    def digest(self) -> str:
        """Names this plan's steps: the apply refuses a plan that is not the one previewed."""
        return hashlib.sha256(json.dumps(self.ops, sort_keys=True).encode()).hexdigest()

    def counts(self) -> dict[str, int]:
        def total(name):
            return sum(len(getattr(c, name)) for c in self.classes)

        return {"classes_added": sum(c.status == "new" for c in self.classes),
                "classes_renamed": sum(bool(c.old_title) for c in self.classes),
                "classes_archived": sum(c.status == "archived" for c in self.classes),
                "students_added": total("students_added"), "students_moved": total("students_moved_in"),
                "students_renamed": total("students_renamed"), "students_removed": total("students_removed"),
                "teachers_added": total("teachers_added"), "teachers_removed": total("teachers_removed")}


def _name(person: Person) -> str:
    return person.name[:MAX_NAME].strip()


class _Planner:
    def __init__(self, bundle: Bundle, state: State, today: date):
        self.b, self.s, self.today = bundle, state, today.isoformat()
        self.plan = Plan()
        self.changes: dict[str, ClassChanges] = {}
        self.ops: list[tuple] = []
        self.room_to_class = {c.classroom_id: sid for sid, c in state.classes.items()}
        self.archiving: set[str] = set()  # classes this plan archives
        self.renamed_students: dict[str, tuple[str, str]] = {}
        self.unplaced: set[str] = set()  # students the roster takes out of every class
        self.brought: dict[str, set[str]] = defaultdict(set)  # the classes earlier imports placed a student in
        for e in state.enrollments.values():
            if e.role == "student" and not e.archived:
                self.brought[e.person].add(e.roster_class)
        self.student_names: dict[str, str] = {}  # roster id -> the name Numberdeck gives them
        self.starting: list[tuple[str, str, str]] = []  # (person, class, beginDate) not placed yet

    def class_changes(self, sid: str) -> ClassChanges:
        if sid not in self.changes:
            listed = next((c for c in self.b.classes if c.sourced_id == sid), None)
            linked = self.s.classes.get(sid)
            title = listed.title[:MAX_TITLE] if listed else (linked.name if linked else sid)
            self.changes[sid] = ClassChanges(sid, title)
        return self.changes[sid]

    def note(self, text: str) -> None:
        self.plan.notes.append(text)

    # ----- what the bundle wants ------------------------------------------------------

    def wanted_classes(self) -> dict[str, str]:
        """sourcedId -> title of every class the roster wants active."""
        wanted = {c.sourced_id: c.title[:MAX_TITLE] for c in self.b.classes if c.status == "active"}
        if not self.b.is_bulk(spec.CLASSES):
            listed = {c.sourced_id for c in self.b.classes}
            wanted.update({sid: c.name for sid, c in self.s.classes.items()
                           if sid not in listed and not c.archived})
        return wanted

    def wanted_people(self) -> dict[str, tuple[str, str, str]]:
        """sourcedId -> (role, name, e-mail) of every person the roster wants active."""
        wanted, others = {}, 0
        for p in self.b.people:
            if p.status == "active" and p.enabled:
                if p.role:
                    wanted[p.sourced_id] = (p.role, _name(p), p.email.strip().lower())
                else:
                    others += 1
        if others:
            self.note(ngettext("%(count)s person is neither a student nor a teacher (a parent, an "
                               "administrator, ...): Numberdeck leaves them out.",
                               "%(count)s people are neither students nor teachers (parents, "
                               "administrators, ...): Numberdeck leaves them out.", others) % {"count": others})
        if not self.b.is_bulk(spec.USERS):
            listed = {p.sourced_id for p in self.b.people}
            wanted.update({sid: (p.role, p.name, "") for sid, p in self.s.people.items()
                           if sid not in listed and not p.archived})
        return wanted

    def wanted_enrollments(self, classes: dict, people: dict) -> dict[str, tuple[str, str, str, bool]]:
        """sourcedId -> (person, class, role, primary), both ends wanted and the roles agreeing."""
        found: dict[str, tuple[str, str, str, bool]] = {}
        for e in self.b.enrollments:
            if e.status == "active" and not (e.end_date and e.end_date < self.today):
                known = self.s.enrollments.get(e.sourced_id)
                if e.begin_date[:10] > self.today and (known is None or known.archived):
                    self.starting.append((e.user_id, e.class_id, e.begin_date[:10]))
                    continue
                found[e.sourced_id] = (e.user_id, e.class_id, e.role, e.primary)
        if not self.b.is_bulk(spec.ENROLLMENTS):
            listed = {e.sourced_id for e in self.b.enrollments}
            found.update({sid: (e.person, e.roster_class, e.role, False) for sid, e in self.s.enrollments.items()
                          if sid not in listed and not e.archived})
        return {sid: e for sid, e in found.items()
                if e[0] in people and e[1] in classes and e[2] == people[e[0]][0]}

    # ----- the plan -------------------------------------------------------------------

    def run(self) -> Plan:
        classes = self.wanted_classes()
        people = self.wanted_people()
        enrollments = self.wanted_enrollments(classes, people)
        teachers_of: dict[str, list[str]] = defaultdict(list)
        classes_of: dict[str, list[str]] = defaultdict(list)
        for person, room, role, primary in sorted(enrollments.values(), key=lambda e: not e[3]):
            (teachers_of[room] if role == "teacher" else classes_of[person]).append(
                person if role == "teacher" else room)
        placed = self.plan_classes(classes, teachers_of)
        self.name_students(people, placed, classes_of)
        self.plan_people(people, placed, teachers_of, classes_of)
        self.plan_students(people, placed, classes_of)
        self.plan_teachers(people, placed, enrollments)
        self.plan_enrollments(enrollments, placed, people)
        self.note_starting(people, classes)
        self.plan.ops = sorted(self.ops, key=lambda op: OP_ORDER.index(op[0]))
        self.plan.classes = sorted(self.changes.values(), key=lambda c: (c.title.casefold(), c.sourced_id))
        return self.plan

    def plan_classes(self, classes: dict[str, str], teachers_of: dict) -> set[str]:
        """The classes that will be active in Numberdeck."""
        placed = set()
        for sid, title in classes.items():
            linked = self.s.classes.get(sid)
            if linked is None:
                if not teachers_of[sid]:
                    self.class_changes(sid).status = "skipped"
                    continue
                self.ops.append(("class_add", sid, title, teachers_of[sid][0]))
                self.class_changes(sid).status = "new"
            else:
                if linked.archived:
                    self.ops.append(("class_restore", sid))
                    self.class_changes(sid).status = "restored"
                if title != linked.name:
                    self.ops.append(("class_rename", sid, title))
                    changes = self.class_changes(sid)
                    changes.old_title = linked.name
                    changes.status = "renamed" if changes.status == "kept" else changes.status
            placed.add(sid)
        for sid, linked in self.s.classes.items():
            if sid not in classes and not linked.archived:
                self.ops.append(("class_archive", sid))
                self.class_changes(sid).status = "archived"
                self.archiving.add(sid)
        skipped = [c.title for c in self.changes.values() if c.status == "skipped"]
        if skipped:
            self.note(_("Not added yet, because the roster gives them no teacher: %(classes)s.")
                      % {"classes": ", ".join(sorted(skipped))})
        return placed

    def plan_people(self, people: dict, placed: set, teachers_of: dict, classes_of: dict) -> None:
        left_out = 0
        teaching = {p for room in placed for p in teachers_of[room]}
        for sid, (role, name, email) in people.items():
            linked = self.s.people.get(sid)
            if linked is None:
                if role == "teacher" and sid in teaching:
                    existing = self.s.teachers_by_email.get(email) if email else None
                    self.ops.append(("person_link", sid, existing) if existing else
                                    ("person_add", sid, "teacher", name, email))
                elif role == "student" and any(room in placed for room in classes_of[sid]):
                    self.ops.append(("person_add", sid, "student", self.student_names.get(sid, name), ""))
                else:
                    left_out += 1
                continue
            if linked.role != role:
                self.note((_("%(name)s is now a student in the roster; Numberdeck keeps their account as it is.")
                           if role == "student" else
                           _("%(name)s is now a teacher in the roster; Numberdeck keeps their account as it is."))
                          % {"name": linked.name})
                continue
            if linked.archived and (role == "teacher" or any(room in placed for room in classes_of[sid])):
                self.ops.append(("person_restore", sid))
            name = self.student_names.get(sid, name) if role == "student" else name
            if linked.created_account and name != linked.name:
                self.ops.append(("person_rename", sid, name))
                if role == "teacher":
                    self.plan.teachers_renamed.append((linked.name, name))
                else:
                    self.renamed_students[sid] = (linked.name, name)
        if left_out:
            self.note(ngettext("%(count)s student or teacher is in no class Numberdeck adds: left out.",
                               "%(count)s students or teachers are in no class Numberdeck adds: left out.",
                               left_out) % {"count": left_out})

    def rooms_of(self, sid: str, people: dict, placed: set, classes_of: dict) -> tuple[list, set, list]:
        """A student's classes: those the roster wants them in, the linked ones they are in now,
        and those of the latter they leave (placed there by the roster, which no longer does)."""
        wanted, linked = people.get(sid), self.s.people.get(sid)
        rooms = list(dict.fromkeys(r for r in classes_of[sid] if r in placed)) if wanted else []
        current = {self.room_to_class[c] for c in linked.classroom_ids if c in self.room_to_class} \
            if linked is not None and linked.is_active else set()
        leaves = sorted(room for room in self.brought[sid] & current
                        if room not in rooms and room not in self.archiving and not self.s.classes[room].archived)
        return rooms, current, leaves

    def students(self, people: dict) -> list[str]:
        """Roster ids of the students the roster lists or earlier imports brought."""
        return [sid for sid in sorted(set(people) | set(self.s.people))
                if not ((sid in people and people[sid][0] != "student")
                        or (sid in self.s.people and self.s.people[sid].role != "student"))]

    def name_students(self, people: dict, placed: set, classes_of: dict) -> None:
        user_sid = {p.user_id: sid for sid, p in self.s.people.items()}
        lists = {room: {user_sid.get(user, f"user:{user}"): name
                        for user, name in self.s.class_lists.get(linked.classroom_id, {}).items()}
                 for room, linked in self.s.classes.items()}
        rooms, wanted = {}, {}
        for sid in self.students(people):
            joins, current, leaves = self.rooms_of(sid, people, placed, classes_of)
            rooms[sid] = set(joins) | (current - set(leaves))
            for room, on_list in lists.items():
                if room not in rooms[sid]:
                    on_list.pop(sid, None)
            if sid in people:
                wanted[sid] = people[sid][1]
        self.student_names = tell_apart(wanted=wanted, rooms=rooms, lists=lists, max_length=MAX_NAME)
        for sid, name in sorted(self.student_names.items()):
            linked = self.s.people.get(sid)
            if name != wanted[sid] and (linked is None or linked.name != name):
                self.note(_("%(name)s is called “%(new)s” in Numberdeck: a student of one of their classes is "
                            "already called %(name)s.") % {"name": wanted[sid], "new": name})

    def plan_students(self, people: dict, placed: set, classes_of: dict) -> None:
        for sid in self.students(people):
            wanted, linked = people.get(sid), self.s.people.get(sid)
            rooms, current, leaves = self.rooms_of(sid, people, placed, classes_of)
            name = self.student_names.get(sid) or linked.name
            if linked is None:
                self.place(sid, name, joins=rooms, leaves=[], moving=False)
                continue
            if wanted and sid in self.renamed_students:
                for room in rooms:
                    self.class_changes(room).students_renamed.append(self.renamed_students[sid])
            self.place(sid, name, joins=[room for room in rooms if room not in current], leaves=leaves,
                       moving=linked.is_active and not linked.archived)
            if leaves and not rooms:
                self.unplaced.add(sid)

    def place(self, sid: str, name: str, *, joins: list[str], leaves: list[str], moving: bool) -> None:
        """The steps and words for a student joining and leaving classes: a class left and one
        joined in the same bundle make a move (from the first left to the first joined, ...)."""
        moves = list(zip(leaves, joins)) if moving else []
        for room in joins:
            self.ops.append(("student_join", sid, room))
        for room in leaves:
            self.ops.append(("student_leave", sid, room))
        for left, joined in moves:
            self.class_changes(joined).students_moved_in.append((name, self.class_changes(left).title))
            self.class_changes(left).students_moved_out.append((name, self.class_changes(joined).title))
        for room in joins[len(moves):]:
            self.class_changes(room).students_added.append(name)
        for room in leaves[len(moves):]:
            self.class_changes(room).students_removed.append(name)

    def note_starting(self, people: dict, classes: dict) -> None:
        for person, room, begins in sorted(self.starting, key=lambda s: (s[2], s[1], s[0])):
            if person in people and room in classes:
                self.note(_("%(name)s starts in %(class)s on %(date)s: Numberdeck places them with the first "
                            "roster imported from that day.") % {
                    "name": people[person][1], "class": self.class_changes(room).title, "date": begins})

    def plan_teachers(self, people: dict, placed: set, enrollments: dict) -> None:
        wanted = {(p, room) for p, room, role, _primary in enrollments.values() if role == "teacher"}
        owners = {op[1]: op[3] for op in self.ops if op[0] == "class_add"}
        for person, room in sorted(wanted):
            if room not in placed or owners.get(room) == person:
                continue
            linked, linked_class = self.s.people.get(person), self.s.classes.get(room)
            if linked and linked_class and linked.user_id in linked_class.teacher_ids:
                continue
            self.ops.append(("teacher_add", person, room))
            self.class_changes(room).teachers_added.append(people[person][1])
        if owners:
            for room, person in owners.items():
                self.class_changes(room).teachers_added.insert(0, people[person][1])
        before = {(e.person, e.roster_class) for e in self.s.enrollments.values()
                  if e.role == "teacher" and not e.archived}
        for person, room in sorted(before - wanted):
            linked, linked_class = self.s.people.get(person), self.s.classes.get(room)
            if not (linked and linked_class) or room in self.archiving or \
                    linked.user_id not in linked_class.teacher_ids:
                continue
            if linked.user_id == linked_class.owner_id:
                self.note(_("%(name)s created %(class)s in Numberdeck and stays its teacher.")
                          % {"name": linked.name, "class": linked_class.name})
                continue
            self.ops.append(("teacher_remove", person, room))
            self.class_changes(room).teachers_removed.append(linked.name)

    def plan_enrollments(self, enrollments: dict, placed: set, people: dict) -> None:
        will_exist = set(self.s.people) | {op[1] for op in self.ops if op[0] in ("person_add", "person_link")}
        kept = set()
        for sid, (person, room, role, _primary) in sorted(enrollments.items()):
            if room not in placed or person not in will_exist:
                continue
            kept.add(sid)
            linked = self.s.enrollments.get(sid)
            if linked is None or linked.archived or (linked.person, linked.roster_class, linked.role) != \
                    (person, room, role):
                self.ops.append(("enrollment_save", sid, person, room, role))
        for sid, linked in sorted(self.s.enrollments.items()):
            if sid not in kept and not linked.archived:
                self.ops.append(("enrollment_archive", sid))
        for sid, linked in sorted(self.s.people.items()):
            if not linked.archived and (sid not in people or sid in self.unplaced):
                self.ops.append(("person_archive", sid))


def make_plan(*, bundle: Bundle, state: State, today: date | None = None) -> Plan:
    return _Planner(bundle, state, today or date.today()).run()
