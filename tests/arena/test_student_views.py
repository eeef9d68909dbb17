"""The student's side of the class arena over HTTP: joining by the code or its QR link, the
arena page in a child's words, breaks, being sent back to a running table, the home card, and
an arena game's table (back to the arena, and the Leave question)."""

import html
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from arena.models import Arena, ArenaPlayer
from arena.services import arena_create, arena_join, arena_round, arena_start
from games import engine as engines
from games.models import Game, PlayerRating
from games.services import game_apply_move

from tests.clients import signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def ben(make_student, classroom):
    return make_student(classroom, "Ben", ("boat", "star", "apple"))


def new_arena(teacher, classroom, mode="points", title="Friday arena"):
    return arena_create(teacher=teacher, classroom=classroom, title=title, key="smooth_operator",
                        options={"target": 200}, minutes=10, mode=mode)


@pytest.fixture
def arena(teacher, classroom):
    return new_arena(teacher, classroom)


def play_page(client, arena):
    return client.get(reverse("arena:play", args=[arena.pk]))


def text_of(response) -> str:
    """The page's visible words (tags stripped), to check what a child reads."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def play_to_end(game: Game) -> Game:
    """Every seat's move chosen by a beginner computer player, through the real move service."""
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


# ----- joining -------------------------------------------------------------------------------

def test_a_good_code_typed_loosely_joins_and_lands_on_the_arena_page(student, arena):
    client = signed_in(student)
    loose = f" {arena.join_code[:3].lower()}-{arena.join_code[3:].lower()} "
    response = client.post(reverse("arena:join"), {"code": loose})
    assert response.status_code == 302 and response.url == reverse("arena:play", args=[arena.pk])
    assert ArenaPlayer.objects.get(arena=arena, user=student).status == ArenaPlayer.Status.WAITING


def test_a_wrong_code_says_why_and_joins_nothing(student, arena):
    client = signed_in(student)
    form = client.get(reverse("arena:join"))
    assert "Type the arena code from the big screen" in form.content.decode()
    code = "ZZZZZ9" if arena.join_code != "ZZZZZ9" else "ZZZZZ8"
    response = client.post(reverse("arena:join"), {"code": code})
    assert response.status_code == 400
    assert "There is no arena with that code" in response.content.decode()
    response = client.post(reverse("arena:join"), {"code": "K1"})
    assert "6 letters and numbers" in response.content.decode()
    assert not ArenaPlayer.objects.exists()


def test_the_code_of_another_class_s_arena_is_refused(student, make_teacher, make_classroom):
    other_teacher = make_teacher()
    other = new_arena(other_teacher, make_classroom(other_teacher, name="7C", join_code="QQQ777"))
    response = signed_in(student).post(reverse("arena:join"), {"code": other.join_code})
    assert response.status_code == 400 and "not for your class" in response.content.decode()
    assert not ArenaPlayer.objects.exists()
    # Nor can the arena page be opened or joined by its address.
    assert play_page(signed_in(student), other).status_code == 404
    assert signed_in(student).post(reverse("arena:play", args=[other.pk])).status_code == 404
    assert not ArenaPlayer.objects.exists()


def test_the_qr_link_joins_a_signed_in_student(student, arena):
    response = signed_in(student).get(reverse("arena:join_link", args=[arena.join_code]))
    assert response.url == reverse("arena:play", args=[arena.pk])
    assert ArenaPlayer.objects.filter(arena=arena, user=student).exists()


def test_the_qr_link_sends_a_signed_out_child_to_the_student_sign_in(client, arena):
    response = client.get(reverse("arena:join_link", args=[arena.join_code]))
    assert response.status_code == 302 and response.url.startswith(reverse("classroom:join"))
    assert not ArenaPlayer.objects.exists()


def test_the_qr_link_takes_the_teacher_who_runs_it_to_the_controls_and_no_one_else(
        teacher, arena, make_teacher):
    response = signed_in(teacher).get(reverse("arena:join_link", args=[arena.join_code]))
    assert response.url == reverse("arena:control", args=[arena.pk])
    assert signed_in(make_teacher()).get(reverse("arena:join_link", args=[arena.join_code])).status_code == 404


def test_the_arena_page_joins_only_by_its_button(student, arena):
    client = signed_in(student)
    page = play_page(client, arena)
    assert page.status_code == 200 and "Join the arena" in page.content.decode()
    assert not ArenaPlayer.objects.exists()  # a GET joins nobody
    response = client.post(reverse("arena:play", args=[arena.pk]))
    assert response.url == reverse("arena:play", args=[arena.pk])
    assert "Waiting for your teacher to start…" in play_page(client, arena).content.decode()


# ----- the arena page ------------------------------------------------------------------------

def test_waiting_break_and_back_in_a_child_s_words(student, ben, arena):
    client = signed_in(student)
    arena_join(student=student, arena_id=arena.pk)
    arena_start(arena_id=arena.pk)
    page = text_of(play_page(client, arena))
    assert "Finding someone to play with…" in page and 'class="arena-finding"' in play_page(client, arena).content.decode()
    assert "Take a break" in page and "I'm ready to play" not in page
    assert client.post(reverse("arena:break", args=[arena.pk])).url == reverse("arena:play", args=[arena.pk])
    page = text_of(play_page(client, arena))
    assert "You're taking a break." in page and "I'm ready to play" in page
    assert "Finding someone to play with" not in page
    arena_join(student=ben, arena_id=arena.pk)  # late: Ben asks to be let in
    assert "Your teacher will let you in soon." in text_of(play_page(signed_in(ben), arena))
    client.post(reverse("arena:back", args=[arena.pk]))
    assert ArenaPlayer.objects.get(user=student).status == ArenaPlayer.Status.WAITING
    assert client.get(reverse("arena:break", args=[arena.pk])).status_code == 405  # only by its button


def test_a_seated_student_is_sent_straight_back_to_their_running_table(student, ben, arena):
    for child in (student, ben):
        arena_join(student=child, arena_id=arena.pk)
    arena_start(arena_id=arena.pk)
    report = arena_round(arena_id=arena.pk, force=True)
    [game_id] = report.tables
    response = play_page(signed_in(student), arena)
    assert response.status_code == 302 and response.url == reverse("games:game", args=[game_id])


def test_the_you_box_has_points_streak_and_place_but_never_a_rating(student, ben, arena):
    PlayerRating.objects.create(user=student, key="smooth_operator", rating=1377, games=9)
    for child in (student, ben):
        arena_join(student=child, arena_id=arena.pk)
    arena_start(arena_id=arena.pk)
    ArenaPlayer.objects.filter(user=student).update(points=6, games=3, wins=3, streak=3,
                                                    status=ArenaPlayer.Status.RESTING)
    ArenaPlayer.objects.filter(user=ben).update(points=1, games=3, wins=0)
    page = play_page(signed_in(student), arena)
    words = text_of(page)
    assert "You have 6 points." in words and "You're in 1st place!" in words
    assert "You won 3 games in a row. You're on fire: wins count double!" in words
    assert "1377" not in page.content.decode() and "rating" not in words.lower()


def test_no_points_mode_shows_games_and_best_score_but_no_points_or_place(student, teacher, classroom):
    arena = new_arena(teacher, classroom, mode=Arena.Mode.NO_POINTS)
    arena_join(student=student, arena_id=arena.pk)
    ArenaPlayer.objects.filter(user=student).update(points=6, games=4, wins=2, best_score=37)
    words = text_of(play_page(signed_in(student), arena))
    assert "You've played 4 games so far." in words
    assert "Your best score today is 37. Can you beat it?" in words
    assert "point" not in words.lower() and "place" not in words.lower()


def test_the_finished_arena_sums_up(student, ben, arena):
    for child in (student, ben):
        arena_join(student=child, arena_id=arena.pk)
    arena_start(arena_id=arena.pk)
    ArenaPlayer.objects.filter(user=student).update(points=4, games=2, wins=2)
    Arena.objects.filter(pk=arena.pk).update(status=Arena.Status.FINISHED)
    words = text_of(play_page(signed_in(student), arena))
    assert "The arena is over! You played 2 games and won 2. You finished in 1st place with 4 points." in words
    assert "Take a break" not in words


# ----- the home page -------------------------------------------------------------------------

def test_the_home_page_shows_the_live_arena_to_join_then_to_go_back_to(student, arena):
    client = signed_in(student)
    home = client.get(reverse("classroom:student_home")).content.decode()
    assert "Arena: <bdi>Friday arena</bdi>" in home and "Join the arena" in home
    assert reverse("arena:join") in home  # "Have an arena code?"
    arena_join(student=student, arena_id=arena.pk)
    home = client.get(reverse("classroom:student_home")).content.decode()
    assert "Back to the arena" in home and "Join the arena" not in home
    Arena.objects.filter(pk=arena.pk).update(status=Arena.Status.FINISHED)
    assert "Arena: <bdi>Friday arena</bdi>" not in client.get(reverse("classroom:student_home")).content.decode()


# ----- the arena game's table ----------------------------------------------------------------

def seated(arena, *children) -> Game:
    for child in children:
        arena_join(student=child, arena_id=arena.pk)
    arena_start(arena_id=arena.pk)
    [game_id] = arena_round(arena_id=arena.pk, force=True).tables
    return Game.objects.get(pk=game_id)


def test_the_leave_question_says_plainly_that_leaving_loses(student, ben, arena):
    game = seated(arena, student, ben)
    words = text_of(signed_in(student).get(reverse("games:game", args=[game.pk])))
    assert "Leave this game? It counts as a loss for you, and Ben will win it." in words
    response = signed_in(student).post(reverse("games:stop", args=[game.pk]))
    assert response.url == reverse("arena:play", args=[arena.pk])
    arena_round(arena_id=arena.pk, force=True)  # counts the stopped game
    words = text_of(signed_in(student).get(reverse("arena:play", args=[arena.pk])))
    assert "You left your last game, so it counted as a loss." in words
    assert "You're taking a break." in words and "I'm ready to play" in words


def test_a_just_finished_arena_game_goes_back_to_the_arena_and_an_old_one_stays(student, ben, arena):
    game = play_to_end(seated(arena, student, ben))
    page = signed_in(student).get(reverse("games:game", args=[game.pk])).content.decode()
    back = reverse("arena:play", args=[arena.pk])
    assert f'data-go="{back}" data-go-after="3"' in page and "Back to the arena" in page
    assert "Play again" not in page and "Back to my assignments" not in page
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timezone.timedelta(minutes=5))
    page = signed_in(student).get(reverse("games:game", args=[game.pk])).content.decode()
    assert "data-go=" not in page and "Back to the arena" in page


def test_the_home_page_names_an_arena_game_and_leads_back_to_the_arena(student, ben, arena):
    """"Carry on playing" lists the running arena game as the arena's (not "Free play"), and
    its button goes back to the arena, which sends the child on to the table."""
    game = seated(arena, student, ben)
    home = signed_in(student).get(reverse("classroom:student_home")).content.decode()
    carry_on = home.split("Carry on playing", 1)[1].split("My assignments", 1)[0]
    row = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", carry_on))
    assert "Smooth Operator · Arena game" in row and "Free play" not in row
    assert f'href="{reverse("arena:play", args=[arena.pk])}">Back to the arena</a>' in carry_on
    assert reverse("games:game", args=[game.pk]) not in carry_on
