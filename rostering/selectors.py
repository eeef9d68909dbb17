"""Reads: what earlier imports of a roster source brought, as the preview compares with it."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.db.models.functions import Lower

from accounts.models import Membership, User

from .models import RosterClass, RosterEnrollment, RosterImport, RosterPerson, RosterSource


@dataclass(frozen=True)
class LinkedPerson:
    sourced_id: str
    user_id: int
    role: str
    name: str
    is_active: bool
    classroom_ids: frozenset[int]  # the classes they are in now (memberships not left)
    created_account: bool
    archived: bool


@dataclass(frozen=True)
class LinkedClass:
    sourced_id: str
    classroom_id: int
    name: str
    is_archived: bool  # the Numberdeck class
    archived: bool  # by the roster
    owner_id: int
    teacher_ids: frozenset[int]


@dataclass(frozen=True)
class LinkedEnrollment:
    sourced_id: str
    person: str
    roster_class: str
    role: str
    archived: bool


@dataclass
class State:
    """Everything a source's earlier imports brought, by sourcedId."""

    people: dict[str, LinkedPerson] = field(default_factory=dict)
    classes: dict[str, LinkedClass] = field(default_factory=dict)
    enrollments: dict[str, LinkedEnrollment] = field(default_factory=dict)
    # Teachers already in Numberdeck, by lower-cased e-mail: a roster teacher with the same
    # address is linked to that account rather than given a second one.
    teachers_by_email: dict[str, int] = field(default_factory=dict)
    # Classroom id -> {student id: name} of each linked class's list (hand-added children too):
    # the names a child joining it must be told apart from.
    class_lists: dict[int, dict[int, str]] = field(default_factory=dict)


def source_by_name(*, name: str) -> RosterSource | None:
    return RosterSource.objects.filter(name=name).first()


def sources() -> QuerySet[RosterSource]:
    return RosterSource.objects.order_by("name")


def recent_imports(*, limit: int = 20) -> QuerySet[RosterImport]:
    return RosterImport.objects.filter(applied_at__isnull=False).select_related(
        "source", "uploaded_by").order_by("-applied_at")[:limit]


def pending_import(*, pk: int) -> RosterImport | None:
    return RosterImport.objects.filter(pk=pk, applied_at__isnull=True).select_related("source").first()


def roster_state(*, source: RosterSource | None, emails: set[str] = frozenset()) -> State:
    state = State()
    if emails:
        # Compared as the unique constraint compares them: without regard to case.
        lowered = sorted({e.lower() for e in emails if e})
        for user_id, email in User.objects.annotate(lower_email=Lower("email")).filter(
                role=User.Role.TEACHER, lower_email__in=lowered).values_list("pk", "lower_email"):
            state.teachers_by_email[email] = user_id
    if source is None:
        return state
    people = list(RosterPerson.objects.filter(source=source).select_related("user"))
    placed = membership_class_ids(student_ids=[p.user_id for p in people if p.role == "student"])
    for p in people:
        state.people[p.sourced_id] = LinkedPerson(
            p.sourced_id, p.user_id, p.role, p.user.display_name, p.user.is_active,
            frozenset(placed.get(p.user_id, ())), p.created_account, p.archived_at is not None)
    for c in RosterClass.objects.filter(source=source).select_related("classroom").prefetch_related(
            "classroom__teachers"):
        room = c.classroom
        state.classes[c.sourced_id] = LinkedClass(
            c.sourced_id, room.pk, room.name, room.archived_at is not None, c.archived_at is not None,
            room.owner_id, frozenset(t.pk for t in room.teachers.all()))
    for room_id, student_id, name in Membership.objects.filter(
            classroom_id__in=[c.classroom_id for c in state.classes.values()], archived_at__isnull=True,
            student__is_active=True).values_list("classroom_id", "student_id", "student__display_name"):
        state.class_lists.setdefault(room_id, {})[student_id] = name
    for e in RosterEnrollment.objects.filter(source=source).select_related("person", "roster_class"):
        state.enrollments[e.sourced_id] = LinkedEnrollment(
            e.sourced_id, e.person.sourced_id, e.roster_class.sourced_id, e.role, e.archived_at is not None)
    return state


def membership_class_ids(*, student_ids) -> dict[int, set[int]]:
    """Student id -> every class they are in now: their memberships not left, archived
    classes included (a child stays with a class that is archived, as on a class list)."""
    placed: dict[int, set[int]] = {}
    for student_id, classroom_id in Membership.objects.filter(
            student_id__in=list(student_ids), archived_at__isnull=True).values_list("student_id", "classroom_id"):
        placed.setdefault(student_id, set()).add(classroom_id)
    return placed


def known_ids(*, source: RosterSource | None) -> dict[str, set[str]]:
    """The ids a delta bundle may refer to without listing them again."""
    if source is None:
        return {"known_users": set(), "known_classes": set()}
    return {"known_users": set(RosterPerson.objects.filter(source=source, archived_at__isnull=True)
                               .values_list("sourced_id", flat=True)),
            "known_classes": set(RosterClass.objects.filter(source=source, archived_at__isnull=True)
                                 .values_list("sourced_id", flat=True))}
