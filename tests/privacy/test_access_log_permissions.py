"""Who may read the access log and the privacy page: its URLs × every role, an administrator
among them (the export and erase URLs are in test_permission_matrix.py, which checks that the
two together cover every privacy URL).

A class's log: its owner and co-teachers, and administrators; another teacher gets a 404 (the
class is not theirs to find), students 403, anonymous visitors are sent to sign in. All of the
log: administrators only. The privacy page: everyone. Rows of accounts/permissions.py's table.
"""
import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import teacher_sign_up

pytestmark = pytest.mark.django_db

ROLES = ["owner", "co_teacher", "other_teacher", "student", "other_student", "administrator",
         "anonymous"]

# url name -> (args, expected status per role)
CASES = {
    "privacy": (lambda w: [], dict.fromkeys(ROLES, 200)),
    "class_access_log": (lambda w: [w["classroom"].pk], {
        "owner": 200, "co_teacher": 200, "other_teacher": 404, "student": 403,
        "other_student": 403, "administrator": 200, "anonymous": 302}),
    "access_log": (lambda w: [], {
        "owner": 403, "co_teacher": 403, "other_teacher": 403, "student": 403,
        "other_student": 403, "administrator": 200, "anonymous": 302}),
}


@pytest.fixture
def world(teacher, co_teacher, other_teacher, student, other_student, classroom):
    admin = teacher_sign_up(name="Mx Admin", email="admin@school.test", password="correct-horse-42")
    admin.is_staff = True
    admin.save()
    return {"owner": teacher, "co_teacher": co_teacher, "other_teacher": other_teacher,
            "student": student, "other_student": other_student, "administrator": admin,
            "classroom": classroom}


@pytest.mark.parametrize("name", CASES)
def test_privacy_urls_by_role(name, world):
    args, want = CASES[name]
    url = reverse(f"privacy:{name}", args=args(world))
    got = {}
    for role in ROLES:
        client = Client()
        if role != "anonymous":
            client.force_login(world[role])
        response = client.get(url)
        got[role] = response.status_code
        if response.status_code == 302:
            assert response["Location"].startswith(reverse("accounts:teacher_login"))
    assert got == want

