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



def test_a_teacher_opening_all_of_the_log_is_told_it_is_for_administrators(world):
    client = Client()
    client.force_login(world["owner"])
    response = client.get(reverse("privacy:access_log"))
    page = response.content.decode()
    assert response.status_code == 403
    assert "belongs to students" not in page
    assert "this page is for the school's administrators" in page
    # Where the teacher's own classes' logs are.
    assert "Each of your classes has its own access log, on the class's page." in page


def test_a_student_is_told_whose_pages_the_log_and_teacher_pages_are(world):
    client = Client()
    client.force_login(world["student"])
    for url in (reverse("privacy:access_log"), reverse("privacy:class_access_log", args=[world["classroom"].pk]),
                reverse("classroom:teacher_home")):
        page = client.get(url).content.decode()
        assert "belongs to students" not in page and "Each of your classes" not in page, url
    assert "this page is for the school's administrators" in client.get(reverse("privacy:access_log")).content.decode()
    assert "this page belongs to teachers" in client.get(reverse("classroom:teacher_home")).content.decode()


def test_a_teacher_on_a_childs_page_is_told_it_belongs_to_students(world):
    client = Client()
    client.force_login(world["owner"])
    page = client.get(reverse("classroom:student_home")).content.decode()
    assert "this page belongs to students" in page
