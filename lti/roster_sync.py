"""The class list kept in step with the course (LTI Names and Role Provisioning Services;
docs/lti.md, "The class list from the course"), through PyLTI1p3's `ServiceConnector` (the OAuth2
token, by a JWT signed with Numberdeck's key) and `NamesRolesProvisioningService`.

Every page of the course's members is read first; only a complete list changes anything, in one
transaction. Then: each active member with the Learner role is in the class (made a student as a
launch makes one, taken back if they had left), each active teacher is one of its teachers, and
each student who came through the course and is now inactive, deleted or no longer listed leaves
the class (their membership archived, their games and evidence kept). Running it again with the
same list changes nothing.

Pages: the library's `get_members` follows the `Link: <...>; rel="next"` header, but lower-cases
the header before reading the address from it (an address with capitals, such as a signed page
token, would break), so the pages are followed here, each read with the library's
`get_nrps_data`, and only within the origin of the course's memberships address (the access
token goes with each request).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from lti_tool.lti_core.constants import ContextRole
from lti_tool.lti_core.utils import normalize_role
from lti_tool.models import LtiContext, LtiMembership, LtiUser
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.names_roles import NamesRolesProvisioningService
from pylti1p3.service_connector import ServiceConnector
from requests import RequestException

from accounts.models import Membership, User
from classroom.services.roster import student_remove

from .launch import TimedSession
from .models import CourseClass, RosterSync
from .roles import numberdeck_role
from .services import lti_add_teacher, lti_enrol_student, lti_student_create, lti_teacher_create

log = logging.getLogger(__name__)

MAX_PAGES = 200  # 20,000 members at Schoology's 100 a page: a loop of pages ends here
GONE = ("Inactive", "Deleted")
_NEXT = re.compile(r'<([^>]*)>\s*;[^,]*?\brel\s*=\s*"?next"?', re.IGNORECASE)


class RosterUnavailable(Exception):
    """The course's list of members could not be had; `message` says why in plain words."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass
class Counts:
    added: int = 0
    archived: int = 0
    unchanged: int = 0
    skipped: int = 0


def _next_page(headers, *, current: str, first: str) -> str | None:
    link = next((value for name, value in headers.items() if name.lower() == "link"), "")
    found = _NEXT.search(link.replace("\n", " ")) if isinstance(link, str) else None
    if not found:
        return None
    address = urljoin(current, found.group(1).strip())
    if urlsplit(address)[:2] != urlsplit(first)[:2]:
        raise RosterUnavailable(_("The learning platform sent the next page of the class list from "
                                  "another address, so it was not read."))
    return address


def _members(context: LtiContext) -> list:
    """Every member of the course, page after page; RosterUnavailable (or the library's and
    requests' errors) when any page cannot be had."""
    first = context.memberships_url
    if not first:
        raise RosterUnavailable(_("The course does not share its list of members with Numberdeck."))
    connector = ServiceConnector(context.deployment.registration.to_registration(), requests_session=TimedSession())
    service = NamesRolesProvisioningService(connector, {"context_memberships_url": first})
    members: list = []
    address, seen = first, set()
    while address:
        if address in seen or len(seen) >= MAX_PAGES:
            raise RosterUnavailable(_("The learning platform's class list did not end, so it was not read."))
        seen.add(address)
        answer = service.get_nrps_data(members_url=address)
        body = answer.get("body")
        page = body.get("members") if isinstance(body, dict) else None
        if not isinstance(page, list):
            raise RosterUnavailable(_("The learning platform did not answer with a class list."))
        members.extend(page)
        address = _next_page(answer.get("headers") or {}, current=address, first=first)
    return members


def _record_membership(lti_user: LtiUser, context: LtiContext, roles: list, *, active: bool) -> None:
    """django-lti's record of who is in the course (its roles, whether active): never a name."""
    given = {normalize_role(role) for role in roles if isinstance(role, str)}
    LtiMembership.objects.update_or_create(user=lti_user, context=context, defaults={
        "is_administrator": ContextRole.ADMINISTRATOR in given, "is_instructor": ContextRole.INSTRUCTOR in given,
        "is_learner": ContextRole.LEARNER in given, "is_mentor": ContextRole.MENTOR in given,
        "is_content_developer": ContextRole.CONTENT_DEVELOPER in given, "is_active": active})


def _archive(student: User, classroom) -> bool:
    """The student leaves the class (roster service: the membership archived); False when
    they were not in it."""
    if not Membership.objects.filter(student=student, classroom=classroom, archived_at__isnull=True).exists():
        return False
    student_remove(student=student, classroom=classroom)
    return True


def _apply(course_class: CourseClass, members: list) -> Counts:
    context, classroom = course_class.context, course_class.classroom
    registration = context.deployment.registration
    counts, present = Counts(), set()
    for member in members:
        sub = member.get("user_id") if isinstance(member, dict) else None
        role = numberdeck_role(member.get("roles")) if isinstance(member, dict) else None
        status = member.get("status", "Active") if isinstance(member, dict) else None
        if not isinstance(sub, str) or not sub.strip() or role is None or status not in ("Active", *GONE):
            counts.skipped += 1
            continue
        lti_user = LtiUser.objects.filter(registration=registration, sub=sub).select_related("auth_user").first()
        account = lti_user.auth_user if lti_user else None
        present.add(sub)
        if account is not None and account.role != role:  # a launch refuses them too
            counts.skipped += 1
            continue
        if status in GONE:
            left = role == "student" and account is not None and _archive(account, classroom)
            counts.archived += left
            counts.unchanged += not left
            if lti_user is not None:
                _record_membership(lti_user, context, member["roles"], active=False)
            continue
        if role == "teacher":
            account = account or lti_teacher_create(claims=member.get)
            changed = lti_add_teacher(user=account, classroom=classroom)
        else:
            account = account or lti_student_create(claims=member.get, classroom=classroom)
            changed = lti_enrol_student(user=account, classroom=classroom)
        counts.added += changed
        counts.unchanged += not changed
        if lti_user is None:
            lti_user = LtiUser.objects.create(registration=registration, sub=sub, auth_user=account)
        elif lti_user.auth_user_id != account.pk:
            lti_user.auth_user = account
            lti_user.save(update_fields=["auth_user", "datetime_modified"])
        _record_membership(lti_user, context, member["roles"], active=True)
    # Students who came through the course and are no longer on its complete list.
    for lti_user in LtiUser.objects.filter(registration=registration, memberships__context=context,
                                           auth_user__role=User.Role.STUDENT).exclude(sub__in=present) \
            .select_related("auth_user"):
        counts.archived += _archive(lti_user.auth_user, classroom)
        LtiMembership.objects.filter(user=lti_user, context=context).update(is_active=False)
    return counts


def _failure(error: Exception) -> str:
    if isinstance(error, RosterUnavailable):
        return error.message
    if isinstance(error, LtiServiceException):
        return _("The learning platform refused to give the class list (HTTP %(status)s).") % {
            "status": getattr(error.response, "status_code", "?")}
    return _("The learning platform could not be reached or did not answer as expected.")


def lti_roster_sync(*, course_class_id: int) -> RosterSync | None:
    """Bring the class list in step with the course; the sync's record (None: no such class).
    A failure changes nothing and is recorded in plain words."""
    course_class = CourseClass.objects.select_related("context__deployment__registration", "classroom") \
        .filter(pk=course_class_id).first()
    if course_class is None:
        return None
    try:
        members = _members(course_class.context)
    except (RosterUnavailable, LtiException, LtiServiceException, RequestException, ValueError, KeyError,
            AttributeError) as error:  # KeyError: a token answer without a token
        log.info("LTI class list not read (course class %s): %r", course_class.pk, error)
        sync, _created = RosterSync.objects.update_or_create(course_class=course_class, defaults={
            "synced_at": timezone.now(), "succeeded": False, "error": _failure(error)})
        return sync
    with transaction.atomic():
        CourseClass.objects.select_for_update().get(pk=course_class.pk)  # one sync of a course at a time
        counts = _apply(course_class, members)
        sync, _created = RosterSync.objects.update_or_create(course_class=course_class, defaults={
            "synced_at": timezone.now(), "succeeded": True, "error": "", "added": counts.added,
            "archived": counts.archived, "unchanged": counts.unchanged, "skipped": counts.skipped})
    return sync
