"""Smooth Operator bots: views only, deterministic, always legal. (Its golden games are
replayed by tests/contract/test_goldens.py.)"""

import copy
import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from smooth_operator_helpers import (  # noqa: E402
    EXAMPLE_SETUP, hide_differently, new_state, random_playthrough, step,
)

from games.engine import make_bot  # noqa: E402
from games.engine.smooth_operator import BOTS, ENGINE, hand_values, strategy  # noqa: E402

LEVELS = ("starter", "beginner", "player", "expert")


def bot_game(levels, seed, target=150):
    players = [f"P{i}" for i in range(len(levels))]
    bots = {p: make_bot("smooth_operator", level, seed + i)
            for i, (p, level) in enumerate(zip(players, levels))}
    state = ENGINE.new_game(players, {"target": target}, seed)
    chosen = []
    while not state["finished"]:
        player = ENGINE.waiting_for(state)[0]
        view = ENGINE.view(state, player)
        action = bots[player].choose(json.loads(json.dumps(view)))  # plain data, nothing else
        assert action in view["legal_actions"]
        state, _ = step(state, player, action)  # raises if the bot chose an illegal move
        chosen.append((player, action))
    return state, chosen


def test_bots_are_registered_for_every_level():
    assert set(BOTS) == set(LEVELS)
    for level in LEVELS:
        assert make_bot("smooth_operator", level, 1).level == level


@pytest.mark.parametrize("levels", [("beginner", "expert"), ("player", "beginner", "expert"),
                                    ("expert", "player", "beginner", "expert")])
def test_bots_only_make_legal_moves_and_finish_games(levels):
    for seed in range(3):
        state, chosen = bot_game(levels, seed)
        assert state["finished"] and chosen


@pytest.mark.parametrize("level", LEVELS)
def test_bots_are_deterministic_for_a_seed(level):
    _, first = bot_game((level, level, "player"), 11)
    _, again = bot_game((level, level, "player"), 11)
    assert first == again


@pytest.mark.parametrize("level", LEVELS)
def test_bots_cannot_see_hidden_cards(level):
    """Two states that differ only in what the bot may not see give it the same choice."""
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        for before, player, _, _, _ in random_playthrough(seed, ("A", "B", "C"), target=300, max_steps=12):
            view = ENGINE.view(before, player)
            assert "hands" not in view and "decks" not in view and "seed" not in view
            twin_view = ENGINE.view(hide_differently(before, player, rng), player)
            assert twin_view == view
            a = make_bot("smooth_operator", level, seed).choose(copy.deepcopy(view))
            b = make_bot("smooth_operator", level, seed).choose(twin_view)
            assert a == b
            checked += 1
    assert checked > 100


def responder_view(hand, high, low):
    setup = {"order": ["Ann", "Ben"], "hands": {"Ann": ["+", "+", "+"], "Ben": list(hand)},
             "high_deck": [high], "low_deck": [low]}
    state = new_state(("Ann", "Ben"), setup)
    assert ENGINE.waiting_for(state) == ["Ben"]
    return ENGINE.view(state, "Ben")


def test_player_bot_plays_the_lowest_card():
    view = responder_view(["x", "+", "/"], 12, 4)
    assert BOTS["player"](ENGINE, 0).choose(view) == {"type": "play", "card": "/"}


def test_expert_gets_rid_of_x_while_it_is_cheap():
    # 12 x 1 = 12 costs one point more than 12 - 1 = 11, and keeps the good `-` for later.
    view = responder_view(["x", "-", "+"], 12, 1)
    assert BOTS["player"](ENGINE, 0).choose(view) == {"type": "play", "card": "-"}
    assert BOTS["expert"](ENGINE, 0).choose(view) == {"type": "play", "card": "x"}


def specials_view(ann_hand, target=500, high_deck=(12,)):
    setup = {**EXAMPLE_SETUP, "hands": {**EXAMPLE_SETUP["hands"], "Ann": list(ann_hand)},
             "high_deck": list(high_deck)}
    state = ENGINE.new_game(["Ann", "Ben", "Cal"], {"target": target}, 0, setup)
    state, _ = step(state, "Ben", {"type": "play", "card": "/"})
    state, _ = step(state, "Cal", {"type": "play", "card": "-"})
    return ENGINE.view(state, "Ann")


def test_expert_takes_a_free_turn_and_wins_when_it_can():
    assert BOTS["expert"](ENGINE, 0).choose(specials_view(["free_turn", "double", "+"])) == \
        {"type": "special", "card": "free_turn"}
    # 96 points with free_choice x reach a target of 90 now: no reason to wait.
    action = BOTS["expert"](ENGINE, 0).choose(specials_view(["free_choice", "+", "-"], target=90))
    assert action == {"type": "special", "card": "free_choice", "sign": "x"}


def test_beginner_sometimes_wastes_and_player_never_ends_with_a_raising_free_choice():
    view = specials_view(["free_choice", "+", "-"])
    beginner = BOTS["beginner"](ENGINE, 3)
    choices = {json.dumps(beginner.choose(view), sort_keys=True) for _ in range(60)}
    assert len(choices) > 2
    assert BOTS["player"](ENGINE, 0).choose(view) == {"type": "special", "card": "free_choice", "sign": "x"}


def test_stored_hand_values_match_their_generator():
    before, after = strategy.compute_hand_values()
    assert set(before) == set(hand_values.BEFORE) == set(strategy.HANDS)
    for hand in strategy.HANDS:
        assert abs(before[hand] - hand_values.BEFORE[hand]) < 0.02
        assert abs(after[hand] - hand_values.AFTER[hand]) < 0.02
    # the lesson the table teaches: x x x is the worst hand, and - beats x
    assert max(before, key=before.get) == ("x", "x", "x")
    assert before[("+", "-", "-")] < before[("+", "-", "x")]


@pytest.mark.parametrize("level", LEVELS)
def test_bots_cope_with_odd_setups(level):
    """Hands of other sizes and a pack cut short by a setup (cards out of the game)."""
    setup = {"hands": {"P0": ["x", "x", "/", "free_choice", "double"], "P1": []},
             "operator_deck": ["+", "-", "free_turn"], "high_deck": [20, 11], "low_deck": [1, 10]}
    for seed in range(3):
        players = ["P0", "P1", "P2"]
        bots = {p: make_bot("smooth_operator", level, seed) for p in players}
        state = ENGINE.new_game(players, {"target": 300}, seed, setup)
        while not state["finished"]:
            player = ENGINE.waiting_for(state)[0]
            state, _ = step(state, player, bots[player].choose(ENGINE.view(state, player)))
        assert state["winners"]
