import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

TEACHER_PAGES = ["classroom:teacher_home", "accounts:teacher_profile"]
STUDENT_PAGES = ["classroom:student_home"]


@pytest.mark.parametrize("name", TEACHER_PAGES)
def test_teacher_pages(client, name, teacher, student):
    url = reverse(name)
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("accounts:teacher_login"))
    client.force_login(student)
    forbidden = client.get(url)
    assert forbidden.status_code == 403 and "isn't for your account".encode() in forbidden.content
    client.force_login(teacher)
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("name", STUDENT_PAGES)
def test_student_pages(client, name, teacher, student):
    url = reverse(name)
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("classroom:join"))
    client.force_login(teacher)
    assert client.get(url).status_code == 403
    client.force_login(student)
    assert client.get(url).status_code == 200


def test_home_sends_each_role_to_its_place(client, teacher, student):
    assert "I'm a student".encode() in client.get("/").content
    client.force_login(teacher)
    assert client.get("/")["Location"] == reverse("classroom:teacher_home")
    client.force_login(student)
    assert client.get("/")["Location"] == reverse("classroom:student_home")


def test_teacher_sees_only_own_classes(client, teacher, classroom, make_teacher, make_classroom):
    other = make_teacher()
    make_classroom(other, name="Secret class")
    client.force_login(teacher)
    page = client.get(reverse("classroom:teacher_home"))
    assert b"Class 5B" in page.content and b"Secret class" not in page.content


def test_unknown_pages_are_friendly(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and "couldn't find that page".encode() in response.content
