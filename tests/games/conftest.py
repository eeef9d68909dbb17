"""Fixtures for the games tests: Ann's classmate Ben, and a Smooth Operator table of theirs."""

import uuid

import pytest

from live import limits
from games.services import SeatSpec, game_create


@pytest.fixture
def ben(make_student, classroom):
    """A classmate of Ann (the suite's `student`)."""
    return make_student(classroom, "Ben", ("boat", "star", "apple"))


@pytest.fixture
def table(classroom, student, ben):
    """Ann and Ben playing Smooth Operator to 200: (game, Ann, Ben). A test file whose table is
    another game defines its own `table`."""
    game = game_create(key="smooth_operator", classroom=classroom, seed=9, options={"target": 200},
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)])
    return game, student, ben


@pytest.fixture(autouse=True)
def own_play_limits(monkeypatch):
    """Each test counts its people's moves and sockets afresh (live/limits.py keeps
    them in the cache, and ids are reused between tests)."""
    monkeypatch.setattr(limits, "KEY", f"play-limits-{uuid.uuid4().hex[:8]}:")
