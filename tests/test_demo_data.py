import pytest
from django.core.management import call_command
from django.urls import reverse

from accounts.models import User
from classroom.models import Assignment, Classroom
from devtools.demo import (DEMO_CLASS_CODE, DEMO_EMAIL, DEMO_GROUP_CODE, DEMO_GROUP_NAME, DEMO_PASSWORD,
                           DEMO_STUDENTS, demo_assignments)
from games.models import Game
from tests.classroom.helpers import page_text

pytestmark = pytest.mark.django_db


def test_demo_is_created_once_and_its_printed_credentials_work(client, capsys):
    call_command("load_demo")
    call_command("load_demo")
    printed = capsys.readouterr().out
    assert User.objects.filter(role="teacher").count() == 1
    assert Classroom.objects.count() == 2  # the class, and a group two of its children are also in
    assert User.objects.filter(role="student").count() == 6
    assert f"Ann and Cal are also in “{DEMO_GROUP_NAME}”: class code {DEMO_GROUP_CODE}" in printed
    assert DEMO_EMAIL in printed and DEMO_PASSWORD in printed and DEMO_CLASS_CODE in printed
    assert "Ann    Cat - Sun - Tree" in printed
    assert client.post(reverse("accounts:teacher_login"),
                       {"email": DEMO_EMAIL, "password": DEMO_PASSWORD}).status_code == 302
    client.post(reverse("accounts:logout"))
    name, sequence = DEMO_STUDENTS[1]
    ben = User.objects.get(display_name=name)
    url = reverse("classroom:join_pictures", args=[DEMO_CLASS_CODE, ben.pk])
    assert client.post(url, {"picture": sequence})["Location"] == reverse("classroom:student_home")
    # Ann signs in through the group's code too, and sees both classes' work.
    name, sequence = DEMO_STUDENTS[0]
    ann = User.objects.get(display_name=name)
    url = reverse("classroom:join_pictures", args=[DEMO_GROUP_CODE, ann.pk])
    assert client.post(url, {"picture": sequence})["Location"] == reverse("classroom:student_home")
    home = page_text(client.get(reverse("classroom:student_home")))
    assert f"For {DEMO_GROUP_NAME}" in home and "Catch-up: " in home and "For Demo class 5B" in home


def test_demo_has_assignments_and_real_finished_games_so_no_page_is_empty(client):
    call_command("load_demo")
    games_before = Game.objects.count()
    call_command("load_demo")  # idempotent: no second set of games
    assert Game.objects.count() == games_before
    classroom = Classroom.objects.get(join_code=DEMO_CLASS_CODE)
    wanted = demo_assignments()
    assert classroom.assignments.count() == len(wanted) == 2
    games_wanted = {fields["title"]: sum(per_student.values()) for fields, per_student in wanted}
    for assignment in Assignment.objects.filter(classroom=classroom):
        games = assignment.games.all()
        # Every registered game has its engine, so every demo assignment has its games.
        assert games.count() == games_wanted[assignment.title]
        for game in games:
            # A real game: the stored state is a finished engine state whose winners won a seat.
            assert game.status == "finished" and game.state["finished"] and game.finished_at
            winners = {s.name for s in game.seats.all() if s.is_winner}
            assert winners == set(game.state["winners"]) and game.version == game.moves.count() > 0
    assert Game.objects.filter(key="smooth_operator").exists()
    client.post(reverse("accounts:teacher_login"), {"email": DEMO_EMAIL, "password": DEMO_PASSWORD})
    page = client.get(reverse("classroom:class_detail", args=[classroom.pk])).content.decode()
    assert "No students yet" not in page and "No assignments yet" not in page
    assert "5 of 5 games" in page  # Ann finished the warm-up
    client.post(reverse("accounts:logout"))
    ann = User.objects.get(display_name="Ann")
    client.force_login(ann)
    home = client.get(reverse("classroom:student_home")).content.decode()
    assert "Smooth Operator warm-up" in home and "You haven&#x27;t finished a game yet" not in home
