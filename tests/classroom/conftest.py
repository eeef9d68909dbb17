"""Fixtures for classroom tests: a teacher signed in, assignments, games. (Another class and a
co-teacher are in tests/conftest.py: the report tests use them too.)"""

import pytest
from django.utils import timezone

from classroom.models import Assignment
from games.models import Game, Seat
from tests.classroom.helpers import assignment_of


@pytest.fixture
def signed_in(client, teacher):
    """The test's client, signed in as the class's teacher."""
    client.force_login(teacher)
    return client


@pytest.fixture
def make_assignment(teacher):
    def make(classroom, **fields) -> Assignment:
        return assignment_of(classroom, created_by=teacher, **fields)

    return make


@pytest.fixture
def assignment(make_assignment, classroom):
    return make_assignment(classroom, title="Warm-up")


@pytest.fixture
def make_game(db):
    """A game of the assignment where `student` had a seat (against one bot)."""
    def make(assignment, student, *, won=False, status=Game.Status.FINISHED, score=10, finished_at=None):
        game = Game.objects.create(
            key=assignment.game if assignment else "smooth_operator", status=status,
            classroom=assignment.classroom if assignment else student.memberships.first().classroom,
            assignment=assignment, finished_at=finished_at or timezone.now())
        Seat.objects.create(game=game, position=0, user=student, name=student.display_name,
                            is_winner=won, score=score)
        Seat.objects.create(game=game, position=1, bot_level="beginner", name="Computer 1",
                            is_winner=not won, score=score + 1)
        return game

    return make
