"""python manage.py oneroster BUNDLE.zip [--apply]: the preview printed, applied with --apply,
problems listed with a failing exit status and nothing changed."""

import io

import pytest
from django.core.management import CommandError, call_command

from accounts.models import User
from classroom.models import Classroom

from .bundles import enrollment, make_zip, school_year

pytestmark = pytest.mark.django_db


def run(path, *args):
    out, err = io.StringIO(), io.StringIO()
    call_command("oneroster", str(path), *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_preview_then_apply_then_nothing_changes(tmp_path):
    path = tmp_path / "roster.zip"
    path.write_bytes(make_zip(school_year(), version="1.2"))
    out, _err = run(path)
    assert "roster.zip: OneRoster 1.2, source “Hillside SIS”." in out
    assert "5A Maths — New class" in out
    assert "  2 students added: Ann Lee, Ben Diaz." in out
    assert "  Teacher added: Rosa Rivera." in out
    assert Classroom.objects.count() == 0

    out, _err = run(path, "--apply")
    assert "Applied." in out
    assert Classroom.objects.count() == 2 and User.objects.filter(role="student").count() == 3

    out, _err = run(path)
    assert "Nothing changes: Numberdeck already matches this roster." in out


def test_a_bad_bundle_lists_its_problems_and_changes_nothing(tmp_path):
    data = school_year()
    data["enrollments"].append(enrollment("e-9", "class-a", "s-404", "student"))
    path = tmp_path / "roster.zip"
    path.write_bytes(make_zip(data))
    err = io.StringIO()
    with pytest.raises(CommandError, match="1 problem"):
        call_command("oneroster", str(path), "--apply", stdout=io.StringIO(), stderr=err)
    assert "enrollments.csv, line 7: userSourcedId “s-404” is not in users.csv." in err.getvalue()
    assert User.objects.count() == 0 and Classroom.objects.count() == 0


def test_not_a_zip_exits_with_status_1(tmp_path):
    path = tmp_path / "bad.zip"
    path.write_bytes(b"not a zip")
    err = io.StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("oneroster", str(path), stdout=io.StringIO(), stderr=err)
    assert failed.value.returncode == 1  # manage.py exits with it
    assert "This is not a zip file." in err.getvalue()
