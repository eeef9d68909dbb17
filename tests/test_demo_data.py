import pytest
from django.core.management import call_command
from django.urls import reverse

from accounts.models import User
from classroom.demo import DEMO_CLASS_CODE, DEMO_EMAIL, DEMO_PASSWORD, DEMO_STUDENTS
from classroom.models import Classroom

pytestmark = pytest.mark.django_db


def test_demo_is_created_once_and_its_printed_credentials_work(client, capsys):
    call_command("load_demo")
    call_command("load_demo")
    printed = capsys.readouterr().out
    assert User.objects.filter(role="teacher").count() == 1
    assert Classroom.objects.count() == 1
    assert User.objects.filter(role="student").count() == 6
    assert DEMO_EMAIL in printed and DEMO_PASSWORD in printed and DEMO_CLASS_CODE in printed
    assert "Ann    Cat - Sun - Tree" in printed
    assert client.post(reverse("accounts:teacher_login"),
                       {"email": DEMO_EMAIL, "password": DEMO_PASSWORD}).status_code == 302
    client.post(reverse("accounts:logout"))
    name, sequence = DEMO_STUDENTS[1]
    ben = User.objects.get(display_name=name)
    url = reverse("accounts:join_pictures", args=[DEMO_CLASS_CODE, ben.pk])
    assert client.post(url, {"picture": sequence})["Location"] == reverse("classroom:student_home")
