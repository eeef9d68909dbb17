"""Who may see what, in one place.

Roles: anonymous, teacher, student. Page-level rules are the decorators below; object-level
rules (which classes a teacher may manage, which work a student may see) are the selectors
in `classroom/selectors.py`, which every view uses to fetch objects, so an object outside a
user's reach is simply not found (404) rather than checked view by view.

| page kind      | anonymous          | teacher | student |
| -------------- | ------------------ | ------- | ------- |
| teacher pages  | redirect: sign in  | yes     | 403     |
| student pages  | redirect: /join    | 403     | yes     |

Within a class its teachers are equal, except for what cannot be undone by a colleague:

| class action                                | owner | co-teacher | other teacher |
| ------------------------------------------- | ----- | ---------- | ------------- |
| students, assignments, cards, invitations   | yes   | yes        | 404           |
| archive, restore, delete with its children  | yes   | 403        | 404           |
| accept an invitation                        | only the teacher whose e-mail it was sent to |

(tests/classroom/test_permission_matrix.py checks every classroom URL against this.)

A student's data (privacy/, docs/privacy.md, "Who can see it"), for a student of the class (on its list or removed):

| action                     | owner | co-teacher | other teacher | student | anonymous |
| -------------------------- | ----- | ---------- | ------------- | ------- | --------- |
| export (student or class)  | yes   | yes        | 404           | 403     | sign in   |
| erase a student            | yes   | 403        | 404           | 403     | sign in   |

A child may be in several classes (accounts.Membership). A teacher sees what the child did in
the teacher's own classes only: the class pages, reports and games of a class show that class's
games and evidence, never another class's, even of a child in both. A child's export and
erasure cover everything held about the child, from all their classes, so they need a teacher
of every class the child is or was in (`may_export_student_data`), and for erasure its owner
(`may_erase_student_data`); anyone else is told so (403) and nothing is sent or changed. In a
class's zip such a child's own folder is left out for the same reason.

Administrators (`is_staff` or superuser accounts, made with `createsuperuser` or in /admin/)
are a level above: they run the school's Numberdeck. The access log (privacy/) is the one
place this matters today:

| access log               | anonymous         | teacher                | student | administrator |
| ------------------------ | ----------------- | ---------------------- | ------- | ------------- |
| of one class             | redirect: sign in | their classes (or 404) | 403     | any class     |
| all of it                | redirect: sign in | 403                    | 403     | yes           |
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.urls import reverse


def is_teacher(user) -> bool:
    return bool(user.is_authenticated and user.role == "teacher" and user.is_active)


def is_student(user) -> bool:
    return bool(user.is_authenticated and user.role == "student" and user.is_active)


def is_class_owner(user, classroom) -> bool:
    """Archiving, restoring and deleting a class (and with it its children's accounts) are
    its owner's alone: a co-teacher, added by a link, must not be able to end a class."""
    return is_teacher(user) and classroom.owner_id == user.pk


def may_accept_invite(user, invite) -> bool:
    """An invitation to co-teach is bound to the address it was sent to, not to whoever holds
    the link: a forwarded or leaked link makes nobody else a co-teacher."""
    return is_teacher(user) and (user.email or "").strip().lower() == invite.email.strip().lower()


def is_administrator(user) -> bool:
    return bool(user.is_authenticated and user.is_active and user.role != "student"
                and (user.is_staff or user.is_superuser))


def may_see_class_access_log(user) -> bool:
    """Which class's log is then a selector's answer (the teacher's own classes)."""
    return is_teacher(user) or is_administrator(user)


class NotForThisAccount(PermissionDenied):
    """A signed-in person opened a page made for another kind of account. `page_for` says
    whose it is ("teachers", "students", "administrators"): the 403 page tells them so."""

    def __init__(self, page_for: str):
        super().__init__(f"This page is for {page_for}.")
        self.page_for = page_for


def _role_required(check, login_url_name: str, page_for: str):
    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path(), reverse(login_url_name))
            if not check(request.user):
                raise NotForThisAccount(page_for)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


teacher_required = _role_required(is_teacher, "accounts:teacher_login", "teachers")
student_required = _role_required(is_student, "classroom:join", "students")
class_access_log_required = _role_required(may_see_class_access_log, "accounts:teacher_login", "teachers")
administrator_required = _role_required(is_administrator, "accounts:teacher_login", "administrators")


def _class_ids_of(student) -> set[int]:
    """Every class the child is or was in (left classes too: their evidence is still held)."""
    return set(student.memberships.values_list("classroom_id", flat=True))


def may_export_student_data(user, student) -> bool:
    """A child's export holds everything about them, from every class: a teacher of every
    class the child is or was in may download it (a teacher of only some of them would see
    another class's evidence)."""
    if not is_teacher(user):
        return False
    ids = _class_ids_of(student)
    return bool(ids) and ids <= set(user.taught_classes.filter(pk__in=ids).values_list("pk", flat=True))


def may_erase_student_data(user, student) -> bool:
    """Erasing a student's data cannot be undone: only the owner of every class the child is
    or was in may, not a co-teacher (who may still export it: the class's students are found
    through their classes)."""
    if not is_teacher(user):
        return False
    ids = _class_ids_of(student)
    return bool(ids) and ids <= set(user.owned_classes.filter(pk__in=ids).values_list("pk", flat=True))
