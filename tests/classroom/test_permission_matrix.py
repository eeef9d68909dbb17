"""Who may do what: every classroom URL × every role, GET and POST, with the status expected.

Roles: the class's owner, a co-teacher, another teacher, a student of the class, a student of
another class, and an anonymous visitor. A refused request must also change nothing.
"""

from dataclasses import dataclass, field
from typing import Callable

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from accounts.models import Membership, User
from accounts.services import student_create, teacher_sign_up
from classroom import services, urls
from classroom.models import Assignment, Classroom, CoTeacherInvite
from tests.classroom.helpers import assignment_of
from tests.conftest import classroom_of, module_world

pytestmark = pytest.mark.django_db

ROLES = ["owner", "co_teacher", "other_teacher", "student", "other_student", "anonymous"]


@dataclass
class World:
    owner: User
    co_teacher: User
    other_teacher: User
    student: User
    other_student: User
    classroom: Classroom
    second_class: Classroom  # another class of the owner and co-teacher (moves, copies)
    archived: Classroom
    assignment: Assignment
    closed_assignment: Assignment
    invite_token: str
    # A child in Class 5B and in Mr Other's class (`with_shared_child`): each teacher reaches
    # them through their own class.
    shared_student: User | None = None

    def user(self, role: str) -> User | None:
        return None if role == "anonymous" else getattr(self, role)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Built once for the module's hundreds of requests; each test is rolled back to it."""
    with module_world(django_db_blocker):
        yield with_shared_child(build_world())


def with_shared_child(world: World) -> World:
    """Sam, in Class 5B and in Mr Other's class."""
    sam = student_create(classroom=world.classroom, display_name="Sam", picture_password=["fish", "sun", "cat"])
    services.membership_join(student=sam, classroom=world.other_student.memberships.get().classroom)
    world.shared_student = sam
    return world


def build_world() -> World:
    teacher = teacher_sign_up(name="Ms Rivera", email="rivera@school.test", password="correct-horse-42")
    co_teacher = teacher_sign_up(name="Ms Co", email="co@school.test", password="correct-horse-42")
    other_teacher = teacher_sign_up(name="Mr Other", email="other@school.test", password="correct-horse-42")
    classroom = classroom_of(teacher, name="Class 5B", join_code="ABC234")
    classroom.teachers.add(co_teacher)
    student = student_create(classroom=classroom, display_name="Ann", picture_password=["cat", "sun", "tree"])
    other_class = classroom_of(other_teacher, name="Other class", join_code="XYZ789")
    other_student = student_create(classroom=other_class, display_name="Olga",
                                   picture_password=["moon", "star", "fish"])
    second = classroom_of(teacher, name="Class 6A")
    second.teachers.add(co_teacher)
    archived = classroom_of(teacher, name="Old class")
    archived.teachers.add(co_teacher)
    services.classroom_archive(classroom=archived)
    closed = assignment_of(classroom, created_by=teacher, title="Old work")
    services.assignment_close(assignment=closed)
    tokens = []
    services.co_teacher_invite(classroom=classroom, invited_by=teacher, email="new@school.test",
                               link_for=lambda token: tokens.append(token) or token)
    return World(owner=teacher, co_teacher=co_teacher, other_teacher=other_teacher, student=student,
                 other_student=other_student, classroom=classroom, second_class=second,
                 archived=archived, assignment=assignment_of(classroom, created_by=teacher, title="Warm-up"),
                 closed_assignment=closed, invite_token=tokens[0])


def fingerprint():
    """Everything a classroom action could change."""
    return (
        list(Classroom.objects.order_by("pk").values_list("name", "grade", "join_code", "free_play",
                                                          "archived_at")),
        sorted(Classroom.teachers.through.objects.values_list("classroom_id", "user_id")),
        list(User.objects.order_by("pk").values_list("display_name", "is_active",
                                                     "picture_password", "password")),
        list(Membership.objects.order_by("pk").values_list("student_id", "classroom_id", "archived_at")),
        list(Assignment.objects.order_by("pk").values_list("title", "classroom_id", "closed_at",
                                                           "goal_count")),
        list(CoTeacherInvite.objects.order_by("pk").values_list("accepted_at", "withdrawn_at")),
    )


def assignment_post(w: World) -> dict:
    return {"game": "smooth_operator", "preset": "quick", "opponents": "bots", "bot_level": "player",
            "bot_count": "2", "goal": "play", "goal_count": "4", "audience": "class", "title": "New"}


def csv_post(w: World) -> dict:
    return {"file": SimpleUploadedFile("class.csv", b"name\nZoe\nYusuf\n", "text/csv")}


@dataclass
class Case:
    """One request. `ok`: the status for the owner and a co-teacher (or, for student pages,
    the student of the class); `other`: for the other teacher (or the other class's student);
    `co`: for the co-teacher, on the owner's own actions (accounts/permissions.py)."""

    url: str
    args: Callable[[World], list]
    method: str = "get"
    data: Callable[[World], dict] = field(default=lambda w: {})
    ok: int = 200
    other: int = 404
    audience: str = "teacher"  # or "student" or "invite"
    co: int | None = None  # the co-teacher's status when it differs from the owner's (`ok`)


cls = lambda w: [w.classroom.pk]  # noqa: E731
arch = lambda w: [w.archived.pk]  # noqa: E731
stu = lambda w: [w.student.pk]  # noqa: E731
asg = lambda w: [w.assignment.pk]  # noqa: E731
none = lambda w: []  # noqa: E731

CASES = [
    Case("teacher_home", none, other=200),
    Case("class_create", none, other=200),
    Case("class_create", none, "post", lambda w: {"name": "New class", "grade": "4"}, 302, other=302),
    Case("archived_classes", none, other=200),
    Case("class_detail", cls),
    Case("class_detail", arch),
    Case("class_progress", cls),
    Case("class_edit", cls),
    Case("class_edit", cls, "post", lambda w: {"name": "Renamed", "grade": "5"}, 302),
    Case("class_free_play", cls, "post", ok=302),
    Case("class_free_play", cls, ok=405, other=405),
    # Archiving, restoring and deleting a class (and its children's accounts): the owner's alone.
    Case("class_archive", cls, co=403),
    Case("class_archive", cls, "post", ok=302, co=403),
    Case("class_restore", arch, "post", ok=302, co=403),
    Case("class_restore", arch, ok=405, other=405),
    Case("class_delete", arch, co=403),
    Case("class_delete", arch, "post", lambda w: {"typed_name": "Old class"}, 302, co=403),
    Case("class_delete", cls, other=404, ok=404),  # an active class cannot be deleted
    Case("class_join_code", cls),
    Case("class_join_code", cls, "post", ok=302),
    Case("students_add", cls),
    Case("students_add", cls, "post", lambda w: {"name": "Zed"}, 302),
    Case("students_paste", cls),
    Case("students_paste", cls, "post", lambda w: {"names": "Yan\nXia"}, 302),
    Case("students_import", cls),
    Case("students_import", cls, "post", csv_post, 302),
    Case("student_detail", stu),
    # A child in two classes: the other teacher reaches them through their own class only.
    Case("student_detail", lambda w: [w.shared_student.pk], other=200),
    Case("student_detail", lambda w: [w.shared_student.pk], data=lambda w: {"class": w.classroom.pk}, other=200),
    Case("student_detail", stu, "post", lambda w: {"name": "Annie"}, 302),
    Case("student_move", stu, "post", lambda w: {"to_classroom": w.second_class.pk}, 302),
    Case("student_move", stu, ok=405, other=405),
    Case("student_remove", stu),
    Case("student_remove", stu, "post", ok=302),
    Case("student_pictures", stu, "post", ok=200),  # asks first
    Case("student_pictures", stu, "post", lambda w: {"confirmed": "yes"}, 302),
    Case("student_pictures", stu, ok=405, other=405),
    Case("student_text_password", stu, "post", lambda w: {"password": "tiger-42"}, 302),
    Case("student_text_password", stu, ok=405, other=405),
    Case("student_unlock", stu, "post", ok=302),
    Case("student_unlock", stu, ok=405, other=405),
    Case("sign_in_cards", cls),
    Case("sign_in_cards_pdf", cls),
    Case("co_teachers", cls),
    Case("co_teachers", cls, "post", lambda w: {"email": "friend@school.test"}, 302),
    Case("co_teacher_remove", lambda w: [w.classroom.pk, w.co_teacher.pk]),
    Case("co_teacher_remove", lambda w: [w.classroom.pk, w.co_teacher.pk], "post", ok=302),
    Case("co_teacher_remove", lambda w: [w.classroom.pk, w.owner.pk], ok=404),  # never the owner
    Case("invite_withdraw", lambda w: [w.classroom.pk, w.classroom.invites.get().pk], "post", ok=302),
    Case("invite_withdraw", lambda w: [w.classroom.pk, w.classroom.invites.get().pk], ok=405, other=405),
    # Anyone may read the link; only a teacher signed in with the invited address may accept
    # it: another teacher holding a forwarded link is refused (the owner and the co-teacher
    # already teach the class, so for them the page says so and nothing changes).
    Case("invite_accept", lambda w: [w.invite_token], other=200, audience="invite"),
    Case("invite_accept", lambda w: [w.invite_token], "post", other=403, audience="invite"),
    Case("assignment_create", cls),
    Case("assignment_create", cls, "post", assignment_post, 302),
    Case("assignment_edit", asg),
    Case("assignment_edit", asg, "post", assignment_post, 302),
    Case("assignment_close", asg),
    Case("assignment_close", asg, "post", ok=302),
    Case("assignment_reopen", lambda w: [w.closed_assignment.pk], "post", ok=302),
    Case("assignment_reopen", asg, ok=405, other=405),
    Case("assignment_duplicate", asg),
    Case("assignment_duplicate", asg, "post", lambda w: {"to_classroom": w.second_class.pk}, 302),
    Case("student_home", none, other=200, audience="student"),
    # A child picks which of their classes they play in; a class not theirs changes nothing.
    Case("student_choose_class", none, "post", lambda w: {"classroom": w.classroom.pk}, 302, other=302,
         audience="student"),
    Case("student_choose_class", none, ok=405, other=405, audience="student"),
    Case("assignment_start", asg, audience="student"),
    Case("assignment_start", asg, "post", ok=302, audience="student"),
    Case("assignment_start", lambda w: [w.closed_assignment.pk], ok=404, audience="student"),
    # A student opens a table with classmates; a refusal (here: no free play) redirects with
    # its reason.
    Case("table_open", none, "post", lambda w: {"game": "multiplication"}, 302, other=302,
         audience="student"),
    Case("teacher_tables", cls),
    # Signing in: anyone may open the join pages; a name from another class is not found.
    Case("join", none, other=200, audience="public"),
    Case("join_class", lambda w: [w.classroom.join_code], other=200, audience="public"),
    Case("join_pictures", lambda w: [w.classroom.join_code, w.student.pk], other=200, audience="public"),
    Case("join_pictures", lambda w: [w.classroom.join_code, w.other_student.pk], ok=404,
         audience="public"),
    Case("join_text", lambda w: [w.classroom.join_code, w.student.pk], other=200, audience="public"),
]


def expected(case: Case, role: str) -> int:
    if case.audience == "public":
        return case.ok
    if case.audience == "invite":
        if role in ("student", "other_student"):
            return 403
        if role == "anonymous":
            return 200
        # The owner and the co-teacher already teach the class: the page says so (no change).
        return 200 if role in ("owner", "co_teacher") else case.other
    if role == "anonymous":
        return 302
    teacher_roles = ("owner", "co_teacher", "other_teacher")
    if case.audience == "student":
        if role in teacher_roles:
            return 403
        return case.ok if role == "student" else case.other
    if role in ("student", "other_student"):
        return 403
    if role == "co_teacher" and case.co is not None:
        return case.co
    return case.other if role == "other_teacher" else case.ok


def case_id(case: Case) -> str:
    return f"{case.method.upper()} {case.url}#{CASES.index(case)}"


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_permission_matrix(case, role, world):
    client = Client()
    user = world.user(role)
    if user is not None:
        client.force_login(user)
    url = reverse(f"classroom:{case.url}", args=case.args(world))
    before = fingerprint()
    response = getattr(client, case.method)(url, case.data(world))
    want = expected(case, role)
    assert response.status_code == want, f"{role} {case.method.upper()} {url}"
    if role == "anonymous" and want == 302:
        login = reverse("classroom:join" if case.audience == "student" else "accounts:teacher_login")
        assert response["Location"].startswith(login)
    if want in (403, 404, 405) or (role == "anonymous" and case.method == "post"):
        assert fingerprint() == before, "a refused request changed something"


def test_the_matrix_covers_every_classroom_url():
    named = {p.name for p in urls.urlpatterns}
    covered = {c.url for c in CASES}
    assert named == covered
    posted = {c.url for c in CASES if c.method == "post"}
    # Every URL that changes something is exercised with a POST.
    assert {"class_archive", "class_delete", "student_remove", "class_join_code",
            "assignment_close", "co_teacher_remove"} <= posted


def test_posts_need_the_csrf_token(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.owner)
    before = fingerprint()
    response = client.post(reverse("classroom:class_archive", args=[world.classroom.pk]))
    assert response.status_code == 403
    assert fingerprint() == before
