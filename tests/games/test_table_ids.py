"""Every lobby and table URL with a missing id, or the id of another class's table, is a 404
and changes nothing, never a 500 (docs/play.md), from the lobby's Start with a missing id to
`POST /table/<missing>/start/`. A missing table and another class's table get the same answer, so ids
reveal nothing."""

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, Seat, TableInvite
from games.services import SeatSpec, game_create
from games.services.tables import TableError, table_add_bot, table_open, table_start
from tests.games.helpers import signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_class(other_teacher, other_classroom, make_student):
    zed = make_student(other_classroom, "Zed", ("cat", "sun", "tree"))
    lobby = table_open(student=zed, key="multiplication")
    bot = table_add_bot(host=zed, game_id=lobby.pk, level="beginner")
    played = game_create(key="multiplication", classroom=other_classroom, seed=3, options={"hand_size": 4},
                         seats=[SeatSpec("Zed", user=zed), SeatSpec("Robo", bot_level="beginner")])
    return {"teacher": other_teacher, "student": zed, "lobby": lobby, "bot": bot, "game": played}


def snapshot() -> tuple:
    return (sorted(Game.objects.values_list("pk", "status", "version", "created_by_id", "table_code")),
            sorted(Seat.objects.values_list("pk", "game_id", "user_id", "bot_level", "name")),
            sorted(TableInvite.objects.values_list("pk", "game_id", "student_id")))


def lobby_requests(game_id: int, seat_id: int, invitee_id: int) -> list[tuple[str, str, dict]]:
    """(method, url, data) for every URL that names a table."""
    return [
        ("get", reverse("games:lobby", args=[game_id]), {}),
        ("post", reverse("games:lobby_join", args=[game_id]), {}),
        ("post", reverse("games:lobby_leave", args=[game_id]), {}),
        ("post", reverse("games:lobby_add_bot", args=[game_id]), {"level": "beginner"}),
        ("post", reverse("games:lobby_remove_bot", args=[game_id, seat_id]), {}),
        ("post", reverse("games:lobby_invite", args=[game_id]), {"student": str(invitee_id)}),
        ("post", reverse("games:lobby_start", args=[game_id]), {"fill": "beginner"}),
        ("get", reverse("games:game", args=[game_id]), {}),
        ("get", reverse("games:replay", args=[game_id]), {}),
        ("post", reverse("games:play_again", args=[game_id]), {}),
        ("get", reverse("games:selection", args=[game_id]), {}),
    ]


def assert_all_not_found(client: Client, requests: list) -> None:
    before = snapshot()
    answers = {url: getattr(client, method)(url, data).status_code for method, url, data in requests}
    assert answers == {url: 404 for _, url, _ in requests}
    assert snapshot() == before


def test_a_missing_table_is_not_found_and_nothing_changes(student, ben, other_class):
    table_open(student=student, key="multiplication")  # something that could change
    missing = Game.objects.order_by("-pk").first().pk + 1000
    assert_all_not_found(signed_in(student), lobby_requests(missing, other_class["bot"].pk, ben.pk))


def test_another_class_table_is_not_found_and_nothing_changes(student, ben, other_class):
    client = signed_in(student)
    for game in (other_class["lobby"], other_class["game"]):
        assert_all_not_found(client, lobby_requests(game.pk, other_class["bot"].pk, ben.pk))
    assert other_class["lobby"].seats.count() == 2
    assert Game.objects.get(pk=other_class["lobby"].pk).status == Game.Status.LOBBY


def test_a_teacher_of_another_class_finds_neither_table(teacher, other_class):
    client = signed_in(teacher)
    for game in (other_class["lobby"], other_class["game"]):
        for name in ("games:lobby", "games:game", "games:replay"):
            assert client.get(reverse(name, args=[game.pk])).status_code == 404


def test_a_seat_of_another_table_is_refused_and_nothing_changes(student, other_class):
    mine = table_open(student=student, key="multiplication")
    client = signed_in(student)
    before = snapshot()
    response = client.post(reverse("games:lobby_remove_bot", args=[mine.pk, other_class["bot"].pk]),
                           follow=True)
    assert "not at this table any more" in response.content.decode()
    assert snapshot() == before


def test_the_services_refuse_a_missing_table_plainly(student):
    with pytest.raises(TableError, match="not here any more"):
        table_start(host=student, game_id=987654321)
    with pytest.raises(TableError, match="not here any more"):
        table_add_bot(host=student, game_id=987654321, level="beginner")
