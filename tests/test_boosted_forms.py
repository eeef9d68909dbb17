"""A form htmx sends (docs/live.md, "Forms"): its redirect becomes a whole-page visit with the
answer's cookies kept, and every other answer, and every request not sent by a boosted form,
is left as the view gave it."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.clients import signed_in

BOOSTED = {"HTTP_HX_REQUEST": "true", "HTTP_HX_BOOSTED": "true"}


@pytest.mark.django_db
def test_a_boosted_forms_redirect_becomes_a_visit_and_the_message_follows(teacher, classroom):
    client = signed_in(teacher)
    response = client.post(reverse("classroom:students_add", args=[classroom.pk]), {"name": "Zoe"},
                           **BOOSTED)
    assert response.status_code == 200 and not response.has_header("Location")
    assert response["HX-Redirect"] == reverse("classroom:class_detail", args=[classroom.pk])
    page = client.get(response["HX-Redirect"]).content.decode()
    assert "Zoe added" in page  # the message stored with the answer shows on the next page


@pytest.mark.django_db
def test_a_plain_form_and_an_htmx_fragment_keep_their_redirect(teacher, classroom):
    client = signed_in(teacher)
    url = reverse("classroom:students_add", args=[classroom.pk])
    plain = client.post(url, {"name": "Zoe"})
    fragment = client.post(url, {"name": "Yan"}, HTTP_HX_REQUEST="true")
    for response in (plain, fragment):
        assert response.status_code == 302
        assert response["Location"] == reverse("classroom:class_detail", args=[classroom.pk])
        assert not response.has_header("HX-Redirect")


@pytest.mark.django_db
def test_a_boosted_forms_errors_come_back_as_the_page(teacher, classroom):
    client = signed_in(teacher)
    response = client.post(reverse("classroom:students_add", args=[classroom.pk]), {"name": ""}, **BOOSTED)
    assert response.status_code == 200 and not response.has_header("HX-Redirect")
    assert 'aria-invalid="true"' in response.content.decode()


@pytest.mark.django_db
def test_a_boosted_form_signed_out_goes_to_the_sign_in_page(client, classroom):
    response = client.post(reverse("classroom:students_add", args=[classroom.pk]), {"name": "Zoe"}, **BOOSTED)
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(reverse("accounts:teacher_login") + "?next=")


def test_every_form_that_changes_something_on_a_page_is_sent_by_htmx():
    """The forms left as plain forms are those whose answer sets up a session or a language
    (signing in and out, the language switcher) or that only read (method="get"), the
    moves, which go over the socket (ws-send), and the deep-linking answer, which the browser
    posts to the learning platform's own address (another site: htmx would not follow it)."""
    plain_allowed = {"accounts", "_language_switcher.html", "base.html", "deep_link_answer.html"}
    problems = []
    for path in sorted(Path(settings.BASE_DIR, "templates").rglob("*.html")):
        relative = path.relative_to(Path(settings.BASE_DIR, "templates"))
        for form in re.findall(r"<form\b[^>]*>", path.read_text(encoding="utf-8")):
            if "ws-send" in form or 'method="get"' in form:
                continue
            if "{% sends_once %}" in form:
                assert 'method="post"' in form, (relative, form)
                continue
            if relative.parts[0] not in plain_allowed and relative.name not in plain_allowed:
                problems.append(f"{relative}: {form}")
    assert not problems, "\n".join(problems)

