"""Smooth Operator's mental-maths mode: the responder types h (op) l before playing. A wrong
answer is recorded and gently corrected, and never blocks the card being played."""

import pytest
from django.urls import reverse

from classroom.models import Assignment
from games import engine as engines
from games.services.bots import play_bot_moves
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
    return render_table(game_id=game.pk, seat=game.seats.get(name="Ann"), coach=False).html


def test_each_playable_card_asks_for_its_answer_in_mental_maths_mode(classroom, student):
    game = game_waiting_for_ann_to_respond(classroom, student)
    html = ann_table(game)
    high, low = game.state["high"], game.state["low"]
    engine = engines.get("smooth_operator")
    for card in engine.view(game.state, "Ann")["hand"]:
        if card in SYMBOL:
            asked = f"{high} {SYMBOL[card]} {low} =" in html
            assert asked == engine.is_legal(game.state, "Ann", {"type": "play", "card": card})
    assert 'name="answer"' in html and "work out the answer" in html


def fixed_response(classroom, student, hand, high=13, low=5, mental_math=True) -> Game:
    """Robo's turn, Ann answers with `hand` on the pair `high`, `low`."""
    assignment = Assignment.objects.create(classroom=classroom, title="Quick sums",
                                           game="smooth_operator", mental_math=mental_math)
    game = game_create(key="smooth_operator", classroom=classroom, seed=1, assignment=assignment,
                       options={"target": 500},
                       seats=[SeatSpec("Robo", bot_level="beginner"), SeatSpec("Ann", user=student)])
    state = engines.get("smooth_operator").new_game(
        ["Robo", "Ann"], {"target": 500}, 1,
        {"order": ["Robo", "Ann"], "hands": {"Ann": hand, "Robo": ["x", "-", "free_turn"]},
         "high_deck": [high, 17, 18], "low_deck": [low, 2, 3]})
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("mental_math", [True, False])
def test_only_cards_that_can_be_played_ask_and_the_others_say_why(classroom, student, mental_math):
    game = fixed_response(classroom, student, ["/", "double", "+"], mental_math=mental_math)
    html = ann_table(game)
    # + is the only card that can be played on 13 and 5: it alone is marked, and (mental
    # maths) asks its question.
    assert html.count('<span class="so-mark">✓ can play</span>') == 1
    assert ('13 + 5 =' in html) is mental_math and html.count('name="answer"') == int(mental_math)
    assert "13 ÷ 5 =" not in html and "None" not in html
    # ÷ and Double say why in words, and offer no button that would send them.
    assert "13 ÷ 5 doesn&#x27;t divide evenly, so ÷ can&#x27;t be played now." in html
    assert "Double is a special card" in html
    assert '&quot;card&quot;:&quot;/&quot;' not in html and '&quot;card&quot;:&quot;double&quot;' not in html
    assert 'id="so-add-1"' in html


def test_special_cards_get_plain_buttons_on_the_players_own_turn(classroom, student):
    # Ann's own turn, everyone has answered: her specials get their own plain buttons.
    game = fixed_response(classroom, student, ["+", "double", "free_choice"], mental_math=True)
    engine = engines.get("smooth_operator")
    state, _ = engine.apply(game.state, "Ann", {"type": "play", "card": "+"})
    state, _ = engine.apply(state, "Robo", {"type": "end_turn"})
    # Now it is Ann's turn: Robo answers, then Ann faces her specials.
    for _ in range(5):
        if engine.view(state, "Ann")["decision"] == "specials":
            break
        name = engine.waiting_for(state)[0]
        state, _ = engine.apply(state, name, engine.legal_actions(state, name)[0])
    assert engine.view(state, "Ann")["decision"] == "specials"
    Game.objects.filter(pk=game.pk).update(state=state, version=5)
    html = ann_table(game)
    assert ">Play Double</button>" in html and 'id="so-double-1"' in html
    assert 'aria-label="Free Choice with multiply"' in html and 'id="so-end-turn"' in html
    assert 'name="answer"' not in html and "None" not in html


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
    robo = render_table(game_id=game.pk, seat=game.seats.get(name="Robo"), coach=False).html
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
    assert 'class="mm-answer"' in client.get(reverse("games:game", args=[game.pk])).content.decode()
