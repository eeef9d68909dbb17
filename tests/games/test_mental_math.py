"""Smooth Operator's mental-maths mode: the responder types h (op) l before playing. A wrong
answer is recorded and gently corrected, and never blocks the card being played."""

import pytest
from django.urls import reverse

from classroom.models import Assignment
from games import engine as engines
from games.bot_turns import play_bot_moves
from games.models import Game
from games.rendering import render_table
from games.services import SeatSpec, game_apply_move, game_create

pytestmark = pytest.mark.django_db

SYMBOL = {"+": "+", "-": "−", "x": "×", "/": "÷"}


def game_waiting_for_ann_to_respond(classroom, student, mental_math=True) -> Game:
    assignment = Assignment.objects.create(classroom=classroom, title="Quick sums",
                                           game="smooth_operator", mental_math=mental_math)
    engine = engines.get("smooth_operator")
    for seed in range(50):
        game = game_create(key="smooth_operator", classroom=classroom, seed=seed, assignment=assignment,
                           options={"target": 500},
                           seats=[SeatSpec("Robo", bot_level="beginner"), SeatSpec("Ann", user=student)])
        play_bot_moves(game_id=game.pk)
        game.refresh_from_db()
        view = engine.view(game.state, "Ann")
        if view.get("decision") == "response" and any(
                engines.get("smooth_operator").is_legal(game.state, "Ann", {"type": "play", "card": c})
                for c in view["hand"]):
            return game
    raise AssertionError("no seed gives Ann a response")


def legal_card(game) -> str:
    engine = engines.get("smooth_operator")
    return next(a["card"] for a in engine.legal_actions(game.state, "Ann") if a["type"] == "play")


def ann_table(game):
    return render_table(game_id=game.pk, seat=game.seats.get(name="Ann"), coach=False)


def test_each_card_asks_for_its_answer_in_mental_maths_mode(classroom, student):
    game = game_waiting_for_ann_to_respond(classroom, student)
    html = ann_table(game)
    high, low = game.state["high"], game.state["low"]
    for card in engines.get("smooth_operator").view(game.state, "Ann")["hand"]:
        if card in SYMBOL:
            assert f"{high} {SYMBOL[card]} {low} =" in html
    assert 'name="answer"' in html and "work out the answer" in html


def test_without_the_mode_there_is_no_answer_box(classroom, student):
    game = game_waiting_for_ann_to_respond(classroom, student, mental_math=False)
    assert 'name="answer"' not in ann_table(game)


def test_a_wrong_answer_is_recorded_corrected_and_the_card_is_still_played(classroom, student):
    game = game_waiting_for_ann_to_respond(classroom, student)
    card = legal_card(game)
    high, low = game.state["high"], game.state["low"]
    right = {"+": high + low, "-": high - low, "x": high * low, "/": high // low}[card]
    result = game_apply_move(game_id=game.pk, seat=game.seats.get(name="Ann"),
                             action={"type": "play", "card": card, "answer": right + 1},
                             expected_version=game.version, answer=right + 1, schedule_bots=False)
    assert result.applied
    move = result.move
    assert move.answer == right + 1 and move.analysis["answer_correct"] is False
    html = ann_table(game)
    assert f"You wrote {right + 1}, but {high} {SYMBOL[card]} {low} = {right}" in html
    assert "Your card was played anyway" in html
    # the opponent is never shown Ann's answer
    robo = render_table(game_id=game.pk, seat=game.seats.get(name="Robo"), coach=False)
    assert "You wrote" not in robo


def test_a_right_answer_is_praised(classroom, student):
    game = game_waiting_for_ann_to_respond(classroom, student)
    card = legal_card(game)
    high, low = game.state["high"], game.state["low"]
    right = {"+": high + low, "-": high - low, "x": high * low, "/": high // low}[card]
    assert game_apply_move(game_id=game.pk, seat=game.seats.get(name="Ann"),
                           action={"type": "play", "card": card, "answer": right},
                           expected_version=game.version, answer=right, schedule_bots=False).applied
    assert f"Right! {high} {SYMBOL[card]} {low} = {right}" in ann_table(game)


def test_the_page_over_http_shows_the_answer_boxes_too(client, classroom, student):
    game = game_waiting_for_ann_to_respond(classroom, student)
    client.force_login(student)
    assert 'class="mm-answer"' in client.get(reverse("games:table", args=[game.pk])).content.decode()
