"""Grades: a placed assignment's score goes to the platform's grade book when a game of it
finishes, and again when the skill report made after it changes the score, read back from the
test platform's score endpoint."""

import threading

import pytest
from celery.exceptions import Retry
from django.db import DatabaseError, close_old_connections, connection, transaction
from django.test import Client

from classroom.models import Assignment, Classroom
from devtools.planted import PlantedPlayer, games_for, parse_plant
from devtools.simulation import opponents, simulated_options
from games import registry
from games.models import Game
from games.services import game_apply_move
from games.services.bots import bot_action
from games.services.moves import game_start_for_assignment
from lti.grades import lti_grades_post_for_game
from lti.models import GradePost
from lti.selectors import lti_score
from lti.tasks import post_grades
from reports.models import NeedsHelpFlag
from reports.tasks import report_game
from tests.arena.conftest import finish_game
from tests.conftest import members, need

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


RULES = parse_plant("all.rule_errors=0.6")


def played_breaking_rules(assignment, student) -> Game:
    """A game of the assignment in which the student keeps trying moves the rules refuse (a
    "rule errors" flag once its report is made), finished without telling anyone yet."""
    spec = registry.spec_for(assignment.game)
    engine, player = spec.engine, PlantedPlayer([RULES])
    game = game_start_for_assignment(assignment=assignment, student=student, seed=3)
    seats = {seat.name: seat for seat in game.seats.all()}
    for _ in range(5000):
        seat = seats[engine.waiting_for(game.state)[0]]
        actions = (player.attempts(assignment.game, engine.view(game.state, seat.name))
                   if seat.user_id == student.pk else [bot_action(game, seat)])
        if engine.apply(game.state, seat.name, actions[-1])[0]["finished"]:
            return finish_game(game)
        for action in actions:
            result = game_apply_move(game_id=game.pk, seat=seat, action=action,
                                     expected_version=game.version, schedule_bots=False)
        assert result.applied
        game = result.game
    raise AssertionError("the game did not end")


def test_a_report_made_after_the_grade_posts_the_skill_part(test_platform, eager_celery,
                                                            django_capture_on_commit_callbacks):
    _teacher, assignment = placed(test_platform)
    spec = registry.spec_for(games_for([RULES])[0])  # a game a student can break the rules of
    Assignment.objects.filter(pk=assignment.pk).update(game=spec.key, options=simulated_options(spec),
                                                       bot_count=opponents(spec))
    assignment.refresh_from_db()
    student = lti_student()
    game = played_breaking_rules(assignment, student)

    # A real worker may post the grade before the game's report is made: the goal alone.
    post_grades.apply(args=[game.pk])
    assert [s["scoreGiven"] for s in test_platform.scores] == [50.0]

    with django_capture_on_commit_callbacks(execute=True):  # as when the report's task commits
        report_game.apply(args=[game.pk])  # the report, later: a rule-errors flag for the student
    assert NeedsHelpFlag.objects.filter(student=student, measure="all.rule_errors").exists()
    score, _complete = lti_score(assignment=assignment, student_id=student.pk)
    assert 35 < score < 65  # half the goal, and some of the skill measures flagged
    assert [s["scoreGiven"] for s in test_platform.scores] == [50.0, score]

    with django_capture_on_commit_callbacks(execute=True):
        report_game.apply(args=[game.pk])  # made again, nothing changed: nothing more is sent
    post_grades.apply(args=[game.pk])
    assert len(test_platform.scores) == 2
    assert GradePost.objects.get().score == score


class ScoresReceived(list):
    """The test platform's record of scores; while the first score is being received (the
    request is open), it waits for the other run to end, and looks whether Numberdeck still
    holds the student's grade row locked."""

    def __init__(self, other_done: threading.Event):
        super().__init__()
        self.other_done, self.row_was_free = other_done, None

    def append(self, score):
        if not self:
            self.other_done.wait(timeout=5)  # a run that waits for the row lock never ends here
            self.row_was_free = self._row_free()
        super().append(score)

    @staticmethod
    def _row_free() -> bool:
        try:
            with transaction.atomic():
                GradePost.objects.select_for_update(nowait=True).get()
            return True
        except (DatabaseError, GradePost.DoesNotExist):  # locked, or not even committed yet
            return False
        finally:
            connection.close()  # this thread's own connection (the platform's server thread)


@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_for_a_new_student_send_one_score_without_a_lock_held(test_platform):
    need(connection.vendor == "postgresql", "two runs at once need PostgreSQL's row locks (DATABASE_URL)")
    _teacher, assignment = placed(test_platform)
    game = finish_game(game_start_for_assignment(assignment=assignment, student=lti_student(), seed=3))
    start, one_done, results, errors = threading.Barrier(2), threading.Event(), [], []
    test_platform.scores = ScoresReceived(one_done)

    def run():
        try:
            start.wait(timeout=10)
            results.append(post_grades.apply(args=[game.pk], throw=True).get())
        except Exception as error:  # noqa: BLE001 (reported below)
            errors.append(error)
        finally:
            one_done.set()
            close_old_connections()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == [] and results == [0, 0]
    assert [s["scoreGiven"] for s in test_platform.scores] == [50.0]
    # The other run ended while the score was on its way: the row was not locked meanwhile.
    assert test_platform.scores.row_was_free is True
    post = GradePost.objects.get()
    assert post.state == "posted" and post.score == 50.0 and post.sending_at is None
