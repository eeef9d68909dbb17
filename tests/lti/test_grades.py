"""Grades: a placed assignment's score goes to the platform's grade book when a game of it
finishes, read back from the test platform's score endpoint."""

import pytest
from celery.exceptions import Retry
from django.test import Client

from classroom.models import Assignment, Classroom
from games.models import Game
from games.services.moves import game_start_for_assignment
from lti.grades import lti_grades_post_for_game
from lti.models import GradePost
from lti.tasks import post_grades
from tests.arena.conftest import finish_game
from tests.conftest import members

from .services_platform import deep_link, platform_launch, running_platform


def placed(platform, *, goal_count: int = 2):
    """A teacher places an assignment of 2 games; one student comes through the course."""
    teacher, student = Client(), Client()
    platform_launch(teacher, platform, person="teacher")
    deep_link(teacher, platform, Classroom.objects.get(), goal_count=goal_count)
    platform_launch(student, platform, person="student", activity=0)
    return teacher, Assignment.objects.get()


def play(assignment, student) -> Game:
    return finish_game(game_start_for_assignment(assignment=assignment, student=student, seed=3), signal=True)


def lti_student():
    return next(s for s in members(Classroom.objects.get()) if s.username.startswith("lti-"))


def test_each_finished_game_posts_the_changed_score_once(test_platform, eager_celery, make_student):
    teacher, assignment = placed(test_platform)
    other = make_student(Classroom.objects.get(), "Not Linked")  # added on Numberdeck
    [line_item] = test_platform.line_items

    game = play(assignment, lti_student())
    play(assignment, other)
    [first] = test_platform.scores_of(line_item)
    assert first["userId"] == "demo-student" and first["scoreGiven"] == 50.0 and first["scoreMaximum"] == 100
    assert first["activityProgress"] == "InProgress"
    post_grades.delay(game.pk)  # the task again: the score has not changed, nothing is sent
    assert len(test_platform.scores) == 1

    play(assignment, lti_student())
    assert [s["scoreGiven"] for s in test_platform.scores_of(line_item)] == [50.0, 100.0]
    assert test_platform.scores[-1]["activityProgress"] == "Completed"
    assert not GradePost.objects.filter(student=other).exists()
    page = teacher.get(f"/lti/assignments/{GradePost.objects.get().placement_id}/").content.decode()
    assert "100 / 100" in page and "Posted" in page


def test_the_line_item_is_made_where_the_platform_made_none(eager_celery, db):
    platform = running_platform(lineitems=False)  # like Brightspace
    try:
        _teacher, assignment = placed(platform)
        assert platform.line_items == {}
        play(assignment, lti_student())
        [(url, item)] = platform.line_items.items()
        assert item["label"] == assignment.title and item["scoreMaximum"] == 100
        assert item["tag"] == f"numberdeck-assignment-{assignment.pk}"
        assert [s["scoreGiven"] for s in platform.scores_of(url)] == [50.0]
    finally:
        platform.stop()


def test_a_failed_post_is_retried_by_the_task(test_platform):
    _teacher, assignment = placed(test_platform)
    game = finish_game(game_start_for_assignment(assignment=assignment, student=lti_student(), seed=3))
    test_platform.fail_scores = 1  # the platform is down for one request
    with pytest.raises(Retry):  # the task asks Celery to run it again later
        post_grades.apply(args=[game.pk], throw=True)
    assert GradePost.objects.get().state == "failed" and test_platform.scores == []
    post_grades.apply(args=[game.pk])  # the retry
    post_grades.apply(args=[game.pk])  # and once more: nothing new to send
    assert [s["scoreGiven"] for s in test_platform.scores] == [50.0]
    assert GradePost.objects.get().state == "posted"


def test_a_failure_is_shown_to_the_teacher_who_can_post_again(test_platform):
    teacher, assignment = placed(test_platform)
    game = finish_game(game_start_for_assignment(assignment=assignment, student=lti_student(), seed=3))
    test_platform.fail_scores = 1
    [failed] = lti_grades_post_for_game(game_id=game.pk)
    assert failed.state == "failed" and "503" in failed.error and test_platform.scores == []
    page = teacher.get(f"/lti/assignments/{failed.placement_id}/").content.decode()
    assert "Not posted" in page and "503" in page

    response = teacher.post(f"/lti/grades/{failed.pk}/post-again/", follow=True)
    assert "grade is posted" in response.content.decode()
    assert [s["scoreGiven"] for s in test_platform.scores] == [50.0]
    assert GradePost.objects.get().state == "posted"
