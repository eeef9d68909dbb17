"""Retention with a moved clock: an archived class is erased ARCHIVED_CLASS_RETENTION_DAYS
after it was archived, never without its teachers being warned 14 days before (on their pages
and once by e-mail); restoring it cancels; running the job twice does nothing more."""
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from classroom.models import Classroom
from classroom.services import classroom_archive, classroom_restore
from privacy.models import ErasureWarning
from privacy.retention import retention_run
from privacy.tasks import retention_sweep
from tests.classroom.helpers import page_text

pytestmark = pytest.mark.django_db

ARCHIVED = datetime(2026, 3, 12, 9, 0, tzinfo=dt_timezone.utc)
ERASE = datetime(2027, 3, 12, 9, 0, tzinfo=dt_timezone.utc)  # 365 days later
WARN = ERASE - timedelta(days=14)
BANNER = ("Class 5B will be erased on 12 March 2027 because it was archived a year ago. "
          "Restore it to keep it, or export it first.")


@pytest.fixture
def archived(classroom, student, co_teacher):
    Classroom.objects.filter(pk=classroom.pk).update(archived_at=ARCHIVED)
    classroom.refresh_from_db()
    return classroom


def nothing(**more):
    return {"warned": 0, "emailed": 0, "erased": 0, **more}


def test_warned_two_weeks_before_not_earlier_and_only_once(archived, teacher, co_teacher):
    assert retention_run(now=WARN - timedelta(minutes=1)) == nothing()
    assert mail.outbox == []
    assert retention_run(now=WARN) == nothing(warned=1, emailed=1)
    assert retention_run(now=WARN + timedelta(days=1)) == nothing()  # again: nothing more
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert sorted(message.to) == sorted([teacher.email, co_teacher.email])
    assert message.subject == "Class 5B will be erased on 12 March 2027"
    assert BANNER in message.body


def test_the_teachers_pages_show_the_warning(client, archived, teacher, co_teacher):
    client.force_login(teacher)
    home = reverse("classroom:teacher_home")
    page = reverse("classroom:class_detail", args=[archived.pk])
    assert BANNER not in page_text(client.get(home))
    retention_run(now=WARN)
    assert BANNER in page_text(client.get(home))
    assert BANNER in page_text(client.get(page))
    client.force_login(co_teacher)
    assert BANNER in page_text(client.get(home))


def test_erased_at_the_date_not_before_and_running_twice_does_nothing_more(archived, student):
    retention_run(now=WARN)
    assert retention_run(now=ERASE - timedelta(minutes=1)) == nothing()
    assert Classroom.objects.filter(pk=archived.pk).exists()
    assert retention_run(now=ERASE) == nothing(erased=1)
    assert not Classroom.objects.filter(pk=archived.pk).exists()
    assert not User.objects.filter(pk=student.pk).exists()
    assert retention_run(now=ERASE) == nothing()
    assert len(mail.outbox) == 1


def test_a_class_never_warned_gets_its_two_weeks(archived):
    late = ERASE + timedelta(days=30)  # the job did not run for weeks
    assert retention_run(now=late) == nothing(warned=1, emailed=1)
    assert ErasureWarning.objects.get().erase_on == late + timedelta(days=14)
    assert retention_run(now=late + timedelta(days=13)) == nothing()
    assert Classroom.objects.filter(pk=archived.pk).exists()
    assert retention_run(now=late + timedelta(days=14)) == nothing(erased=1)


def test_restoring_cancels_and_archiving_again_starts_a_new_year(client, archived, teacher):
    retention_run(now=WARN)
    classroom_restore(classroom=archived)
    assert retention_run(now=ERASE + timedelta(days=1)) == nothing()
    assert Classroom.objects.filter(pk=archived.pk).exists()
    client.force_login(teacher)
    assert BANNER not in client.get(reverse("classroom:teacher_home")).content.decode()
    classroom_archive(classroom=archived)  # archived now: a year from today
    assert retention_run(now=ERASE + timedelta(days=2)) == nothing()
    assert Classroom.objects.filter(pk=archived.pk).exists()


def test_the_retention_is_a_setting(archived, settings):
    settings.ARCHIVED_CLASS_RETENTION_DAYS = 30
    moment = ARCHIVED + timedelta(days=16)
    assert retention_run(now=moment) == nothing(warned=1, emailed=1)
    assert "because it was archived 30 days ago" in mail.outbox[0].body


def test_archiving_says_how_long_the_class_is_kept(client, teacher, classroom, settings):
    settings.ARCHIVED_CLASS_RETENTION_DAYS = 730
    client.force_login(teacher)
    archive = reverse("classroom:class_archive", args=[classroom.pk])
    assert "for 2 years. After that, the class and its students' data are erased" in \
        client.get(archive).content.decode().replace("&#x27;", "'")
    client.post(archive)
    page = client.get(reverse("classroom:class_detail", args=[classroom.pk])).content.decode()
    assert "An archived class is erased 2 years after it was archived." in page


def test_an_active_class_is_never_touched(classroom, student):
    assert retention_run(now=datetime(2040, 1, 1, tzinfo=dt_timezone.utc)) == nothing()
    assert Classroom.objects.filter(pk=classroom.pk).exists()


def test_a_failed_email_is_sent_by_the_next_run(archived, settings, monkeypatch):
    def broken(*args, **kwargs):
        raise ConnectionRefusedError("no mail server")

    monkeypatch.setattr("privacy.retention.send_mail", broken)
    with pytest.raises(ConnectionRefusedError):
        retention_run(now=WARN)
    monkeypatch.undo()
    assert ErasureWarning.objects.get().emailed_at is None
    assert retention_run(now=WARN + timedelta(hours=1)) == nothing(emailed=1)
    assert len(mail.outbox) == 1


def test_the_daily_task_is_scheduled_and_runs(settings, archived):
    schedule = settings.CELERY_BEAT_SCHEDULE["archived-class-retention"]
    assert schedule["task"] == retention_sweep.name
    assert retention_sweep.apply().get() == nothing(roster_uploads_forgotten=0)  # today is long before 2027
