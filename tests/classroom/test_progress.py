"""Progress counts: finished games of the assignment where the student had a seat, in a fixed
number of queries however many students the class has."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from classroom import selectors
from classroom.models import Assignment
from classroom.progress import Progress
from games.models import Game
from tests.classroom.helpers import page_text as text

pytestmark = pytest.mark.django_db


def cell(progress, student, assignment):
    row = next(r for r in progress.rows if r.student == student)
    return row.cells[progress.assignments.index(assignment)]


def test_counts_only_finished_games_of_that_assignment(classroom, student, assignment, make_assignment, make_game):
    other_work = make_assignment(classroom, title="Other")
    make_game(assignment, student, won=True)
    make_game(assignment, student)
    make_game(assignment, student, status=Game.Status.ACTIVE)
    make_game(assignment, student, status=Game.Status.ABANDONED)
    make_game(other_work, student)
    make_game(None, student)  # free play
    progress = selectors.class_progress(classroom=classroom)
    mine = cell(progress, student, assignment)
    assert (mine.played, mine.won, mine.text) == (2, 1, "2 of 5 games")
    assert cell(progress, student, other_work).played == 1
    assert progress.rows[0].student.games_played == 4


def test_chosen_students_only_have_cells_for_their_work(classroom, student, make_student, make_assignment):
    ben = make_student(classroom, "Ben")
    only_ben = make_assignment(classroom, title="Ben's", students=[ben])
    progress = selectors.class_progress(classroom=classroom)
    assert cell(progress, student, only_ben) is None
    assert cell(progress, ben, only_ben).text == "0 of 5 games"


def test_closed_assignments_and_removed_students_leave_the_grid(classroom, student, make_student, assignment,
                                                                make_assignment):
    closed = make_assignment(classroom, title="Closed")
    closed.closed_at = timezone.now()
    closed.save()
    gone = make_student(classroom, "Gone")
    gone.is_active = False
    gone.save()
    progress = selectors.class_progress(classroom=classroom)
    assert progress.assignments == [assignment]
    assert [r.student for r in progress.rows] == [student]


@pytest.mark.parametrize("goal, count, played, won, words, complete", [
    ("play", 5, 2, 0, "2 of 5 games", False),
    ("play", 1, 1, 0, "1 of 1 game", True),
    ("win", 3, 4, 2, "2 of 3 wins", False),
    ("win", 2, 3, 2, "2 of 2 wins", True),
])
def test_progress_in_words(goal, count, played, won, words, complete):
    progress = Progress(assignment=Assignment(goal=goal, goal_count=count), played=played, won=won)
    assert (progress.text, progress.complete) == (words, complete)
    assert progress.stars_earned + progress.stars_left == count
    assert progress.stars_earned == min(won if goal == "win" else played, count)


def test_play_until_a_date_is_complete_once_the_date_has_passed():
    today = timezone.localdate()
    running = Progress(assignment=Assignment(goal="until", goal_until=today + timedelta(days=2)), played=3)
    assert running.text.startswith("3 games played (until ") and not running.complete
    assert running.target is None and running.stars_left == 0 and running.stars_earned == 3
    done = Progress(assignment=Assignment(goal="until", goal_until=today - timedelta(days=1)), played=1)
    assert done.complete


def make_class_with(count, make_student, classroom, assignment, make_game):
    for n in range(count):
        kid = make_student(classroom, f"Kid {n}")
        make_game(assignment, kid, won=n % 2 == 0)


def test_the_class_page_grid_uses_a_fixed_number_of_queries(client, teacher, classroom, assignment,
                                                            make_assignment, make_student, make_game,
                                                            django_assert_max_num_queries):
    make_assignment(classroom, title="Second", students=[])
    url = reverse("classroom:class_progress", args=[classroom.pk])
    client.force_login(teacher)
    make_class_with(2, make_student, classroom, assignment, make_game)
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    make_class_with(30, make_student, classroom, assignment, make_game)
    with CaptureQueriesContext(connection) as many:
        response = client.get(url)
    assert len(many) == len(few)
    assert text(response).count("1 of 5 games") == 32
    with django_assert_max_num_queries(10):
        client.get(reverse("classroom:class_detail", args=[classroom.pk]))


def test_the_student_home_uses_a_fixed_number_of_queries(client, classroom, student, make_assignment, make_game):
    client.force_login(student)
    first = make_assignment(classroom, title="One")
    make_game(first, student)
    client.get(reverse("classroom:student_home"))  # records "last seen", which later visits skip
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("classroom:student_home"))
    for n in range(6):
        work = make_assignment(classroom, title=f"Work {n}")
        make_game(work, student, won=True)
    with CaptureQueriesContext(connection) as seven:
        response = client.get(reverse("classroom:student_home"))
    assert len(seven) == len(one)
    assert "Work 5" in text(response)


def test_the_grid_refreshes_itself_in_place(client, teacher, classroom, student, assignment, make_game):
    client.force_login(teacher)
    page = client.get(reverse("classroom:class_detail", args=[classroom.pk])).content.decode()
    progress_url = reverse("classroom:class_progress", args=[classroom.pk])
    assert f'hx-get="{progress_url}"' in page and "every 20s" in page
    make_game(assignment, student)
    fragment = client.get(progress_url, HTTP_HX_REQUEST="true")
    assert "<html" not in fragment.content.decode()
    assert fragment.content.decode().lstrip().startswith('<div id="class-progress"')
    assert "1 of 5 games" in text(fragment)


def test_last_seen_is_shown_in_words(client, teacher, classroom, student, make_student):
    make_student(classroom, "Ben")
    student.last_seen_at = timezone.now() - timedelta(hours=3, minutes=5)
    student.save()
    client.force_login(teacher)
    page = text(client.get(reverse("classroom:class_progress", args=[classroom.pk])))
    assert "Ann 3 hours ago" in page and "Ben Not yet" in page
