import re

import pytest
from django.test import Client
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import User
from config.settings import base

pytestmark = pytest.mark.django_db


def sign_up(client, **overrides):
    data = {"name": "Ms Rivera", "email": "Rivera@School.test", "password": "long-enough-pass",
            "password_again": "long-enough-pass", **overrides}
    return client.post(reverse("accounts:teacher_signup"), data)


def test_sign_up_creates_a_signed_in_teacher(client):
    response = sign_up(client)
    assert response.status_code == 302
    teacher = User.objects.get(email="rivera@school.test")
    assert teacher.role == "teacher" and teacher.display_name == "Ms Rivera"
    assert teacher.check_password("long-enough-pass")
    home = client.get(reverse("home"), follow=True)
    assert b"My classes" in home.content


def test_argon2_is_the_password_hasher_outside_tests():
    assert base.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.Argon2PasswordHasher"


def test_argon2_hashes_a_real_sign_up(client, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher"]
    sign_up(client)
    assert User.objects.get(email="rivera@school.test").password.startswith("argon2")


def test_sign_up_rejects_a_taken_email_and_keeps_what_was_typed(client, teacher):
    response = sign_up(client, email="RIVERA@school.test", name="Second")
    assert response.status_code == 200
    assert b"already an account with this e-mail" in response.content
    assert b'value="Second"' in response.content
    assert User.objects.filter(role="teacher").count() == 1


def test_sign_up_rejects_mismatched_and_weak_passwords(client):
    response = sign_up(client, password_again="something-else")
    assert b"not the same" in response.content
    response = sign_up(client, password="123", password_again="123")
    assert b"too short" in response.content
    assert not User.objects.exists()


def test_sign_in_and_sign_out(client, teacher):
    response = client.post(reverse("accounts:teacher_login"),
                           {"email": "rivera@school.test", "password": "correct-horse-42"})
    assert response.status_code == 302
    assert client.get(reverse("classroom:teacher_home")).status_code == 200
    client.post(reverse("accounts:logout"))
    response = client.get(reverse("classroom:teacher_home"))
    assert response.status_code == 302 and reverse("accounts:teacher_login") in response["Location"]


def test_sign_out_needs_post(client, teacher):
    client.force_login(teacher)
    assert client.get(reverse("accounts:logout")).status_code == 405
    assert client.get(reverse("classroom:teacher_home")).status_code == 200


def test_wrong_password_is_refused_in_plain_words(client, teacher):
    response = client.post(reverse("accounts:teacher_login"),
                           {"email": "rivera@school.test", "password": "nope"})
    assert response.status_code == 200
    assert b"don&#x27;t match an account" in response.content
    assert "_auth_user_id" not in client.session


def test_sign_in_follows_a_local_next_link_only(client, teacher):
    login = reverse("accounts:teacher_login")
    creds = {"email": "rivera@school.test", "password": "correct-horse-42"}
    assert client.post(f"{login}?next=/teacher/profile/", creds)["Location"] == "/teacher/profile/"
    client.post(reverse("accounts:logout"))
    assert client.post(f"{login}?next=//evil.example/", creds)["Location"] == "/"


def test_teacher_sign_in_failures_are_limited(client, teacher, settings):
    settings.TEACHER_SIGNIN_MAX_FAILURES = 3
    login = reverse("accounts:teacher_login")
    for _ in range(3):
        client.post(login, {"email": "rivera@school.test", "password": "wrong"})
    response = client.post(login, {"email": "rivera@school.test", "password": "correct-horse-42"})
    assert b"Too many wrong tries. Wait 2 seconds and try again." in response.content
    assert "_auth_user_id" not in client.session


def test_a_strangers_wrong_passwords_do_not_lock_the_teacher_out(client, teacher, settings):
    settings.TEACHER_SIGNIN_MAX_FAILURES = 3
    login = reverse("accounts:teacher_login")
    assert client.post(login, {"email": "rivera@school.test", "password": "correct-horse-42"}).status_code == 302
    client.post(reverse("accounts:logout"))  # her own laptop, where she signed in before
    stranger = Client()
    for _ in range(4):
        stranger.post(login, {"email": "rivera@school.test", "password": "wrong"})
    assert b"Too many wrong tries" in stranger.post(
        login, {"email": "rivera@school.test", "password": "correct-horse-42"}).content
    response = client.post(login, {"email": "rivera@school.test", "password": "correct-horse-42"})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(teacher.pk)


def test_a_password_reset_lifts_the_sign_in_lock(client, teacher, settings):
    settings.TEACHER_SIGNIN_MAX_FAILURES = 3
    login = reverse("accounts:teacher_login")
    for _ in range(3):
        client.post(login, {"email": "rivera@school.test", "password": "wrong"})
    client.post(reverse("accounts:password_reset"), {"email": "rivera@school.test"})
    link = re.search(r"http://testserver(/teacher/password-reset/\S+/)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)
    client.post(form_page.redirect_chain[-1][0],
                {"new_password1": "brand-new-secret-9", "new_password2": "brand-new-secret-9"})
    response = client.post(login, {"email": "rivera@school.test", "password": "brand-new-secret-9"})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(teacher.pk)


def test_password_reset_by_email(client, teacher):
    response = client.post(reverse("accounts:password_reset"), {"email": "rivera@school.test"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/teacher/password-reset/\S+/)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)
    assert b"Choose a new password" in form_page.content
    client.post(form_page.redirect_chain[-1][0],
                {"new_password1": "brand-new-secret-9", "new_password2": "brand-new-secret-9"})
    teacher.refresh_from_db()
    assert teacher.check_password("brand-new-secret-9")
    again = client.get(link, follow=True)
    assert b"This link has expired" in again.content


def test_password_reset_for_unknown_email_sends_nothing_and_reveals_nothing(client, teacher):
    response = client.post(reverse("accounts:password_reset"), {"email": "nobody@school.test"}, follow=True)
    assert b"If an account uses that address" in response.content
    assert mail.outbox == []


def test_profile_edit(client, teacher, make_teacher):
    other = make_teacher(email="other@school.test")
    client.force_login(teacher)
    url = reverse("accounts:teacher_profile")
    response = client.post(url, {"name": "Ms R.", "email": "other@school.test"})
    assert b"Another account already uses this e-mail" in response.content
    client.post(url, {"name": "  Ms R.  ", "email": "new@school.test"})
    teacher.refresh_from_db()
    assert (teacher.display_name, teacher.email) == ("Ms R.", "new@school.test")
    client.post(reverse("accounts:logout"))
    ok = client.post(reverse("accounts:teacher_login"), {"email": "new@school.test", "password": "correct-horse-42"})
    assert ok.status_code == 302
    assert get_user_model().objects.get(pk=other.pk).email == "other@school.test"


def test_names_are_escaped(client):
    sign_up(client, name="<script>alert(1)</script>")
    page = client.get(reverse("classroom:teacher_home"))
    assert b"<script>alert(1)</script>" not in page.content
    assert b"&lt;script&gt;" in page.content


def test_teachers_without_an_e_mail_do_not_collide_but_a_real_address_stays_unique():
    """People from a school's platform may have no e-mail: two such teachers can both be
    saved. A real address is still one teacher's only, whatever its capitals."""
    User.objects.create(username="platform-1", email="", role=User.Role.TEACHER, display_name="Ms One")
    User.objects.create(username="platform-2", email="", role=User.Role.TEACHER, display_name="Mr Two")
    assert User.objects.filter(role=User.Role.TEACHER, email="").count() == 2

    User.objects.create(username="rivera@school.test", email="rivera@school.test", role=User.Role.TEACHER)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="rivera-2", email="Rivera@School.test", role=User.Role.TEACHER)
    assert User.objects.filter(email__iexact="rivera@school.test").count() == 1
