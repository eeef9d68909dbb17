"""The access log: each declared page, visited by a teacher, writes exactly one readable row;
refusals, students and form posts write none; and no URL that names a student escapes the
declaration (privacy/access_log.py)."""
import re
from datetime import datetime, timedelta, timezone as dt_timezone
from unittest import mock

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from arena.services.lifecycle import arena_create
from games.models import Game
from games.services import SeatSpec, game_create
from privacy.access_log import LOGGED, NOT_LOGGED, SAME_VISIT
from privacy.erasure import erase_student
from privacy.models import AccessLog
from reports.exports.jobs import export_start
from tests.reports.showing import make_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


@pytest.fixture
def world(teacher, classroom, student, settings, tmp_path, django_capture_on_commit_callbacks):
    settings.MEDIA_ROOT = tmp_path
    game, _ = make_game(classroom, student, moves=0)  # its replay is the deal (no fake moves to replay)
    # A game being played: its page shows a teacher every hand (the live watch view).
    live = game_create(key="smooth_operator", classroom=classroom, seed=9, options={"target": 200},
                       seats=[SeatSpec(student.display_name, user=student), SeatSpec("Robo", bot_level="beginner")])
    with django_capture_on_commit_callbacks(execute=True):
        job = export_start(classroom=classroom, requested_by=teacher, export_format="csv")
    arena = arena_create(teacher=teacher, classroom=classroom, title="Friday arena",
                         key="smooth_operator", options={"target": 200}, minutes=10,
                         mode="points", table_size=None)
    return {"game": game, "live": live, "job": job, "arena": arena}


def declared_visits(world, classroom, student):
    """One GET of each declared page, showing this child (or their class)."""
    c, s = classroom.pk, student.pk
    return {
        "reports:student": (reverse("reports:student", args=[c, s]), {}),
        "reports:student_pdf": (reverse("reports:student_pdf", args=[c, s]), {}),
        "reports:moves": (reverse("reports:moves", args=[c]), {"measure": "so.lowest_operator", "student": s}),
        "reports:facts": (reverse("reports:facts", args=[c]), {"student": s}),
        "reports:skills_csv": (reverse("reports:skills_csv", args=[c]), {}),
        "reports:job_download": (reverse("reports:job_download", args=[c, world["job"].pk]), {}),
        "classroom:student_detail": (reverse("classroom:student_detail", args=[s]), {}),
        "classroom:sign_in_cards": (reverse("classroom:sign_in_cards", args=[c]), {}),
        "classroom:sign_in_cards_pdf": (reverse("classroom:sign_in_cards_pdf", args=[c]), {}),
        "games:replay": (reverse("games:replay", args=[world["game"].pk]), {}),
        "games:game": (reverse("games:game", args=[world["live"].pk]), {}),
        "arena:standings_csv": (reverse("arena:standings_csv", args=[world["arena"].pk]), {}),
        "privacy:student_export": (reverse("privacy:student_export", args=[s]), {}),
        "privacy:class_export": (reverse("privacy:class_export", args=[c]), {}),
    }


def test_every_declared_page_logs_exactly_one_row(client, world, teacher, classroom, student):
    visits = declared_visits(world, classroom, student)
    assert set(visits) == set(LOGGED), "a declared page has no visit in this test"
    client.force_login(teacher)
    for name, (url, query) in visits.items():
        before = AccessLog.objects.count()
        response = client.get(url, query)
        assert response.status_code == 200, name
        assert AccessLog.objects.count() == before + 1, name
        row = AccessLog.objects.first()
        assert (row.viewer, row.classroom, row.what) == (teacher, classroom, LOGGED[name].what), name
        if row.about_class:
            assert row.student is None
        else:
            assert row.student == student, name


def test_the_log_reads_as_a_sentence(client, teacher, classroom, student):
    student.display_name = "Maya R."
    student.save()
    client.force_login(teacher)
    at = datetime(2026, 11, 26, 14, 3, tzinfo=dt_timezone.utc)
    with mock.patch("django.utils.timezone.now", return_value=at):
        client.get(reverse("reports:student", args=[classroom.pk, student.pk]))
        client.get(reverse("reports:skills_csv", args=[classroom.pk]))
    assert [e.sentence for e in AccessLog.objects.order_by("pk")] == [
        "Ms Rivera viewed Maya R.'s skill report, 26 Nov 14:03",
        "Ms Rivera exported Class 5B's skills table (CSV), 26 Nov 14:03",
    ]
    # Once the child is erased, the row stays and no longer names them.
    erase_student(student=student, erased_by=teacher)
    assert AccessLog.objects.order_by("pk").first().sentence == \
        "Ms Rivera viewed a former student's skill report, 26 Nov 14:03"


def test_a_view_repeated_within_a_visit_is_one_row_an_export_is_always_logged(
        client, world, teacher, classroom, student):
    client.force_login(teacher)
    replay = reverse("games:replay", args=[world["game"].pk])
    start = datetime(2026, 11, 26, 14, 0, tzinfo=dt_timezone.utc)
    for minute, turn in ((0, 0), (1, 1), (2, 2)):  # stepping through the replay
        with mock.patch("django.utils.timezone.now", return_value=start + timedelta(minutes=minute)):
            client.get(replay, {"turn": turn})
    pdf = reverse("reports:student_pdf", args=[classroom.pk, student.pk])
    client.get(pdf)
    client.get(pdf)
    assert list(AccessLog.objects.order_by("pk").values_list("what", flat=True)) == [
        "game replay", "progress report (PDF)", "progress report (PDF)"]
    with mock.patch("django.utils.timezone.now", return_value=start + SAME_VISIT + timedelta(minutes=1)):
        client.get(replay)
    assert AccessLog.objects.filter(what="game replay").count() == 2  # a new visit


def test_a_teacher_watching_a_game_live_or_opening_a_finished_one_is_logged(
        client, world, teacher, classroom, student):
    client.force_login(teacher)
    live = reverse("games:game", args=[world["live"].pk])
    page = client.get(live)
    assert page.status_code == 200 and "teacher view" in page.content.decode()
    assert list(AccessLog.objects.values_list("what", "student", "classroom")) == [
        (LOGGED["games:game"].what, student.pk, classroom.pk)]
    Game.objects.filter(pk=world["live"].pk).update(status=Game.Status.FINISHED)
    later = datetime.now(dt_timezone.utc) + SAME_VISIT + timedelta(minutes=1)
    with mock.patch("django.utils.timezone.now", return_value=later):  # another visit, the game over
        assert client.get(live).status_code == 200
    assert AccessLog.objects.filter(what=LOGGED["games:game"].what, student=student).count() == 2


def test_a_child_opening_their_own_game_is_not_logged(client, world, student):
    client.force_login(student)
    assert client.get(reverse("games:game", args=[world["live"].pk])).status_code == 200
    assert AccessLog.objects.count() == 0


def test_students_refusals_and_posts_are_not_logged(client, world, teacher, classroom, student,
                                                    other_teacher):
    client.force_login(student)  # a child opens their own game's replay
    assert client.get(reverse("games:replay", args=[world["game"].pk])).status_code == 200
    client.force_login(other_teacher)  # not their class: 404
    assert client.get(reverse("reports:student", args=[classroom.pk, student.pk])).status_code == 404
    client.force_login(teacher)
    # The class's overview of moves (no ?student=) is not one child's page.
    assert client.get(reverse("reports:moves", args=[classroom.pk]),
                      {"measure": "so.lowest_operator"}).status_code == 200
    # A post (renaming the child) is a change, not a view.
    assert client.post(reverse("classroom:student_detail", args=[student.pk]),
                       {"name": "Annie"}).status_code == 302
    assert AccessLog.objects.count() == 0


# ----- the declaration covers every URL that names a student ---------------------------------

# A URL names a student when one of its parameters does, or when its address is a student's
# own ("teach/students/<pk>/").
STUDENT_KWARGS = re.compile(r"<(?:\w+:)?(student_id|user_id|player_id|child_id|pupil_id)>")
STUDENT_PK = re.compile(r"(students|pupils|children)/<(?:\w+:)?pk>")


def every_url(resolver=None, namespace="", prefix=""):
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            ns = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from every_url(entry, ns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{namespace}{entry.name}", prefix + str(entry.pattern)


def names_a_student(route: str) -> bool:
    return bool(STUDENT_KWARGS.search(route) or STUDENT_PK.search(route))


def test_every_url_that_names_a_student_is_logged_or_listed_as_not():
    routes = dict(every_url())
    naming = {name for name, route in routes.items() if names_a_student(route)}
    assert naming - set(LOGGED) - set(NOT_LOGGED) == set(), \
        "declare these in privacy/access_log.py LOGGED, or in NOT_LOGGED with the reason"
    assert not set(LOGGED) & set(NOT_LOGGED)
    assert set(LOGGED) | set(NOT_LOGGED) <= set(routes), "a declared URL name does not exist"


def test_the_coverage_check_catches_an_undeclared_student_url():
    assert names_a_student("teach/classes/<int:pk>/reports/students/<int:student_id>/")
    assert names_a_student("teach/students/<int:pk>/")
    assert names_a_student("arena/<int:arena_id>/players/<int:player_id>/out/")
    assert not names_a_student("teach/classes/<int:pk>/")
