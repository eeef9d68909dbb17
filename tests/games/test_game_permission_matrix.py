"""Who may open what of a game: every registered game × every role × every game URL.

Roles: the student seated at the table, a classmate not seated, a student of another class,
a teacher of the class (the read-only coach view), another teacher, and an anonymous visitor.
A game of any kind follows the same rules, so a new game is covered as soon as it is
registered. A refused request changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import student_create, teacher_sign_up
from games import registry
from games.models import Game, Move
from games.services import SeatSpec, bot_seats, game_create
from tests.conftest import classroom_of, module_world

pytestmark = pytest.mark.django_db

ROLES = ["seated", "classmate", "other_student", "teacher", "other_teacher", "anonymous"]


@dataclass
class World:
    game: Game
    users: dict

    def user(self, role: str):
        return self.users.get(role)


@pytest.fixture(scope="module", params=[spec.key for spec in registry.all_games()])
def world(request, django_db_setup, django_db_blocker):
    """One table per registered game, built once for its 24 requests; each test is rolled
    back to it."""
    with module_world(django_db_blocker):
        yield build_world(registry.spec_for(request.param))


def build_world(spec) -> World:
    teacher = teacher_sign_up(name="Ms Rivera", email="rivera@school.test", password="correct-horse-42")
    classroom = classroom_of(teacher, name="Class 5B", join_code="ABC234")
    student = student_create(classroom=classroom, display_name="Ann", picture_password=["cat", "sun", "tree"])
    classmate = student_create(classroom=classroom, display_name="Ben", picture_password=["boat", "star", "apple"])
    other_teacher = teacher_sign_up(name="Mr Other", email="other@school.test", password="correct-horse-42")
    other_class = classroom_of(other_teacher, name="Other class", join_code="XYZ789")
    other_student = student_create(classroom=other_class, display_name="Olga",
                                   picture_password=["moon", "star", "fish"])
    seats = [SeatSpec("Ann", user=student)]
    seats += bot_seats(count=spec.bot_count_range[0], level="beginner", avoid={"Ann"})
    game = game_create(key=spec.key, classroom=classroom, seats=seats, seed=5)
    return World(game, {"seated": student, "classmate": classmate, "other_student": other_student,
                        "teacher": teacher, "other_teacher": other_teacher})


def client_for(world: World, role: str) -> Client:
    client = Client()
    user = world.user(role)
    if user is not None:
        client.force_login(user)
    return client


def fingerprint(game: Game):
    game.refresh_from_db()
    return game.version, game.status, Move.objects.filter(game=game).count(), Game.objects.count()


@pytest.mark.parametrize("role", ROLES)
def test_the_table_opens_only_for_its_player_and_the_class_teachers(world, role):
    page = client_for(world, role).get(reverse("games:game", args=[world.game.pk]))
    want = 200 if role in ("seated", "teacher") else 404
    assert page.status_code == want, role
    if role == "teacher":
        assert "read-only" in page.content.decode()


@pytest.mark.parametrize("role", ROLES)
def test_a_running_game_has_no_replay_yet_and_strangers_find_nothing(world, role):
    response = client_for(world, role).get(reverse("games:replay", args=[world.game.pk]))
    if role in ("seated", "teacher"):
        assert response.status_code == 302
        assert response["Location"] == reverse("games:game", args=[world.game.pk])
    else:
        assert response.status_code == 404


@pytest.mark.parametrize("role", ROLES)
def test_only_the_player_may_ask_for_a_selection_and_only_in_games_that_have_one(world, role):
    before = fingerprint(world.game)
    response = client_for(world, role).get(reverse("games:selection", args=[world.game.pk]))
    has_selection = registry.spec_for(world.game.key).selection is not None
    if not has_selection or role not in ("seated", "teacher"):
        assert response.status_code == 404
    else:
        assert response.status_code == (200 if role == "seated" else 403)
    assert fingerprint(world.game) == before


@pytest.mark.parametrize("role", ROLES)
def test_play_again_is_a_students_post_about_their_own_game(world, role):
    before = fingerprint(world.game)
    response = client_for(world, role).post(reverse("games:play_again", args=[world.game.pk]))
    if role == "seated":
        assert response.status_code == 302 and Game.objects.count() == before[3] + 1
        return
    expected = {"classmate": 404, "other_student": 404, "teacher": 403, "other_teacher": 403}
    if role == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith(reverse("classroom:join"))
    else:
        assert response.status_code == expected[role], role
    assert fingerprint(world.game) == before
