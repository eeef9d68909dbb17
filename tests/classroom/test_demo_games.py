"""Demo games are played by real bots, and skipped cleanly while an engine is not ready."""

import pytest

from classroom import demo, demo_games
from games.models import Game

pytestmark = pytest.mark.django_db


def test_bots_play_a_whole_game_to_its_end():
    state, actions = demo_games.play_with_bots("smooth_operator", ["Ann", "Computer 1"], {"target": 100}, seed=3)
    assert state["finished"] and state["winners"] and actions


def test_a_missing_engine_is_skipped_and_said_so(monkeypatch):
    real = demo_games.load_engine
    monkeypatch.setattr(demo_games, "load_engine",
                        lambda key: None if key == "multiplication" else real(key))
    teacher, classroom, students = demo.load_demo()
    assert not Game.objects.filter(key="multiplication").exists()
    assert Game.objects.filter(key="smooth_operator").exists()
    printed = demo.describe(teacher, classroom, students)
    assert "“Times tables with free cards”: 0 finished games (its game engine is not ready yet" in printed
    monkeypatch.undo()
    demo.load_demo()  # later, with the engine: the games arrive
    assert Game.objects.filter(key="multiplication").exists() == (real("multiplication") is not None)


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
