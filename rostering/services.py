"""Writes: a checked bundle's plan carried out, in one transaction, and the upload waiting for
the administrator's confirmation.

Every change to who is in which class goes through the few `roster_*` functions below, which
call the classroom and accounts services a teacher's own actions go through (new students get
their picture password as on the class list; a student taken out of a class leaves it the same
way, and the service decides what happens when it was their last). A child may be in several
classes (accounts.Membership): the roster joins and leaves one class at a time and never
touches a class it did not place the child in.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import services as accounts
from accounts.membership import membership_changed
from accounts.models import User
from classroom.models import Classroom
from classroom.services import classes as classes_services
from classroom.services import co_teaching, roster

from .bundle import checked_bundle, read_bundle
from .models import RosterClass, RosterEnrollment, RosterImport, RosterPerson, RosterSource
from .plan import Plan, make_plan
from .records import Bundle
from .selectors import known_ids, roster_state, source_by_name

PENDING_KEPT = timedelta(days=1)  # an upload not applied within a day is forgotten
DEFAULT_SOURCE = "OneRoster"  # the source of a bundle whose manifest names no system


class ApplyError(ValueError):
    """The plan cannot be carried out; nothing was changed."""


# ----- class membership ---------------------------------------------------------------------

def roster_add_student_to_class(*, student: User, classroom: Classroom) -> None:
    """Put `student` on `classroom`'s list, keeping their other classes (back on it if they had
    left it; their sign-in back if they had been removed from every class). The plan has told
    apart two children with one name (rostering/naming.py)."""
    if not student.is_active:
        accounts.student_reactivate(student=student, classroom=classroom)
        membership_changed(classroom.pk)
    else:
        roster.membership_join(student=student, classroom=classroom)


def roster_archive_membership(*, student: User, classroom: Classroom) -> None:
    """Take `student` off `classroom`'s list (their games stay with the class's records; their
    sign-in ends only if it was their last class)."""
    if student.is_active and student.memberships.filter(classroom=classroom, archived_at__isnull=True).exists():
        roster.student_remove(student=student, classroom=classroom)


def roster_add_teacher_to_class(*, teacher: User, classroom: Classroom) -> None:
    classroom.teachers.add(teacher)


def roster_remove_teacher_from_class(*, teacher: User, classroom: Classroom) -> None:
    co_teaching.co_teacher_remove(classroom=classroom, teacher=teacher)


# ----- the plan, carried out ---------------------------------------------------------------

def _teacher_username(source: RosterSource, sourced_id: str, email: str) -> str:
    """A teacher signs in with their e-mail (it is their username); without one, a handle no
    one types, unique per source and id."""
    if email and not User.objects.filter(username=email).exists():
        return email
    return "roster-" + hashlib.sha256(f"{source.pk}:{sourced_id}".encode()).hexdigest()[:24]


class _Applier:
    def __init__(self, source: RosterSource):
        self.source = source
        self.now = timezone.now()
        self.people = {p.sourced_id: p for p in RosterPerson.objects.filter(source=source).select_related("user")}
        self.classes = {c.sourced_id: c for c in
                        RosterClass.objects.filter(source=source).select_related("classroom")}
        self.new_students: dict[str, str] = {}  # sourcedId -> name, made when placed in a class

    def user(self, sid: str) -> User:
        return self.people[sid].user

    def room(self, sid: str) -> Classroom:
        return self.classes[sid].classroom

    def person_add(self, sid, role, name, email):
        if role == "teacher":
            user = accounts.teacher_create_without_password(
                name=name, email=email, username=_teacher_username(self.source, sid, email))
        else:
            self.new_students[sid] = name
            return
        self.people[sid] = RosterPerson.objects.create(source=self.source, sourced_id=sid, user=user, role=role)

    def person_link(self, sid, user_id):
        self.people[sid] = RosterPerson.objects.create(source=self.source, sourced_id=sid, role="teacher",
                                                       user=User.objects.get(pk=user_id), created_account=False)

    def person_restore(self, sid):
        RosterPerson.objects.filter(pk=self.people[sid].pk).update(archived_at=None)

    def person_rename(self, sid, name):
        accounts.student_rename(student=self.user(sid), display_name=name) if self.people[sid].role == "student" \
            else User.objects.filter(pk=self.user(sid).pk).update(display_name=name)

    def person_archive(self, sid):
        RosterPerson.objects.filter(pk=self.people[sid].pk).update(archived_at=self.now)

    def class_add(self, sid, title, owner_sid):
        room = classes_services.classroom_create(teacher=self.user(owner_sid), name=title)
        self.classes[sid] = RosterClass.objects.create(source=self.source, sourced_id=sid, classroom=room)

    def class_restore(self, sid):
        classes_services.classroom_restore(classroom=self.room(sid))
        RosterClass.objects.filter(pk=self.classes[sid].pk).update(archived_at=None)

    def class_rename(self, sid, title):
        room = self.room(sid)
        classes_services.classroom_update(classroom=room, name=title, grade=room.grade, free_play=room.free_play)

    def class_archive(self, sid):
        classes_services.classroom_archive(classroom=self.room(sid))
        RosterClass.objects.filter(pk=self.classes[sid].pk).update(archived_at=self.now)

    def student_join(self, sid, class_sid):
        if sid in self.new_students:
            # The class list's own way in: a fresh picture password (accounts.services).
            user = accounts.student_create(classroom=self.room(class_sid), display_name=self.new_students.pop(sid))
            self.people[sid] = RosterPerson.objects.create(source=self.source, sourced_id=sid, user=user,
                                                           role="student")
            return
        roster_add_student_to_class(student=self.user(sid), classroom=self.room(class_sid))

    def student_leave(self, sid, class_sid):
        roster_archive_membership(student=self.user(sid), classroom=self.room(class_sid))

    def teacher_add(self, sid, class_sid):
        roster_add_teacher_to_class(teacher=self.user(sid), classroom=self.room(class_sid))

    def teacher_remove(self, sid, class_sid):
        roster_remove_teacher_from_class(teacher=self.user(sid), classroom=self.room(class_sid))

    def enrollment_save(self, sid, person_sid, class_sid, role):
        RosterEnrollment.objects.update_or_create(source=self.source, sourced_id=sid, defaults={
            "person": self.people[person_sid], "roster_class": self.classes[class_sid], "role": role,
            "archived_at": None})

    def enrollment_archive(self, sid):
        RosterEnrollment.objects.filter(source=self.source, sourced_id=sid).update(archived_at=self.now)


def _source(name: str) -> RosterSource:
    source, _created = RosterSource.objects.get_or_create(name=name)
    # One import of a source at a time: a second waits here, then plans against the first's result.
    return RosterSource.objects.select_for_update().get(pk=source.pk)


def _emails(bundle: Bundle) -> set[str]:
    return {p.email.strip().lower() for p in bundle.people if p.email}


def roster_preview(*, bundle: Bundle, source_name: str) -> Plan:
    """What applying the bundle would change now (nothing is written)."""
    source = source_by_name(name=source_name)
    return make_plan(bundle=bundle, state=roster_state(source=source, emails=_emails(bundle)))


def roster_apply(*, bundle: Bundle, source_name: str, by: User | None = None, file_name: str = "",
                 expected_digest: str = "", upload: RosterImport | None = None) -> tuple[Plan, RosterImport]:
    """Carry the bundle's plan out, all or nothing, and record the import (in `upload`, the
    kept upload being applied, if given). `expected_digest`: the previewed plan's; a different
    plan now (someone changed the classes meanwhile) raises ApplyError."""
    try:
        with transaction.atomic():
            return _apply(bundle=bundle, source_name=source_name, by=by, file_name=file_name,
                          expected_digest=expected_digest, upload=upload)
    except IntegrityError as exc:
        # Two accounts the database refuses side by side: today, two teachers without an
        # e-mail address (accounts.User's unique_teacher_email).
        raise ApplyError(_("Numberdeck could not save these changes: two accounts clash (for now each teacher "
                           "needs an e-mail address of their own). Nothing was changed.")) from exc


def _apply(*, bundle, source_name, by, file_name, expected_digest, upload) -> tuple[Plan, RosterImport]:
    source = _source(source_name)
    plan = make_plan(bundle=bundle, state=roster_state(source=source, emails=_emails(bundle)))
    if expected_digest and plan.digest != expected_digest:
        raise ApplyError(_("The classes changed since this preview. Look at the new preview before applying."))
    applier = _Applier(source)
    for op in plan.ops:
        getattr(applier, op[0])(*op[1:])
    record = upload or RosterImport(source=source, file_name=file_name[:200], version=bundle.version)
    # Once applied, an import keeps only its counts: the names it brought are in the accounts.
    record.bundle, record.applied_at, record.uploaded_by, record.counts = {}, timezone.now(), by, plan.counts()
    record.save()
    return plan, record


def roster_check(*, data: bytes, source_name: str = "") -> tuple[Bundle, str]:
    """The checked bundle (BundleError listing every problem) and its source's name: the one
    given, else the manifest's `source.systemName`."""
    source_name = source_name.strip() or read_bundle(data)[0].source_name.strip()[:100] or DEFAULT_SOURCE
    return checked_bundle(data, **known_ids(source=source_by_name(name=source_name))), source_name


def roster_upload(*, data: bytes, by: User | None, source_name: str = "", file_name: str = "") -> RosterImport:
    """Check an uploaded bundle and keep what Numberdeck would take from it until it is
    applied (BundleError on any problem: then nothing is kept)."""
    bundle, source_name = roster_check(data=data, source_name=source_name)
    plan = roster_preview(bundle=bundle, source_name=source_name)
    roster_forget_stale_uploads()
    return RosterImport.objects.create(source=RosterSource.objects.get_or_create(name=source_name)[0],
                                       file_name=file_name[:200], version=bundle.version, uploaded_by=by,
                                       bundle=bundle.as_json(), counts=plan.counts())


def roster_forget_stale_uploads() -> int:
    """Delete uploads not applied within PENDING_KEPT (with the names they held); how many."""
    return RosterImport.objects.filter(applied_at__isnull=True,
                                       created_at__lt=timezone.now() - PENDING_KEPT).delete()[0]


@transaction.atomic
def roster_upload_apply(*, upload: RosterImport, by: User, expected_digest: str) -> Plan:
    """Apply a kept upload as the plan with `expected_digest` (the one the administrator read);
    the upload then keeps only its counts."""
    upload = RosterImport.objects.select_for_update().get(pk=upload.pk)
    if upload.applied_at is not None:
        raise ApplyError(_("This roster has already been applied."))
    return roster_apply(bundle=Bundle.from_json(upload.bundle), source_name=upload.source.name, by=by,
                        expected_digest=expected_digest, upload=upload)[0]
