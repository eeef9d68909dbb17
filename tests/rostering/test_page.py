"""The administrators' roster page: upload → preview → apply, with the Django test client."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import teacher_sign_up
from classroom.models import Classroom
from rostering.forms import MAX_UPLOAD_BYTES
from rostering.models import RosterImport

from .bundles import enrollment, make_zip, school_year

pytestmark = pytest.mark.django_db
UPLOAD = reverse("rostering:upload")


@pytest.fixture
def admin_client():
    admin = teacher_sign_up(name="Mx Admin", email="admin@school.test", password="correct-horse-42")
    admin.is_staff = True
    admin.save()
    client = Client()
    client.force_login(admin)
    return client


def send(client, data: bytes, name="roster.zip", **extra):
    return client.post(UPLOAD, {"file": SimpleUploadedFile(name, data, "application/zip"), **extra})


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_upload_preview_apply_and_again(admin_client):
    page = admin_client.get(UPLOAD)
    assert page.status_code == 200 and "hx-disabled-elt" in page.content.decode()  # {% sends_once %}

    sent = send(admin_client, make_zip(school_year(), version="1.2"))
    assert sent.status_code == 302
    preview = admin_client.get(sent["Location"])
    words = text(preview)
    assert "5A Maths — New class" in words
    assert "2 students added: Ann Lee, Ben Diaz." in words
    assert "Teacher added: Rosa Rivera." in words
    assert Classroom.objects.count() == 0  # nothing until confirmed
    waiting = repr(RosterImport.objects.get().bundle)
    assert "Rosa" in waiting and "2016-03-04" not in waiting and "555-0100" not in waiting  # no demographics

    # Without the confirmation, nothing happens.
    digest = preview.context["form"]["digest"].value()
    refused = admin_client.post(sent["Location"], {"digest": digest})
    assert refused.status_code == 200 and Classroom.objects.count() == 0

    applied = admin_client.post(sent["Location"], {"digest": digest, "confirm": "on"})
    assert applied.status_code == 302
    assert Classroom.objects.count() == 2 and User.objects.filter(role="student").count() == 3
    listed = text(admin_client.get(UPLOAD))
    assert "The roster is applied." in listed and "3 students added" in listed
    assert RosterImport.objects.get().bundle == {}  # only the counts stay

    again = admin_client.get(send(admin_client, make_zip(school_year(), version="1.2"))["Location"])
    assert "Nothing changes: Numberdeck already matches this roster." in text(again)


def test_a_bad_bundle_lists_problems_by_file_and_line_and_changes_nothing(admin_client):
    data = school_year()
    data["enrollments"].append(enrollment("e-9", "class-a", "s-404", "student"))
    data["users"][2]["dateLastModified"] = "last week"
    response = send(admin_client, make_zip(data))
    words = text(response)
    assert response.status_code == 200
    assert "Nothing was changed" in words
    assert "users.csv 4 dateLastModified “last week” is not a date" in words
    assert "enrollments.csv 7 userSourcedId “s-404” is not in users.csv." in words
    assert RosterImport.objects.count() == 0 and User.objects.count() == 1


def test_not_a_zip_and_too_big(admin_client):
    assert "This is not a zip file." in text(send(admin_client, b"name\nAnn\n", name="class.csv"))
    too_big = send(admin_client, b"0" * (MAX_UPLOAD_BYTES + 1))
    assert "a roster can be at most 10.0 MB" in text(too_big)
    assert RosterImport.objects.count() == 0


def test_a_preview_that_changed_meanwhile_is_not_applied(admin_client):
    sent = send(admin_client, make_zip(school_year()))
    digest = admin_client.get(sent["Location"]).context["form"]["digest"].value()
    from rostering.services import roster_apply, roster_check

    bundle, source = roster_check(data=make_zip(school_year()))
    roster_apply(bundle=bundle, source_name=source)  # someone else applied it first
    refused = admin_client.post(sent["Location"], {"digest": digest, "confirm": "on"})
    assert "The classes changed since this preview." in text(refused)
    assert Classroom.objects.count() == 2


@pytest.mark.parametrize("who", ["teacher", "student", "anonymous"])
def test_only_administrators(who, make_teacher, student):
    client = Client()
    if who != "anonymous":
        client.force_login(make_teacher() if who == "teacher" else student)
    response = client.get(UPLOAD)
    assert response.status_code == (302 if who == "anonymous" else 403)
    assert send(client, make_zip(school_year())).status_code == (302 if who == "anonymous" else 403)
    assert Classroom.objects.count() == 1  # the student's own class only


def test_an_upload_never_applied_is_forgotten_after_a_day(admin_client):
    from datetime import timedelta

    from django.utils import timezone

    from privacy.tasks import retention_sweep

    send(admin_client, make_zip(school_year()))
    assert retention_sweep.apply().get()["roster_uploads_forgotten"] == 0
    RosterImport.objects.update(created_at=timezone.now() - timedelta(days=1, minutes=1))
    assert retention_sweep.apply().get()["roster_uploads_forgotten"] == 1
    assert RosterImport.objects.count() == 0
