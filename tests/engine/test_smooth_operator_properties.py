"""Smooth Operator: what random play shows about this game's own rules (awards, scores, turns,
cards, what a view hides) and which moves it allows. What every game must do (listed moves
allowed, JSON states, a move never touching its input, same seed same game, fuzzed moves
refused with known codes) is the contract suite's: tests/contract/."""

import copy
import json
import random
import sys
from collections import Counter
from pathlib import Path

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))
from smooth_operator_helpers import (  # noqa: E402
    card_totals, hide_differently, new_state, random_playthrough,
)

from games.engine.smooth_operator import ENGINE, rules  # noqa: E402

NAMES = {2: ("A", "B"), 3: ("A", "B", "C"), 4: ("A", "B", "C", "D")}
PACK = (Counter(rules.operator_components()), Counter(rules.high_components()),
        Counter(rules.low_components()))

game_seeds = st.integers(0, 10**6)
player_counts = st.sampled_from([2, 3, 4])


@settings(max_examples=60, deadline=None)
@example(seed=4638, count=2)  # the deal itself ends a turn with an automatic stuck penalty
@given(seed=game_seeds, count=player_counts)
def test_random_play_keeps_every_rule(seed, count):
    completed = None  # points banked per player at the end of their turns
    for before, player, action, after, events in random_playthrough(seed, NAMES[count], target=150):
        if completed is None:
            # Turns can end during the deal already (a responder stuck with only uneven
            # divisions gives 25 automatically), so start from what the deal banked.
            completed = Counter({p: before["scores"][p] - (before["turn_points"] if p == before["active"] else 0)
                                 for p in NAMES[count]})
        assert card_totals(after) == PACK  # cards are conserved
        high, low = before["high"], before["low"]
        for event in events:
            kind = event["type"]
            if kind == "play":
                assert event["award"] == rules.result(event["card"], event["high"], event["low"])
                assert event["award"] == rules.result(action["card"], high, low)
            elif kind in ("stuck", "penalty"):
                assert event["award"] == 25
            elif kind == "end_turn":
                completed[event["player"]] += event["points"]
            elif kind == "flip":
                assert 11 <= event["high"] <= 20 and 1 <= event["low"] <= 10
        # scores are exactly the banked turns plus the running turn of the active player
        running = 0 if after["finished"] else after["turn_points"]
        for p in NAMES[count]:
            expected = completed[p] + (running if p == after["active"] else 0)
            assert after["scores"][p] == expected
        assert after["turn_points"] == sum(after["turn_awards"].values()) * 2 ** after["doubles"]
        if after["free_choice"]:
            value = rules.result(after["free_choice"], after["high"], after["low"])
            assert set(after["turn_awards"].values()) == {value}
        if after["finished"]:
            assert after["winners"] == [after["active"]]
            assert after["scores"][after["active"]] >= 150
            assert max(v for p, v in after["scores"].items() if p != after["active"]) < 150


@settings(max_examples=40, deadline=None)
@given(seed=game_seeds, count=player_counts, steps=st.integers(0, 30))
def test_views_hide_other_hands_and_deck_order(seed, count, steps):
    rng = random.Random(seed)
    state = new_state(NAMES[count], seed=seed)
    for _, _, _, after, _ in random_playthrough(seed, NAMES[count], max_steps=steps):
        state = after
    for viewer in list(NAMES[count]) + [None]:
        view = ENGINE.view(state, viewer)
        assert "hands" not in view and "decks" not in view
        assert view["me"] == viewer
        if viewer is not None:
            assert view["hand"] == rules.sort_hand(state["hands"][viewer])
        text = json.dumps(view)
        for deck in state["decks"].values():
            if len(deck) >= 6:
                assert json.dumps(deck)[1:-1] not in text
        for _ in range(3):
            twin = hide_differently(state, viewer, rng)
            assert ENGINE.view(twin, viewer) == view
        coach = ENGINE.coach_view(state)
        assert "decks" not in coach
        if len(state["decks"]["high"]) >= 6:
            assert json.dumps(state["decks"]["high"])[1:-1] not in json.dumps(coach)


def test_a_view_does_change_with_the_viewers_own_hand():
    state = new_state(("A", "B"), seed=3)
    twin = copy.deepcopy(state)
    twin["hands"]["A"] = ["free_choice", "free_choice", "free_choice"]
    assert ENGINE.view(twin, "A") != ENGINE.view(state, "A")
    assert ENGINE.view(twin, "B") == ENGINE.view(state, "B")


@settings(max_examples=60, deadline=None)
@given(seed=game_seeds, steps=st.integers(0, 40))
def test_every_listed_legal_action_is_accepted_and_nothing_else_of_that_kind(seed, steps):
    state = new_state(("A", "B", "C"), options={"target": 200}, seed=seed)
    for _, _, _, after, _ in random_playthrough(seed, ("A", "B", "C"), target=200, max_steps=steps):
        state = after
    assume(not state["finished"])
    player = ENGINE.waiting_for(state)[0]
    legal = ENGINE.legal_actions(state, player)
    candidates = [{"type": "play", "card": c} for c in rules.OPERATOR_CODES]
    candidates += [{"type": "penalty", "discard": c} for c in rules.OPERATOR_CODES]
    candidates += [{"type": "special", "card": c} for c in ("free_turn", "double")]
    candidates += [{"type": "special", "card": "free_choice", "sign": s} for s in rules.ARITHMETIC]
    candidates += [{"type": "end_turn"}]
    for action in candidates:
        assert ENGINE.is_legal(state, player, action) == (action in legal)
    for other in state["players"]:
        if other != player:
            assert ENGINE.legal_actions(state, other) == []
