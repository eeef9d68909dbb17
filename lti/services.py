"""What a launch does in Numberdeck, once the library has found the message valid
(lti/launch.py): who the person is, and which class they land on. Everything is checked first
and written in one transaction, so a refused launch leaves nothing behind."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.utils.crypto import get_random_string
from django.utils.translation import gettext as _
from lti_tool.models import LtiContext, LtiLaunch, LtiUser
from lti_tool.utils import (sync_context_from_launch, sync_deployment_from_launch, sync_membership_from_launch,
                            sync_platform_instance_from_launch, sync_resource_link_from_launch)

from accounts.membership import membership_changed
from accounts.models import User
from accounts.services import student_create, student_reactivate
from accounts.typed_text import has_hidden_characters
from classroom import names
from classroom.models import Classroom
from classroom.selectors import students_of_class
from classroom.services.classes import classroom_create
from classroom.services.roster import membership_join

from .models import CourseClass, PlacedAssignment
from .roles import numberdeck_role

# Custom parameters a resource link may carry: the Numberdeck class it opens (its number), and
# the assignment placed by deep linking that it opens (lti/deep_linking.py).
NAMED_CLASS_PARAMETER = "numberdeck_class"
NAMED_ASSIGNMENT_PARAMETER = "numberdeck_assignment"
CUSTOM_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/custom"


class LaunchRefused(Exception):
    """A valid message that Numberdeck will not act on; `message` is for the person."""

    def __init__(self, message: str, status: int = 403):
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class Landing:
    user: User
    classroom: Classroom
    placement: PlacedAssignment | None = None  # the placed assignment the link opens
    course_class: CourseClass | None = None


def lti_enrol_student(*, user: User, classroom: Classroom) -> bool:
    """Put a student in a class: the one place a launch or a roster sync (lti/roster_sync.py)
    does it. A child launched from several courses is in each of their classes
    (accounts.Membership); this never takes them out of another. A child whose account was
    closed when they left their last class (a launch refuses them) is taken back by a sync that
    finds them in the course again. True when they were not in the class before."""
    if not user.is_active:
        student_reactivate(student=user, classroom=classroom)
        membership_changed(classroom.pk)
        return True
    if not user.memberships.filter(classroom=classroom, archived_at__isnull=True).exists():
        membership_join(student=user, classroom=classroom)
        return True
    return False


def lti_add_teacher(*, user: User, classroom: Classroom) -> bool:
    """Make a teacher one of a class's teachers (a co-teacher, when someone else owns it).
    True when they were not one before."""
    if classroom.teachers.filter(pk=user.pk).exists():
        return False
    classroom.teachers.add(user)
    membership_changed(classroom.pk)
    return True


# A launch's claims and a names-and-roles member carry the same name fields (`name`,
# `given_name`, `family_name`): the names below read either, through its `get`.
Claims = Callable[[str], object]


def _claim_text(claims: Claims, claim: str) -> str:
    """A name claim, tidied; "" when absent or holding hidden characters (as a typed name may not)."""
    value = claims(claim)
    if not isinstance(value, str) or has_hidden_characters(value):
        return ""
    return names.tidy(value)


def _teacher_name(claims: Claims) -> str:
    name = _claim_text(claims, "name") or " ".join(
        part for part in (_claim_text(claims, "given_name"), _claim_text(claims, "family_name")) if part)
    return (name or _("Teacher"))[:60]


def _student_name(claims: Claims, classroom: Classroom) -> str:
    """A first name and an initial, as teachers are asked to type (docs/privacy.md), told apart
    from the class's other students when needed."""
    given = _claim_text(claims, "given_name") or _claim_text(claims, "name").split(" ")[0]
    family = _claim_text(claims, "family_name")
    name = (f"{given} {family[:1]}." if given and family else given) or _("Student")
    taken = {names.key(n) for n in students_of_class(classroom=classroom).values_list("display_name", flat=True)}
    if names.key(name) in taken:
        name = next(iter(names.suggestions(name, taken)), name)
    return name[:60]


def lti_teacher_create(*, claims: Claims) -> User:
    """A teacher's account made from the platform: their full name only, no e-mail or password."""
    user = User(username=f"lti-{get_random_string(16).lower()}", role=User.Role.TEACHER,
                display_name=_teacher_name(claims))
    user.set_unusable_password()
    user.save()
    return user


def lti_student_create(*, claims: Claims, classroom: Classroom) -> User:
    """A student's account made from the platform: a first name and an initial only. A picture
    password too, so the class's sign-in cards work for them as for anyone."""
    return student_create(classroom=None, display_name=_student_name(claims, classroom),
                          username=f"lti-{get_random_string(16).lower()}")


def _named_id(launch: LtiLaunch, parameter: str) -> int | None:
    custom = launch.get_claim(CUSTOM_CLAIM)
    value = custom.get(parameter) if isinstance(custom, dict) else None
    if value in (None, ""):
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        return -1  # names no class: refused like another course's


def _person(launch: LtiLaunch) -> User | None:
    """The Numberdeck account of this platform's person (issuer and `sub`), if any."""
    found = LtiUser.objects.filter(registration__issuer=launch.get_claim("iss"), sub=launch.get_claim("sub"),
                                   auth_user__isnull=False).select_related("auth_user").first()
    return found.auth_user if found else None


def _course_class(launch: LtiLaunch, context_id: str) -> CourseClass | None:
    return CourseClass.objects.select_related("classroom").filter(
        context__deployment=launch.deployment, context__id_on_platform=context_id).first()


def _check(launch: LtiLaunch) -> tuple[str, str]:
    """The role and course id of an acceptable launch; LaunchRefused otherwise. Reads only."""
    if not (launch.is_resource_launch or launch.is_deep_link_launch):
        raise LaunchRefused(_("Numberdeck can only be opened from a link in a course. Other kinds of "
                              "message from the learning platform are not supported yet."), 400)
    role = numberdeck_role(launch.roles_claim)
    if launch.is_deep_link_launch and role == "student":
        raise LaunchRefused(_("Only a course's teachers can add Numberdeck work to it."))
    if role is None:
        raise LaunchRefused(_("Numberdeck is for the teachers and students of a course, and the learning "
                              "platform did not say that you are either. Ask the school's administrator "
                              "to check your role in this course."))
    context = launch.context_claim
    context_id = context.get("id") if isinstance(context, dict) else None
    if not isinstance(context_id, str) or not context_id:
        raise LaunchRefused(_("Open Numberdeck from inside a course: this link is not part of one."), 400)
    person = _person(launch)
    if person is not None and person.role != role:
        raise LaunchRefused(_("You have a student account in Numberdeck, so you cannot open it as a teacher.")
                            if person.is_student else
                            _("You have a teacher account in Numberdeck, so you cannot open it as a student."))
    if person is not None and not person.is_active:
        raise LaunchRefused(_("Your Numberdeck account has been taken off its class list. Ask your teacher."))
    course_class = _course_class(launch, context_id)
    if role == "student" and course_class is None:
        raise LaunchRefused(_("Your teacher has not opened Numberdeck from this course yet. Try again "
                              "after they have."))
    named = _named_id(launch, NAMED_CLASS_PARAMETER)
    if named is not None and (course_class is None or named != course_class.classroom_id):
        raise LaunchRefused(_("This link opens a Numberdeck class that belongs to another course. Ask your "
                              "teacher to add Numberdeck to this course again."))
    named = _named_id(launch, NAMED_ASSIGNMENT_PARAMETER)
    if named is not None and (course_class is None or not PlacedAssignment.objects.filter(
            assignment_id=named, context=course_class.context, assignment__classroom=course_class.classroom).exists()):
        raise LaunchRefused(_("This link opens Numberdeck work that belongs to another course. Ask your "
                              "teacher to add it to this course again."))
    return role, context_id


def _placement(launch: LtiLaunch, context: LtiContext) -> PlacedAssignment | None:
    """The placed assignment a link opens; the grade column the platform made for the link
    (its line item, in the grades claim) is kept for posting scores."""
    named = _named_id(launch, NAMED_ASSIGNMENT_PARAMETER)
    placement = PlacedAssignment.objects.filter(assignment_id=named, context=context).first() if named else None
    ags = launch.ags_claim
    lineitem = ags.get("lineitem") if isinstance(ags, dict) else None
    if placement is not None and isinstance(lineitem, str) and lineitem and placement.lineitem_url != lineitem:
        placement.lineitem_url = lineitem[:500]
        placement.save(update_fields=["lineitem_url"])
    return placement


def _record(launch: LtiLaunch) -> tuple[LtiUser, LtiContext]:
    """django-lti's records of a launch, as its `sync_data_from_launch` makes them, except the
    person's: only the platform's number for them (`sub`), never their name, e-mail or picture
    (a child's name is kept on their account the way teachers are asked to type it)."""
    sync_deployment_from_launch(launch)
    lti_user, _created = LtiUser.objects.get_or_create(registration=launch.registration, sub=launch.get_claim("sub"))
    context = sync_context_from_launch(launch)
    sync_membership_from_launch(launch, lti_user, context)
    if launch.is_resource_launch:  # a deep-linking request has no resource link
        sync_resource_link_from_launch(launch, context)
    sync_platform_instance_from_launch(launch)
    return lti_user, context


@transaction.atomic
def lti_launch_accept(*, launch: LtiLaunch) -> Landing:
    """The account and class a valid launch lands on, made on a first launch: a teacher's
    first launch from a course makes the course's class; a student is put in it."""
    role, context_id = _check(launch)
    lti_user, context = _record(launch)
    lti_user = LtiUser.objects.select_for_update().get(pk=lti_user.pk)
    context = LtiContext.objects.select_for_update().get(pk=context.pk)
    course_class = CourseClass.objects.select_related("classroom").filter(context=context).first()
    user = lti_user.auth_user or _person(launch)
    if role == "teacher":
        if user is None:
            user = lti_teacher_create(claims=launch.get_claim)
        if course_class is None:
            title = next((names.tidy(text) for text in (context.title, context.label)
                          if names.tidy(text) and not has_hidden_characters(text)), "") or _("Class")
            classroom = classroom_create(teacher=user, name=title[:80])
            course_class = CourseClass.objects.create(context=context, classroom=classroom)
        else:
            classroom = course_class.classroom
            lti_add_teacher(user=user, classroom=classroom)
    else:
        classroom = course_class.classroom
        if user is None:
            user = lti_student_create(claims=launch.get_claim, classroom=classroom)
        lti_enrol_student(user=user, classroom=classroom)
    if lti_user.auth_user_id != user.pk:
        lti_user.auth_user = user
        lti_user.save(update_fields=["auth_user", "datetime_modified"])
    return Landing(user=user, classroom=classroom, placement=_placement(launch, context), course_class=course_class)
