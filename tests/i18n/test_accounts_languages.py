"""Accounts and privacy in every language (docs/i18n.md), where the every-page test cannot reach:
forms posted with errors, sign-in waits, e-mails (in the recipient's language), the teacher's
own language on the profile, the access log's sentences. A child's data (the erase page, the
export zip) is in tests/i18n/test_privacy_languages.py, around its costly world.

Each in the pseudo-language (tests/i18n/pseudo.py: no English word left in what this area
renders, the page's <main>; the frame around it is the core area's) and a spot check in
Spanish and Arabic.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone
from unittest import mock

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import User
from accounts.throttle import too_many_tries
from classroom.models import Classroom
from privacy.models import AccessLog
from privacy.retention import retention_run
from tests.i18n.pseudo import PSEUDO, english_words

pytestmark = pytest.mark.django_db

# What the tests' people typed: names, classes, addresses.
TYPED = {"Ms", "Rivera", "Ann", "Ben", "Maya", "Class", "school", "test", "Co", "Other", "Olga"}


def main_of(html: str) -> str:
    """The part of a page this area renders (base.html's frame is the core area's)."""
    found = re.search(r"<main\b.*?</main>", html, re.S)
    assert found, "no <main> in the page"
    return found.group(0)


def english_in_main(response, allowed=frozenset()) -> list[str]:
    return english_words(main_of(response.content.decode()), allowed=TYPED | set(allowed))


def signed_in(user, language: str | None = None) -> Client:
    if language is not None:
        User.objects.filter(pk=user.pk).update(language=language)
        user.refresh_from_db()
    client = Client()
    client.force_login(user)
    return client


# ----- forms with errors -------------------------------------------------------------------

def test_the_sign_up_form_with_its_errors_is_translated(client, teacher, pseudo_language):
    response = client.post(reverse("accounts:teacher_signup"), {
        "name": "", "email": teacher.email, "password": "correct-horse-42", "password_again": "other-horse-42",
    }, HTTP_ACCEPT_LANGUAGE=PSEUDO)
    assert response.status_code == 200 and 'class="error"' in response.content.decode()
    assert english_in_main(response) == []
    es = client.post(reverse("accounts:teacher_signup"), {"email": teacher.email, "password": "a",
                                                           "password_again": "b"}, HTTP_ACCEPT_LANGUAGE="es")
    assert "Las dos contraseñas no coinciden." in es.content.decode()
    ar = client.post(reverse("accounts:teacher_signup"), {"email": teacher.email}, HTTP_ACCEPT_LANGUAGE="ar")
    page = ar.content.decode()
    assert 'dir="rtl"' in page and "يوجد حساب بهذا البريد الإلكتروني من قبل" in page


def test_a_wrong_teacher_sign_in_is_told_in_the_readers_language(client, teacher, pseudo_language):
    wrong = {"email": teacher.email, "password": "not-it"}
    response = client.post(reverse("accounts:teacher_login"), wrong, HTTP_ACCEPT_LANGUAGE=PSEUDO)
    assert english_in_main(response) == []
    es = client.post(reverse("accounts:teacher_login"), wrong, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "no corresponden a ninguna cuenta" in es


# ----- sign-in waits ---------------------------------------------------------------------

@pytest.mark.parametrize("seconds, es, ar", [
    (1, "Hay que esperar 1 segundo para", "انتظر ثانية واحدة"),
    (2, "Hay que esperar 2 segundos para", "انتظر ثانيتين"),
    (8, "Hay que esperar 8 segundos para", "انتظر 8 ثوانٍ"),
    (45, "Hay que esperar 45 segundos para", "انتظر 45 ثانية"),
    (120, "Hay que esperar 2 minutos para", "انتظر دقيقتين"),
    (900, "Hay que esperar 15 minutos para", "انتظر 15 دقيقة"),
])
def test_the_wait_is_said_with_the_languages_plural_forms(seconds, es, ar):
    with translation.override("es"):
        assert es in too_many_tries(seconds)
    with translation.override("ar"):
        assert ar in too_many_tries(seconds)
    with translation.override("en"):
        assert too_many_tries(8) == "Too many wrong tries. Wait 8 seconds and try again."


def test_a_child_waiting_to_try_again_reads_it_in_their_language(client, classroom, student, settings,
                                                                   pseudo_language):
    url = reverse("classroom:join_pictures", args=[classroom.join_code, student.pk])
    wrong = {"picture": ["moon", "star", "apple"]}
    at = timezone.now()
    with mock.patch("django.utils.timezone.now", return_value=at):
        for _ in range(settings.PICTURE_SIGNIN_MAX_FAILURES + 1):
            client.post(url, wrong)
        waiting = client.get(url, HTTP_ACCEPT_LANGUAGE=PSEUDO)
        warning = re.search(r'<div class="alert alert-warn".*?</div>', waiting.content.decode(), re.S).group(0)
        assert english_words(warning) == []
        # The picture names under the drawings are the child's language too.
        assert english_in_main(waiting, allowed={"That", "wasn", "quite", "right"}) == []
        es = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Hay que esperar" in es and "pide ayuda a tu maestro o maestra" in es
    assert ">Manzana<" in es and "Toca tus 3 dibujos" in es


def test_the_teacher_sign_in_wait_is_translated(client, teacher, settings):
    wrong = {"email": teacher.email, "password": "not-it"}
    for _ in range(settings.TEACHER_SIGNIN_MAX_FAILURES + 1):
        response = client.post(reverse("accounts:teacher_login"), wrong, HTTP_ACCEPT_LANGUAGE="ar")
    page = response.content.decode()
    assert "محاولات خاطئة كثيرة" in page and "إذا نسيت كلمة المرور" in page


# ----- the teacher's own language ------------------------------------------------------------

def test_a_teacher_chooses_their_language_on_the_profile_and_it_lasts(client, teacher):
    client.force_login(teacher)
    page = client.get(reverse("accounts:teacher_profile")).content.decode()
    # Each language is named in its own language, and says which language that name is in.
    assert '<option value="es" lang="es">Español</option>' in page
    assert '<option value="ar" lang="ar">العربية</option>' in page
    response = client.post(reverse("accounts:teacher_profile"),
                           {"name": teacher.display_name, "email": teacher.email, "language": "ar"}, follow=True)
    teacher.refresh_from_db()
    assert teacher.language == "ar"
    page = response.content.decode()
    assert '<html lang="ar" dir="rtl">' in page and "تم حفظ ملفك الشخصي." in page
    # Signed out and in again, with an English browser: still Arabic.
    client.logout()
    client.force_login(teacher)
    assert "ملفك الشخصي" in client.get(reverse("accounts:teacher_profile"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # Back to "the browser's language".
    client.post(reverse("accounts:teacher_profile"), {"name": teacher.display_name, "email": teacher.email,
                                                      "language": ""})
    teacher.refresh_from_db()
    assert teacher.language == ""
    assert "Su perfil" in client.get(reverse("accounts:teacher_profile"), HTTP_ACCEPT_LANGUAGE="es").content.decode()


def test_a_language_that_is_not_offered_is_refused(client, teacher):
    client.force_login(teacher)
    response = client.post(reverse("accounts:teacher_profile"),
                           {"name": teacher.display_name, "email": teacher.email, "language": "fr"})
    assert response.status_code == 200 and 'class="error"' in response.content.decode()
    teacher.refresh_from_db()
    assert teacher.language == ""


def test_the_profile_page_in_the_pseudo_language(client, teacher, pseudo_language):
    client.force_login(teacher)
    response = client.get(reverse("accounts:teacher_profile"), HTTP_ACCEPT_LANGUAGE=PSEUDO)
    # The languages' own names are not translated, by design.
    assert english_in_main(response, allowed={"English", "Pseudo"}) == []


# ----- e-mails -----------------------------------------------------------------------------

def test_the_password_reset_e_mail_is_in_the_recipients_language(client, teacher):
    User.objects.filter(pk=teacher.pk).update(language="ar")
    client.post(reverse("accounts:password_reset"), {"email": teacher.email}, HTTP_ACCEPT_LANGUAGE="es")
    message = mail.outbox[-1]
    assert message.subject == "اختر كلمة مرور جديدة لـ Numberdeck"
    assert "طلب شخص ما (نأمل أن تكون أنت) إعادة تعيين كلمة مرورك" in message.body
    assert "/teacher/password-reset/" in message.body


def test_the_password_reset_e_mail_in_the_pseudo_language(client, teacher, pseudo_language):
    User.objects.filter(pk=teacher.pk).update(language=PSEUDO)
    client.post(reverse("accounts:password_reset"), {"email": teacher.email})
    message = mail.outbox[-1]
    text = re.sub(r"https?://\S+", "", message.body)
    assert english_words(f"<p>{message.subject}</p><p>{text}</p>", allowed=TYPED) == []


def test_each_teacher_gets_the_erasure_warning_in_their_own_language(teacher, co_teacher_of, classroom):
    Classroom.objects.filter(pk=classroom.pk).update(archived_at=datetime(2026, 3, 12, 9, 0, tzinfo=dt_timezone.utc))
    User.objects.filter(pk=teacher.pk).update(language="es")
    User.objects.filter(pk=co_teacher_of.pk).update(language="ar")
    retention_run(now=datetime(2027, 2, 26, 9, 0, tzinfo=dt_timezone.utc))
    by_address = {tuple(m.to): m for m in mail.outbox}
    es, ar = by_address[(teacher.email,)], by_address[(co_teacher_of.email,)]
    assert es.subject == "Class 5B se borrará el 12 de marzo de 2027"
    assert "Para conservar la clase: inicie sesión en Numberdeck" in es.body
    assert ar.subject.startswith("سيُمحى الصف Class 5B في 12")
    assert "للاحتفاظ بالصف" in ar.body


def test_the_erasure_warning_in_the_pseudo_language(teacher, classroom, pseudo_language):
    Classroom.objects.filter(pk=classroom.pk).update(archived_at=datetime(2026, 3, 12, 9, 0, tzinfo=dt_timezone.utc))
    User.objects.filter(pk=teacher.pk).update(language=PSEUDO)
    retention_run(now=datetime(2027, 2, 26, 9, 0, tzinfo=dt_timezone.utc))
    message = mail.outbox[-1]
    # The month's name and the "a year" of the retention are Django's and classroom's words.
    assert english_words(f"<p>{message.subject}</p><p>{message.body}</p>",
                         allowed=TYPED | {"March", "year"}) == []


@pytest.fixture
def co_teacher_of(make_teacher, classroom):
    colleague = make_teacher(name="Mr Co", email="co@school.test")
    classroom.teachers.add(colleague)
    return colleague


# ----- the access log ----------------------------------------------------------------------

def _log(viewer, *, student=None, classroom=None, action="viewed", what="skill report", about_class=False):
    return AccessLog.objects.create(at=datetime(2026, 11, 26, 14, 3, tzinfo=dt_timezone.utc), viewer=viewer,
                                    viewer_name=viewer.display_name, action=action, what=what,
                                    student=student, about_class=about_class, classroom=classroom,
                                    classroom_name=classroom.name if classroom else "", path="/")


def test_the_access_log_reads_in_the_readers_language(client, teacher, classroom, student, pseudo_language):
    _log(teacher, student=student, classroom=classroom)
    _log(teacher, classroom=classroom, action="exported", what="skills table (CSV)", about_class=True)
    _log(teacher, classroom=classroom, action="exported", what="data (zip)")  # a former student's
    client.force_login(teacher)
    url = reverse("privacy:class_access_log", args=[classroom.pk])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=PSEUDO)
    assert english_in_main(response) == []
    es = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Ms Rivera vio el informe de habilidades de Ann, 26 de noviembre, 14:03" in es
    assert "Ms Rivera descargó los datos (zip) de un exestudiante" in es
    ar = client.get(url, HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert 'dir="rtl"' in ar and "اطّلع Ms Rivera على تقرير المهارات لـAnn" in ar
    assert "نزّل Ms Rivera جدول المهارات (CSV) للصف Class 5B" in ar


def test_the_empty_access_log_in_the_pseudo_language(client, teacher, classroom, pseudo_language):
    client.force_login(teacher)
    response = client.get(reverse("privacy:class_access_log", args=[classroom.pk]), HTTP_ACCEPT_LANGUAGE=PSEUDO)
    assert "Nobody" not in response.content.decode() and english_in_main(response) == []


# ----- pages with no form: a spot check in Arabic ---------------------------------------------

def test_the_privacy_page_in_arabic_and_spanish(client):
    ar = client.get(reverse("privacy:privacy"), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert '<html lang="ar" dir="rtl">' in ar
    assert "الخصوصية: ما يحفظه Numberdeck عن الطفل، وإلى متى" in ar
    es = client.get(reverse("privacy:privacy"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Qué guardamos y por qué" in es and "Ningún tercero recibe nada" in es


def test_the_sign_out_message_is_in_the_language_the_person_was_reading(client, teacher):
    client.force_login(teacher)
    User.objects.filter(pk=teacher.pk).update(language="es")
    response = client.post(reverse("accounts:logout"), follow=True, HTTP_ACCEPT_LANGUAGE="es")
    assert "Sesión cerrada. ¡Hasta la próxima!" in response.content.decode()


def test_a_wait_in_the_future_is_not_yet_over(client, classroom, student, settings):
    """The wait's words under a frozen clock (the sign-in limits' own tests check the timing)."""
    url = reverse("classroom:join_pictures", args=[classroom.join_code, student.pk])
    at = timezone.now()
    with mock.patch("django.utils.timezone.now", return_value=at):
        for _ in range(settings.PICTURE_SIGNIN_MAX_FAILURES + 1):
            client.post(url, {"picture": ["moon", "star", "apple"]})
    with mock.patch("django.utils.timezone.now", return_value=at + timedelta(seconds=1)):
        ar = client.get(url, HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert "ثم حاول مرة أخرى" in ar and "اطلب المساعدة من معلّمك" in ar
