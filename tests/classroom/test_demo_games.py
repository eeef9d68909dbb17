"""Demo games are played by real bots, and skipped cleanly when an engine fails."""

import pytest

from devtools import demo, demo_games
from games.models import Game

pytestmark = pytest.mark.django_db


def test_bots_play_a_whole_game_to_its_end():
    state, actions = demo_games.play_with_bots("smooth_operator", ["Ann", "Computer 1"], {"target": 100}, seed=3)
    assert state["finished"] and state["winners"] and actions


def test_an_engine_that_fails_is_skipped_and_said_so(monkeypatch):
    (warm_up, _), (group, _) = demo.demo_assignments()
    # Chosen from the registry by what the games allow: the first game for one student and
    # one computer player, and the game that seats the most players.
    assert (warm_up["game"], group["game"]) == ("smooth_operator", "multiplication")
    real = demo_games.play_with_bots

    def failing(key, *args, **kwargs):
        if key == group["game"]:
            raise RuntimeError("an engine failing half-way")
        return real(key, *args, **kwargs)

    monkeypatch.setattr(demo_games, "play_with_bots", failing)
    teacher, classroom, students = demo.load_demo()
    assigned = Game.objects.filter(assignment__isnull=False)
    assert not assigned.filter(key=group["game"]).exists()
    assert assigned.filter(key=warm_up["game"]).exists()
    printed = demo.describe(teacher, classroom, students)
    assert f"“{group['title']}”: 0 finished games (its engine failed to play them" in printed
    monkeypatch.undo()
    demo.load_demo()  # later, with the engine working: the games arrive
    assert assigned.filter(key=group["game"]).exists()


def test_an_engine_failing_half_way_leaves_no_half_set_of_games(monkeypatch, classroom, student,
                                                               make_assignment):
    assignment = make_assignment(classroom)
    calls = {"n": 0}
    real_play = demo_games.play_with_bots

    def flaky(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise ValueError("half-written engine")
        return real_play(*args, **kwargs)

    monkeypatch.setattr(demo_games, "play_with_bots", flaky)
    assert demo_games.load_games(assignment=assignment, games_per_student={student: 3}) is False
    assert not assignment.games.exists()
