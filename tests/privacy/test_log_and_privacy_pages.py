"""What a teacher and an administrator read in the access log, and the privacy page."""
import html
import re

import pytest
from django.urls import reverse

from accounts.services import teacher_sign_up
from privacy.models import AccessLog

pytestmark = pytest.mark.django_db


def words(response) -> str:
    """The page's text as a reader sees it: no tags, one space between words."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def visit_reports(client, teacher, classroom, student):
    client.force_login(teacher)
    client.get(reverse("reports:student", args=[classroom.pk, student.pk]))


def test_a_teacher_reads_their_classs_log_only(client, teacher, classroom, student, other_teacher,
                                                other_classroom, other_student, co_teacher):
    visit_reports(client, co_teacher, classroom, student)
    visit_reports(client, other_teacher, other_classroom, other_student)
    client.force_login(teacher)
    class_page = client.get(reverse("classroom:class_detail", args=[classroom.pk])).content.decode()
    log_url = reverse("privacy:class_access_log", args=[classroom.pk])
    assert f'href="{log_url}"' in class_page  # linked from the class page
    page = words(client.get(log_url))
    assert "Ms Co viewed Ann's skill report" in page
    assert "Olga" not in page and other_teacher.display_name not in page
    assert AccessLog.objects.count() == 2  # reading the log is not itself logged


def test_an_administrator_reads_all_of_it(client, teacher, classroom, student, other_teacher,
                                          other_classroom, other_student):
    visit_reports(client, teacher, classroom, student)
    visit_reports(client, other_teacher, other_classroom, other_student)
    admin = teacher_sign_up(name="Mx Admin", email="admin@school.test", password="correct-horse-42")
    admin.is_staff = True
    admin.save()
    client.force_login(admin)
    # The privacy page leads an administrator (only) to the whole log.
    assert f'href="{reverse("privacy:access_log")}"' in client.get(reverse("privacy:privacy")).content.decode()
    page = words(client.get(reverse("privacy:access_log")))
    assert "Ms Rivera viewed Ann's skill report" in page
    assert f"{other_teacher.display_name} viewed Olga's skill report" in page


def test_an_empty_log_says_so(client, teacher, classroom):
    client.force_login(teacher)
    page = words(client.get(reverse("privacy:class_access_log", args=[classroom.pk])))
    assert "Nobody has opened a child's reports in this class yet." in page


def test_the_privacy_page_is_linked_from_every_page_and_states_the_retention(client, settings):
    settings.ARCHIVED_CLASS_RETENTION_DAYS = 730
    home = client.get(reverse("home")).content.decode()
    assert reverse("privacy:access_log") not in client.get(reverse("privacy:privacy")).content.decode()
    assert f'href="{reverse("privacy:privacy")}"' in home
    page = words(client.get(reverse("privacy:privacy")))
    assert "kept for 2 years (730 days)" in page
    assert "No third party receives anything" in page
    assert "deleted from the server 7 days after" in page
    assert "Sign-ins last at most 14 days" in page
