"""The morning bench (devtools/bench/morning.py) reads the pages as a browser sees them: these
check its readers against the real pages, so a template change that would blind the bench
fails here, in a second, rather than in a ten-minute run."""

import os
import sys

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.models import Assignment
from classroom.services.assignments import assignment_create
from games.models import Game, Seat
from games.services.bots import play_bot_moves

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "devtools", "bench"))

from morning_pages import TODAY, socket_path, split_parts, whole_moves  # noqa: E402
from morning_http import form_with, forms  # noqa: E402

pytestmark = pytest.mark.django_db


def test_a_started_game_offers_whole_moves_at_its_version(client, teacher, classroom, student):
    assignment = assignment_create(
        classroom=classroom, created_by=teacher, title="", game="smooth_operator", preset="quick",
        opponents=Assignment.Opponents.BOTS, bot_level="beginner", bot_count=1, mental_math=False,
        goal=Assignment.Goal.PLAY, goal_count=3, goal_until=None, due_on=None)
    client.force_login(student)
    start = reverse("classroom:assignment_start", args=[assignment.pk])
    play_page = client.get(start).content.decode()
    assert form_with(play_page, action="") is not None  # "Start the game" posts to its own page
    table_url = client.post(start)["Location"]
    # Whoever was dealt first, the computer player's moves are made now (with a broker they
    # are a task of their own): then it is the child's turn.
    play_bot_moves(game_id=Game.objects.get().pk)
    page = client.get(table_url).content.decode()
    game = Game.objects.get()
    assert socket_path(page) == f"/ws/game/{game.pk}/?v={game.version}"
    assert set(split_parts("table", page)) >= {"board", "scores", "status"}
    moves = whole_moves(split_parts("table", page)["board"], game.version)
    assert moves  # the computer player has played: it is the child's turn
    assert all(m["fields"]["expected_version"] == str(game.version) and m["fields"]["action"] for m in moves)


def test_the_dashboard_says_who_finished_how_many_games_today(client, teacher, classroom, student):
    for _ in range(2):
        game = Game.objects.create(key="smooth_operator", status=Game.Status.FINISHED, classroom=classroom,
                                   finished_at=timezone.now())
        Seat.objects.create(game=game, position=0, user=student, name=student.display_name)
        Seat.objects.create(game=game, position=1, bot_level="beginner", name="Computer 1")
    client.force_login(teacher)
    page = client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode()
    assert socket_path(page).startswith(f"/ws/reports/class/{classroom.pk}/")
    assert "Ann 2" in TODAY.search(page).group(1)


def test_the_sign_in_forms_are_found(client, classroom, student):
    code_page = client.get(reverse("classroom:join")).content.decode()
    assert form_with(code_page, field_name="code") is not None
    pictures = client.get(reverse("classroom:join_pictures", args=[classroom.join_code, student.pk])).content.decode()
    assert any("picture-form" in f.attrs.get("class", "") for f in forms(pictures))
