"""Tables with classmates: open, share a code, join, invite, add computer players, start; and
the teacher seating chosen pairs or triples. Bad requests say why and change nothing."""

import threading

import pytest
from django.db import connections
from django.urls import reverse

from classroom.models import Assignment
from games.models import Game, Seat, TableInvite
from games.services import game_apply_move
from games.services.tables import (TableError, table_join, table_open, table_start,
                          tables_open_for_groups)
from tests.games.helpers import signed_in


@pytest.fixture
def cat(make_student, classroom):
    return make_student(classroom, "Cat", ("moon", "star", "apple"))


@pytest.fixture
def stranger(make_teacher, make_classroom, make_student):
    other = make_classroom(make_teacher(), name="Other class", join_code="XYZ789")
    return make_student(other, "Zed", ("cat", "sun", "tree"))


def open_table(client, game="multiplication"):
    response = client.post(reverse("classroom:table_open"), {"game": game})
    assert response.status_code == 302
    return Game.objects.latest("created_at")


def test_a_student_opens_a_table_and_gets_a_code(student):
    client = signed_in(student)
    game = open_table(client)
    assert game.status == Game.Status.LOBBY and len(game.table_code) == 6
    page = client.get(reverse("games:lobby", args=[game.pk])).content.decode()
    assert game.table_code in page and "Who is here" in page and "Ann" in page
    assert "Start now with 1 computer player" in page  # one player is not enough on its own


def test_a_classmate_joins_with_the_code_and_the_lobby_shows_them(student, ben):
    game = open_table(signed_in(student))
    response = signed_in(ben).post(reverse("games:table_join_by_code"),
                                   {"code": game.table_code.lower()[:3] + " " + game.table_code.lower()[3:]})
    assert response.url == reverse("games:lobby", args=[game.pk])
    assert [s.name for s in game.seats.all()] == ["Ann", "Ben"]
    host_page = signed_in(student).get(reverse("games:lobby", args=[game.pk])).content.decode()
    assert "Ben" in host_page and "Start the game" in host_page
    ben_page = signed_in(ben).get(reverse("games:lobby", args=[game.pk])).content.decode()
    assert "Ann starts the game when everyone is here" in ben_page and "Start the game" not in ben_page


def test_a_lobby_link_from_before_it_moved_still_opens_the_lobby(student, ben):
    """A lobby link in its old form, /table/<id>/, shared or bookmarked, still opens the lobby
    (docs/play.md, "Tables with classmates"), and then the game once it is dealt."""
    game = open_table(signed_in(student))
    client = signed_in(student)
    response = client.get(f"/table/{game.pk}/?from=share")
    assert response.status_code == 301
    assert response.url == reverse("games:lobby", args=[game.pk]) + "?from=share"
    assert game.table_code in client.get(response.url).content.decode()
    signed_in(ben).post(reverse("games:lobby_join", args=[game.pk]))
    signed_in(student).post(reverse("games:lobby_start", args=[game.pk]))
    assert client.get(f"/table/{game.pk}/", follow=True).redirect_chain[-1][0] == reverse(
        "games:game", args=[game.pk])


@pytest.mark.parametrize("code, message", [
    ("", "A table code has 6 letters and numbers"),
    ("KMT4Q!", "A table code has 6 letters and numbers"),
    ("ABCDEF", "There is no table with that code in your class"),
])
def test_a_wrong_code_says_why_and_seats_nobody(student, ben, code, message):
    open_table(signed_in(student))
    response = signed_in(ben).post(reverse("games:table_join_by_code"), {"code": code}, follow=True)
    assert message in response.content.decode()
    assert not Seat.objects.filter(user=ben).exists()


def test_a_table_of_another_class_is_never_found(student, stranger):
    game = open_table(signed_in(student))
    client = signed_in(stranger)
    response = client.post(reverse("games:table_join_by_code"), {"code": game.table_code}, follow=True)
    assert "There is no table with that code in your class" in response.content.decode()
    assert client.get(reverse("games:lobby", args=[game.pk])).status_code == 404
    assert client.post(reverse("games:lobby_join", args=[game.pk])).status_code == 404
    assert game.seats.count() == 1


def test_a_full_or_started_table_takes_nobody_more(student, ben, cat):
    game = open_table(signed_in(student), game="add_or_multiply")  # exactly 3 players
    table_join(student=ben, game_id=game.pk)
    signed_in(student).post(reverse("games:lobby_add_bot", args=[game.pk]), {"level": "beginner"})
    response = signed_in(cat).post(reverse("games:lobby_join", args=[game.pk]), follow=True)
    assert "That table is full (3 players)" in response.content.decode()
    table_start(host=student, game_id=game.pk)
    with pytest.raises(TableError, match="already started"):
        table_join(student=cat, game_id=game.pk)
    assert not game.seats.filter(user=cat).exists()


def test_only_the_host_starts_and_the_game_is_dealt_to_the_seats(student, ben):
    game = open_table(signed_in(student))
    table_join(student=ben, game_id=game.pk)
    response = signed_in(ben).post(reverse("games:lobby_start", args=[game.pk]), follow=True)
    assert "Only the player who opened the table can do that" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.LOBBY
    response = signed_in(student).post(reverse("games:lobby_start", args=[game.pk]))
    assert response.url == reverse("games:game", args=[game.pk])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.state["players"] == ["Ann", "Ben"]
    # both now find the table, and the lobby sends them there
    assert signed_in(ben).get(reverse("games:lobby", args=[game.pk])).url == reverse("games:game", args=[game.pk])


def test_starting_short_of_players_fills_seats_with_computer_players(student):
    game = open_table(signed_in(student), game="add_or_multiply")
    signed_in(student).post(reverse("games:lobby_start", args=[game.pk]), {"fill": "player"})
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert [s.bot_level for s in game.seats.all()] == ["", "player", "player"]


def test_starting_without_enough_players_explains_and_waits(student):
    game = open_table(signed_in(student))
    with pytest.raises(TableError, match="needs at least 2 players"):
        table_start(host=student, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.LOBBY and game.state is None


def test_the_host_adds_and_removes_computer_players(student, ben):
    game = open_table(signed_in(student))
    signed_in(student).post(reverse("games:lobby_add_bot", args=[game.pk]), {"level": "expert"})
    bot = game.seats.get(user=None)
    assert bot.bot_level == "expert" and bot.name not in ("Ann", "Ben")
    table_join(student=ben, game_id=game.pk)
    signed_in(ben).post(reverse("games:lobby_remove_bot", args=[game.pk, bot.pk]))  # not the host
    assert game.seats.filter(pk=bot.pk).exists()
    signed_in(student).post(reverse("games:lobby_add_bot", args=[game.pk]), {"level": "genius"})
    assert game.seats.count() == 3  # an unknown level adds nobody
    signed_in(student).post(reverse("games:lobby_remove_bot", args=[game.pk, bot.pk]))
    assert not game.seats.filter(pk=bot.pk).exists()


def test_an_invitation_shows_on_the_classmates_page_and_joins(student, ben, stranger):
    game = open_table(signed_in(student))
    host = signed_in(student)
    host.post(reverse("games:lobby_invite", args=[game.pk]), {"student": ben.pk})
    host.post(reverse("games:lobby_invite", args=[game.pk]), {"student": ben.pk})  # twice: one
    host.post(reverse("games:lobby_invite", args=[game.pk]), {"student": stranger.pk})
    assert list(TableInvite.objects.values_list("student__display_name", flat=True)) == ["Ben"]
    home = signed_in(ben).get(reverse("classroom:student_home")).content.decode()
    assert "invited you to play" in home and "The Multiplication Game" in home
    signed_in(ben).post(reverse("games:lobby_join", args=[game.pk]))
    assert game.seats.filter(user=ben).exists() and not TableInvite.objects.exists()


def test_open_tables_of_the_class_are_listed_to_join(student, ben, stranger):
    game = open_table(signed_in(student))
    panel = signed_in(ben).get(reverse("games:tables_panel")).content.decode()
    assert "opened by Ann" in panel and reverse("games:lobby_join", args=[game.pk]) in panel
    assert "opened by Ann" not in signed_in(stranger).get(reverse("games:tables_panel")).content.decode()


def test_leaving_passes_the_table_on_and_the_last_one_out_closes_it(student, ben):
    game = open_table(signed_in(student))
    table_join(student=ben, game_id=game.pk)
    signed_in(student).post(reverse("games:lobby_leave", args=[game.pk]))
    game.refresh_from_db()
    assert game.created_by == ben and [s.name for s in game.seats.all()] == ["Ben"]
    signed_in(ben).post(reverse("games:lobby_leave", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert "opened by" not in signed_in(student).get(reverse("games:tables_panel")).content.decode()


def test_free_play_off_allows_only_assignment_tables(student, classroom):
    classroom.free_play = False
    classroom.save()
    response = signed_in(student).post(reverse("classroom:table_open"), {"game": "multiplication"}, follow=True)
    assert "Free play is switched off" in response.content.decode()
    assignment = Assignment.objects.create(classroom=classroom, title="Times tables together",
                                           game="multiplication", opponents="classmates")
    page = signed_in(student).get(reverse("classroom:assignment_start", args=[assignment.pk])).content.decode()
    assert "Open a table for this assignment" in page
    signed_in(student).post(reverse("classroom:table_open"), {"game": "multiplication",
                                                          "assignment": assignment.pk})
    assert Game.objects.get().assignment == assignment


def test_a_move_at_a_table_not_yet_started_changes_nothing(student):
    game = open_table(signed_in(student))
    seat = game.seats.get()
    result = game_apply_move(game_id=game.pk, seat=seat, action={"type": "draw"}, expected_version=0)
    assert result.status == "rejected" and "not started" in result.message
    assert not game.moves.exists()
    assert signed_in(student).get(reverse("games:game", args=[game.pk])).url == reverse("games:lobby", args=[game.pk])


@pytest.mark.django_db(transaction=True)
def test_two_classmates_joining_the_last_seat_at_once_never_overfill_it(classroom, make_student):
    host = make_student(classroom, "Host", ("cat", "sun", "tree"))
    a = make_student(classroom, "Ava", ("boat", "star", "apple"))
    b = make_student(classroom, "Bo", ("moon", "star", "apple"))
    c = make_student(classroom, "Cy", ("moon", "sun", "apple"))
    game = table_open(student=host, key="add_or_multiply")  # 3 seats
    table_join(student=c, game_id=game.pk)
    outcomes, barrier = [], threading.Barrier(2)

    def join(student):
        barrier.wait()
        try:
            table_join(student=student, game_id=game.pk)
            outcomes.append("joined")
        except TableError as exc:
            outcomes.append(str(exc))
        finally:
            connections.close_all()  # this thread's own connection: PostgreSQL drops the test database only when none is left open

    threads = [threading.Thread(target=join, args=(s,)) for s in (a, b)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert outcomes.count("joined") == 1 and any("full" in o for o in outcomes)
    assert game.seats.count() == 3


class TestTeacherTables:
    def test_the_teacher_seats_pairs_and_each_pair_gets_a_dealt_game(self, teacher, classroom, student, ben, cat):
        client = signed_in(teacher)
        url = reverse("classroom:teacher_tables", args=[classroom.pk])
        page = client.get(url).content.decode()
        assert "Nobody is playing right now" in page
        response = client.post(url, {"game": "multiplication", "fill": "beginner",
                                     f"table_{student.pk}": "1", f"table_{ben.pk}": "1",
                                     f"table_{cat.pk}": "2"})
        assert response.status_code == 302
        games = Game.objects.order_by("pk")
        assert [[s.name for s in g.seats.all()] for g in games] == [["Ann", "Ben"], ["Cat", "Robo"]]
        assert all(g.status == Game.Status.ACTIVE for g in games)
        assert "Carry on" in signed_in(cat).get(reverse("classroom:student_home")).content.decode()
        assert "Watch" in client.get(url).content.decode()

    def test_a_table_too_small_without_bots_is_refused_and_nothing_opens(self, teacher, classroom, student, ben):
        url = reverse("classroom:teacher_tables", args=[classroom.pk])
        response = signed_in(teacher).post(url, {"game": "add_or_multiply", "fill": "",
                                                 f"table_{student.pk}": "1", f"table_{ben.pk}": "1"})
        assert "needs 3 to 3" in response.content.decode()
        assert not Game.objects.exists()

    def test_no_table_numbers_or_a_foreign_class_are_refused(self, teacher, classroom, make_teacher, student):
        url = reverse("classroom:teacher_tables", args=[classroom.pk])
        response = signed_in(teacher).post(url, {"game": "multiplication"})
        assert "Give at least one student a table number" in response.content.decode()
        assert signed_in(make_teacher()).get(url).status_code == 404
        assert signed_in(student).get(url).status_code == 403

    def test_the_service_refuses_a_game_for_one(self, teacher, classroom, student):
        with pytest.raises(TableError):
            tables_open_for_groups(teacher=teacher, classroom=classroom, key="numero_solitaire",
                                   groups=[[student]])
