"""The student's page: my assignments with progress, free play, my recent games; only mine."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom import services
from games import registry
from games.models import Game
from tests.classroom.helpers import page_text as text

pytestmark = pytest.mark.django_db


@pytest.fixture
def home(client, student):
    client.force_login(student)
    return lambda: client.get(reverse("classroom:student_home"))


def test_no_work_yet_says_what_happens_next(home):
    page = text(home())
    assert "No assignments right now. When your teacher gives you one, it will show up here." in page
    assert "You haven't finished a game yet." in page


def test_an_assignment_with_progress_stars_and_a_play_button(home, student, assignment, make_game):
    make_game(assignment, student)
    make_game(assignment, student, won=True)
    response = home()
    page = text(response)
    assert "Warm-up" in page and "Play 5 games" in page and "2 of 5 games" in page
    assert 'aria-label="2 stars of 5"' in response.content.decode()
    assignments = page.split("Free play")[0]
    assert assignments.count("★") == 2 and assignments.count("☆") == 3
    assert reverse("classroom:assignment_start", args=[assignment.pk]) in response.content.decode()
    assert "Well done!" not in page


def test_a_finished_goal_earns_a_badge(home, student, make_assignment, classroom, make_game):
    work = make_assignment(classroom, title="Two wins", goal="win", goal_count=2)
    make_game(work, student, won=True)
    make_game(work, student, won=True)
    page = text(home())
    assert "2 of 2 wins" in page and "Well done! You finished this one." in page and "Play again" in page


def test_only_my_open_assignments_show(home, classroom, student, make_student, make_assignment,
                                       other_classroom):
    ben = make_student(classroom, "Ben")
    make_assignment(classroom, title="For Ben only", students=[ben])
    make_assignment(classroom, title="For Ann and Ben", students=[student, ben])
    closed = make_assignment(classroom, title="Closed work")
    services.assignment_close(assignment=closed)
    make_assignment(other_classroom, title="Other class work")
    page = text(home())
    assert "For Ann and Ben" in page
    for hidden in ("For Ben only", "Closed work", "Other class work"):
        assert hidden not in page


def test_due_work_comes_first_soonest_first(home, classroom, make_assignment):
    today = timezone.localdate()
    make_assignment(classroom, title="No date")
    make_assignment(classroom, title="Due later", due_on=today + timedelta(days=9))
    make_assignment(classroom, title="Due soon", due_on=today + timedelta(days=2))
    page = text(home())
    assert page.index("Due soon") < page.index("Due later") < page.index("No date")


def test_free_play_lists_every_game_unless_the_teacher_switched_it_off(home, classroom):
    response = home()
    page = text(response)
    for game in registry.all_games():
        assert str(game.name) in page and str(game.pitch) in page and str(game.players_label) in page
        # Play starts a game with the play feature's free-play view (a POST with CSRF).
        form = f'<form method="post" action="{reverse("games:free_play_start", args=[game.key])}"'
        assert form in response.content.decode()
    services.classroom_set_free_play(classroom=classroom, free_play=False)
    page = text(home())
    assert "Free play is switched off for your class right now." in page
    assert "The Multiplication Game" not in page


def test_my_recent_games_newest_first_with_the_result_and_never_a_classmates(
        home, student, classroom, assignment, make_student, make_game):
    ben = make_student(classroom, "Ben")
    now = timezone.now()
    make_game(assignment, student, won=True, score=42, finished_at=now - timedelta(days=2))
    make_game(None, student, won=False, score=7, finished_at=now - timedelta(hours=1))
    make_game(assignment, ben, won=True, score=99, finished_at=now)
    page = text(home())
    recent = page.split("My recent games")[1]
    assert recent.index("Free play") < recent.index("Warm-up")
    assert "Played · 7 points" in recent and "You won · 42 points" in recent
    assert "99" not in recent and "Ben" not in page


def test_play_starts_the_assignments_game_and_resumes_it(client, student, other_student, assignment):
    url = reverse("classroom:assignment_start", args=[assignment.pk])
    client.force_login(student)
    page = client.get(url)
    assert page.status_code == 200 and "Start the game" in text(page)
    assert not Game.objects.filter(assignment=assignment).exists()
    started = client.post(url)
    game = Game.objects.get(assignment=assignment, seats__user=student)
    assert started["Location"] == reverse("games:game", args=[game.pk])
    assert game.key == assignment.game and game.options == engine_options(assignment)
    bots = [s for s in game.seats.all() if s.bot_level]
    assert len(bots) == assignment.bot_count and {b.bot_level for b in bots} == {assignment.bot_level}
    # An unfinished game is resumed, never duplicated.
    assert client.get(url)["Location"] == reverse("games:game", args=[game.pk])
    assert client.post(url)["Location"] == reverse("games:game", args=[game.pk])
    assert Game.objects.filter(assignment=assignment).count() == 1
    client.force_login(other_student)
    assert client.get(url).status_code == 404 and client.post(url).status_code == 404


def engine_options(assignment):
    engine = registry.spec_for(assignment.game).engine
    return engine.resolve_options(assignment.options, 1 + assignment.bot_count)


def test_visiting_records_last_seen(home, student):
    assert student.last_seen_at is None
    home()
    student.refresh_from_db()
    assert student.last_seen_at is not None


def test_an_unfinished_game_can_be_picked_up_from_home(client, student, assignment):
    client.force_login(student)
    client.post(reverse("classroom:assignment_start", args=[assignment.pk]))
    game = Game.objects.get(assignment=assignment)
    response = client.get(reverse("classroom:student_home"))
    assert "Carry on playing" in text(response)
    assert f'href="{reverse("games:game", args=[game.pk])}"' in response.content.decode()
