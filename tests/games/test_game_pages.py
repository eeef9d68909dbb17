"""Game pages over HTTP: the table, results, play again, and the replay."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from classroom.models import Assignment
from games import engine as engines
from games import registry
from games.models import Game
from games.selectors.play import game_state_at
from games.services import SeatSpec, game_apply_move, game_create

pytestmark = pytest.mark.django_db


def play_to_end(game: Game) -> Game:
    """Let bots decide for every seat (humans included) through the real move service."""
    engine = engines.get(game.key)
    for _ in range(5000):
        game.refresh_from_db()
        if game.state["finished"]:
            return game
        name = engine.waiting_for(game.state)[0]
        seat = game.seats.get(name=name)
        action = engines.make_bot(game.key, "beginner", game.version).choose(engine.view(game.state, name))
        assert game_apply_move(game_id=game.pk, seat=seat, action=action,
                               expected_version=game.version, schedule_bots=False).applied
    raise AssertionError("game did not finish")


@pytest.fixture
def finished(classroom, student):
    game = game_create(key="smooth_operator", classroom=classroom, seed=22, options={"target": 1000},
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="player")])
    return play_to_end(game)


def test_results_show_scores_how_the_student_played_and_next_steps(client, student, finished):
    client.force_login(student)
    page = client.get(reverse("games:game", args=[finished.pk])).content.decode()
    assert "Game over" in page or "You won!" in page
    # In the words of "My progress" (tests/reports/test_one_source_of_words.py compares them).
    assert "How you played" in page
    assert re.search(r"You chose the card that gives away the fewest points now and later "
                     r"(once|\d+ times) out of \d+\.", page)
    assert re.search(r"You made a move the rules allow (once|\d+ times) out of \d+\.", page)
    assert "Play again" in page and "Back to my assignments" in page
    seats = {s.name: s for s in finished.seats.all()}
    assert sum(s.is_winner for s in seats.values()) >= 1


def board_of(page: str) -> str:
    return page[page.index('<div class="so-board">'):]


def test_a_finished_board_says_the_game_is_over_not_whose_points_this_turn_are(
        client, student, teacher, finished):
    moves = finished.moves.filter(accepted=True).count()
    client.force_login(student)
    pages = {"the child's table": client.get(reverse("games:game", args=[finished.pk])),
             "the child's replay, at the end": client.get(reverse("games:replay", args=[finished.pk]))}
    client.force_login(teacher)
    pages["the teacher's table"] = client.get(reverse("games:game", args=[finished.pk]))
    pages["the teacher's replay, at the end"] = client.get(reverse("games:replay", args=[finished.pk]),
                                                           {"turn": moves})
    for what, response in pages.items():
        board = board_of(response.content.decode())
        assert "Points this turn go to" not in board, what
        assert "The game is over." in board, what
    # During the game the board still says whose points this turn are.
    during = board_of(client.get(reverse("games:replay", args=[finished.pk]), {"turn": 1}).content.decode())
    assert "Points this turn go to" in during and "The game is over." not in during


def test_play_again_starts_a_new_game_with_the_same_settings(client, student, finished):
    client.force_login(student)
    response = client.post(reverse("games:play_again", args=[finished.pk]))
    new = Game.objects.exclude(pk=finished.pk).get()
    assert response["Location"] == reverse("games:game", args=[new.pk])
    assert new.options == finished.options and new.key == finished.key
    assert [(s.name, s.bot_level, s.user_id) for s in new.seats.all()] == \
        [(s.name, s.bot_level, s.user_id) for s in finished.seats.all()]


def test_play_again_pressed_twice_deals_one_game(client, student, finished):
    client.force_login(student)
    again = reverse("games:play_again", args=[finished.pk])
    first, second = client.post(again), client.post(again)
    new = Game.objects.exclude(pk=finished.pk).get()
    assert first["Location"] == second["Location"] == reverse("games:game", args=[new.pk])
    # Once she has moved in it, Play again deals another. The deal is new each time, so the
    # computer player may be first, and one turn can take it several decisions (a special
    # card, the end of its turn, a free turn): it plays on until she is asked to move.
    engine = engines.get(new.key)
    bot = engines.make_bot(new.key, "beginner", 0)
    while "Ann" not in engine.waiting_for(new.state):
        [name] = engine.waiting_for(new.state)[:1]
        assert game_apply_move(game_id=new.pk, seat=new.seats.get(name=name), expected_version=new.version,
                               action=bot.choose(engine.view(new.state, name)), schedule_bots=False).applied
        new.refresh_from_db()
    # Only the computer player has moved: the same game still.
    assert client.post(again)["Location"] == reverse("games:game", args=[new.pk])
    assert Game.objects.exclude(pk=finished.pk).count() == 1
    action = bot.choose(engine.view(new.state, "Ann"))
    assert game_apply_move(game_id=new.pk, seat=new.seats.get(user=student), action=action,
                           expected_version=new.version, schedule_bots=False).applied
    client.post(again)
    assert Game.objects.exclude(pk__in=[finished.pk, new.pk]).count() == 1


def test_replay_steps_through_every_move(client, student, teacher, finished):
    moves = finished.moves.filter(accepted=True).count()
    client.force_login(student)
    url = reverse("games:replay", args=[finished.pk])
    last = client.get(url).content.decode()
    assert f"Move {moves} of {moves}" in last
    third = client.get(url + "?turn=3").content.decode()
    assert f"Move 3 of {moves}" in third and 'href="?turn=2"' in third and 'href="?turn=4"' in third
    assert "Everyone&#x27;s cards" not in third and "Everyone's cards" not in third
    start = client.get(url + "?turn=0").content.decode()
    assert "The start of the game" in start
    for junk in ("abc", "-5", "99999"):
        assert client.get(url + f"?turn={junk}").status_code == 200
    client.force_login(teacher)
    assert "Everyone's cards (teacher view)" in client.get(url + "?turn=3").content.decode()


def test_replay_rebuilds_the_exact_final_state(finished):
    moves = finished.moves.filter(accepted=True).count()
    assert game_state_at(game=finished, turn=moves) == finished.state


def test_unfinished_game_has_no_replay_yet(client, classroom, student):
    game = game_create(key="smooth_operator", classroom=classroom, seed=2,
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="player")])
    client.force_login(student)
    assert client.get(reverse("games:replay", args=[game.pk]))["Location"] == reverse("games:game", args=[game.pk])


def test_other_students_cannot_open_a_game(client, classroom, student, make_student, finished):
    ben = make_student(classroom, "Ben")
    client.force_login(ben)
    assert client.get(reverse("games:game", args=[finished.pk])).status_code == 404
    assert client.get(reverse("games:replay", args=[finished.pk])).status_code == 404
    assert client.post(reverse("games:play_again", args=[finished.pk])).status_code == 404


def test_free_play_starts_a_game_against_bots(client, student):
    client.force_login(student)
    response = client.post(reverse("games:free_play_start", args=["smooth_operator"]), {"level": "expert"})
    game = Game.objects.get()
    assert response["Location"] == reverse("games:game", args=[game.pk])
    assert [s.bot_level for s in game.seats.all()] == ["", "expert", "expert"]
    assert client.post(reverse("games:free_play_start", args=["chess"])).status_code == 404


def test_pressing_play_twice_deals_one_game(client, student):
    """A double tap (or the form sent twice) deals one game; so does Back and Play again while
    the child has not moved in it. Once she has, Play deals a fresh game beside it."""
    client.force_login(student)
    start = reverse("games:free_play_start", args=["multiplication"])
    first, second = client.post(start), client.post(start)
    game = Game.objects.get()
    assert first["Location"] == second["Location"] == reverse("games:game", args=[game.pk])
    page = client.get(second["Location"]).content.decode()
    assert "you started" not in page  # the same press twice: nothing to explain

    # Back and Play again, a minute later: the same cards, and the page says so.
    Game.objects.filter(pk=game.pk).update(created_at=game.created_at - timedelta(minutes=1))
    again = client.post(start, follow=True)
    assert again.redirect_chain[-1][0] == reverse("games:game", args=[game.pk])
    assert "Here is the game you started: The Multiplication Game. Your cards are waiting for you." \
        in again.content.decode()
    assert Game.objects.count() == 1

    # She moves in it: now Play means a new game, and the first stays hers to carry on.
    game.refresh_from_db()
    engine = engines.get("multiplication")
    assert engine.waiting_for(game.state) == ["Ann"]  # the computer player has had its turn
    action = engines.make_bot(game.key, "beginner", 0).choose(engine.view(game.state, "Ann"))
    assert game_apply_move(game_id=game.pk, seat=game.seats.get(user=student), action=action,
                           expected_version=game.version, schedule_bots=False).applied
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    fresh = client.post(start)
    newer = Game.objects.exclude(pk=game.pk).get()
    assert fresh["Location"] == reverse("games:game", args=[newer.pk])
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_play_twice_against_other_computer_players_is_two_games(client, student):
    """Only the same game against the same level is the game already dealt."""
    client.force_login(student)
    start = reverse("games:free_play_start", args=["smooth_operator"])
    client.post(start, {"level": "expert"})
    client.post(start, {"level": "expert"})
    client.post(start, {"level": "beginner"})
    client.post(reverse("games:free_play_start", args=["numero"]), {"level": "expert"})
    levels = sorted((g.key, tuple(s.bot_level for s in g.seats.all())) for g in Game.objects.all())
    assert levels == [("numero", ("", "expert")), ("smooth_operator", ("", "beginner", "beginner")),
                      ("smooth_operator", ("", "expert", "expert"))]


def test_free_play_can_be_switched_off(client, student, classroom):
    classroom.free_play = False
    classroom.save()
    client.force_login(student)
    assert client.post(reverse("games:free_play_start", args=["smooth_operator"])).status_code == 404
    assert not Game.objects.exists()


def test_an_unknown_game_is_never_offered_nor_started(client, student, classroom):
    # A key from a hand-made URL or form, or of a game no longer offered: nothing is dealt.
    client.force_login(student)
    assert client.post(reverse("games:free_play_start", args=["chess"])).status_code == 404
    home = client.get(reverse("classroom:student_home")).content.decode()
    assert reverse("games:free_play_start", args=["chess"]) not in home
    opened = client.post(reverse("classroom:table_open"), {"game": "chess"}, follow=True)
    assert "That game can&#x27;t be played with classmates." in opened.content.decode()
    old = Assignment.objects.create(classroom=classroom, title="Old game", game="chess", preset="quick")
    home = client.get(reverse("classroom:student_home"))
    assert home.status_code == 200 and "Old game" in home.content.decode()
    start = reverse("classroom:assignment_start", args=[old.pk])
    assert client.get(start).status_code == 404 and client.post(start).status_code == 404
    assert not Game.objects.exists()


def test_free_play_only_takes_a_level_the_games_computer_players_have(client, student):
    client.force_login(student)
    for asked in ("grandmaster", "", "expert<script>"):
        client.post(reverse("games:free_play_start", args=["multiplication"]), {"level": asked})
        game = Game.objects.latest("pk")
        levels = {s.bot_level for s in game.seats.all() if s.bot_level}
        assert levels and levels <= set(registry.spec_for("multiplication").bots)


def test_add_or_multiply_names_the_operation_cards_left_in_words(client, student, make_student, classroom):
    others = [make_student(classroom, n, ("boat", "star", "apple")) for n in ("Ben", "Cy")]
    game = game_create(key="add_or_multiply", classroom=classroom, seed=3,
                       seats=[SeatSpec("Ann", user=student)] + [SeatSpec(u.display_name, user=u) for u in others])
    client.force_login(student)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    line = page[page.index("Your number cards left"):].split("</p>")[0]
    assert "× (multiply)" in line and "+ (add)" in line
    assert ", x" not in line and ": x" not in line
