"""Who may open the skill reports: every report URL × every role, GET and POST.

Teacher pages: the class's owner and a co-teacher get them; another teacher gets a 404 (the
class is not theirs to find); students 403; anonymous visitors are sent to sign in. "My
progress" is the other way round. A refused request changes nothing. The student is also in
the other teacher's class, with a game there: that changes nothing of the above (a teacher
reaches a child through their own classes only).
"""

from dataclasses import dataclass, field
from typing import Callable

import pytest
from django.test import Client
from django.urls import reverse

from classroom.services import membership_join
from reports import urls
from reports.models import RecomputeJob
from reports.exports.jobs import export_start

from .showing import make_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

ROLES = ["owner", "co_teacher", "other_teacher", "student", "other_student", "anonymous"]


@dataclass
class World:
    owner: object
    co_teacher: object
    other_teacher: object
    student: object
    other_student: object
    classroom: object
    job: RecomputeJob

    def user(self, role):
        return None if role == "anonymous" else getattr(self, role)


@pytest.fixture
def world(teacher, classroom, co_teacher, other_teacher, other_classroom, student, other_student, settings,
          tmp_path, django_capture_on_commit_callbacks):
    settings.MEDIA_ROOT = tmp_path
    make_game(classroom, student)
    membership_join(student=student, classroom=other_classroom)
    make_game(other_classroom, student)
    with django_capture_on_commit_callbacks(execute=True):
        job = export_start(classroom=classroom, requested_by=teacher, export_format="csv")
    return World(teacher, co_teacher, other_teacher, student, other_student, classroom, job)


@dataclass
class Case:
    url: str
    args: Callable
    method: str = "get"
    data: Callable = field(default=lambda w: {})
    ok: int = 200
    audience: str = "teacher"


cls = lambda w: [w.classroom.pk]  # noqa: E731
stu = lambda w: [w.classroom.pk, w.student.pk]  # noqa: E731
job = lambda w: [w.classroom.pk, w.job.pk]  # noqa: E731

CASES = [
    Case("dashboard", cls),
    Case("recompute", cls, "post", ok=302),
    Case("moves", cls, data=lambda w: {"measure": "so.lowest_operator"}),
    Case("facts", cls),
    # "Practise this": a redirect to the prefilled assignment form (a GET creates nothing).
    Case("practise", cls, data=lambda w: {"measure": "mg.facts", "detail": "7x8"}, ok=302),
    Case("student", stu),
    Case("student_pdf", stu),
    Case("skills_csv", cls),
    Case("exports", cls),
    Case("exports", cls, "post", lambda w: {"format": "raw_csv"}, ok=302),
    Case("job", job),
    Case("job", job, "post", ok=302),  # Try again
    Case("job_download", job),
    Case("my_progress", lambda w: [], audience="student"),
]


def expected(case, role):
    if role == "anonymous":
        return 302
    if case.audience == "student":
        return 403 if role in ("owner", "co_teacher", "other_teacher") else 200
    if role in ("student", "other_student"):
        return 403
    return 404 if role == "other_teacher" else case.ok


def fingerprint():
    return list(RecomputeJob.objects.order_by("pk").values_list("pk", "kind", "status"))


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.method} {c.url}")
def test_report_permission_matrix(case, role, world, django_capture_on_commit_callbacks):
    client = Client()
    if world.user(role) is not None:
        client.force_login(world.user(role))
    url = reverse(f"reports:{case.url}", args=case.args(world))
    before = fingerprint()
    with django_capture_on_commit_callbacks(execute=True):
        response = getattr(client, case.method)(url, case.data(world))
    want = expected(case, role)
    assert response.status_code == want, f"{role} {case.method} {url}"
    if role == "anonymous":
        login = reverse("classroom:join" if case.audience == "student" else "accounts:teacher_login")
        assert response["Location"].startswith(login)
    if want != case.ok or role == "anonymous":
        assert fingerprint() == before, "a refused request changed something"


def test_the_matrix_covers_every_report_url():
    assert {p.name for p in urls.urlpatterns} == {c.url for c in CASES}


def test_a_job_of_another_class_is_not_found_through_ones_own_class(world, other_classroom):
    """The job id alone is not enough: it must belong to the class in the URL."""
    client = Client()
    client.force_login(world.other_teacher)
    url = reverse("reports:job_download", args=[other_classroom.pk, world.job.pk])
    assert client.get(url).status_code == 404
