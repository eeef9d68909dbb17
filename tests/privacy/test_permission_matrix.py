"""Who may export and erase a student's data: the rows of the classroom permission matrix
(tests/classroom/test_permission_matrix.py: its world, roles and fingerprint) for every
privacy URL. The owner and a co-teacher export; only the owner erases (a co-teacher gets a
403 page saying who can); another teacher finds nothing (404); students get 403; anonymous
visitors are sent to sign in. A refused request changes nothing."""

from dataclasses import dataclass, field
from typing import Callable

import pytest
from django.test import Client
from django.urls import reverse

from privacy import urls
from tests.classroom.test_permission_matrix import ROLES, build_world, fingerprint, with_shared_child
from tests.conftest import module_world

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with module_world(django_db_blocker):
        yield with_shared_child(build_world())


@dataclass
class Case:
    url: str
    args: Callable
    method: str = "get"
    data: Callable = field(default=lambda w: {})
    owner: int = 200
    co_teacher: int = 200
    other_teacher: int = 404


stu = lambda w: [w.student.pk]  # noqa: E731
sam = lambda w: [w.shared_student.pk]  # noqa: E731
CASES = [
    Case("student_export", stu),
    Case("class_export", lambda w: [w.classroom.pk]),
    Case("class_export", lambda w: [w.archived.pk]),  # an archived class's data too
    Case("student_erase", stu, co_teacher=403),  # the page that asks
    Case("student_erase", stu, "post", lambda w: {"typed_name": "Ann"}, owner=302, co_teacher=403),
    Case("student_erase", stu, "post", lambda w: {"typed_name": "Olga"}, co_teacher=403),  # wrong name
    # Sam is in Class 5B and in Mr Other's class: his export and erasure cover both classes,
    # so neither class's teachers alone may (each finds him, and is told why: 403).
    Case("student_export", sam, owner=403, co_teacher=403, other_teacher=403),
    Case("student_erase", sam, owner=403, co_teacher=403, other_teacher=403),
    Case("student_erase", sam, "post", lambda w: {"typed_name": "Sam"}, owner=403, co_teacher=403,
         other_teacher=403),
]


def expected(case: Case, role: str) -> int:
    if role == "anonymous":
        return 302
    if role in ("student", "other_student"):
        return 403
    return {"owner": case.owner, "co_teacher": case.co_teacher, "other_teacher": case.other_teacher}[role]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.method.upper()} {c.url}#{CASES.index(c)}")
def test_privacy_permission_matrix(case, role, world):
    client = Client()
    if world.user(role) is not None:
        client.force_login(world.user(role))
    url = reverse(f"privacy:{case.url}", args=case.args(world))
    before = fingerprint()
    response = getattr(client, case.method)(url, case.data(world))
    want = expected(case, role)
    assert response.status_code == want, f"{role} {case.method.upper()} {url}"
    if role == "anonymous":
        assert response["Location"].startswith(reverse("accounts:teacher_login"))
    if want != 302 or role == "anonymous":
        assert fingerprint() == before, "a refused request changed something"
    else:
        assert fingerprint() != before  # the owner's erasure went through


def test_the_matrix_covers_every_privacy_url():
    """With the access log's and the privacy page's rows (test_access_log_permissions.py)."""
    from tests.privacy.test_access_log_permissions import CASES as LOG_CASES

    assert {p.name for p in urls.urlpatterns} <= {c.url for c in CASES} | set(LOG_CASES)
