"""Smooth Operator through the replay contract: the spec's worked example, every error code
(with the precedence), bad scenarios, and the real command line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers sit next to this file
from smooth_operator_helpers import EXAMPLE_SETUP, ROOT, act, replay, scenario  # noqa: E402

BEN_DIV = act("Ben", "play", card="/")
CAL_MINUS = act("Cal", "play", card="-")


def example(ann_hand, *more_actions, **setup_changes):
    setup = {**EXAMPLE_SETUP, "hands": {**EXAMPLE_SETUP["hands"], "Ann": ann_hand}, **setup_changes}
    return replay([BEN_DIV, CAL_MINUS, *more_actions], setup=setup)


# ----- the seed's example ------------------------------------------------------------------
def test_seed_example_ann_has_11_after_the_turn():
    out, status = example(["+", "-", "x"])
    assert status == 0 and out["ok"] and out["applied"] == 2
    state = out["state"]
    # Ann held no special, so her turn ended by itself; Ben is now active and Cal answers first.
    assert state["scores"] == {"Ann": 11, "Ben": 0, "Cal": 0}
    assert state["active"] == "Ben"
    assert (state["high"], state["low"]) == (15, 3)
    assert state["waiting_for"] == ["Cal"]


def test_seed_example_mid_turn_summary():
    out, _ = example(["double", "+", "-"])
    state = out["state"]
    assert state["waiting_for"] == ["Ann"] and state["active"] == "Ann"
    assert state["turn_awards"] == {"Ben": 3, "Cal": 8}
    assert state["turn_points"] == 11 and state["scores"]["Ann"] == 11
    assert (state["high"], state["low"]) == (12, 4)


def test_seed_example_with_double_makes_22():
    out, status = example(["double", "+", "-"], act("Ann", "special", card="double"))
    assert status == 0
    assert out["state"]["scores"]["Ann"] == 22


def test_seed_example_with_free_choice_x_then_double_makes_192():
    out, status = example(["double", "free_choice", "+"],
                          act("Ann", "special", card="free_choice", sign="x"),
                          act("Ann", "special", card="double"))
    assert status == 0 and out["applied"] == 4
    assert out["state"]["scores"]["Ann"] == 192  # (48 + 48) * 2


def test_order_of_specials_never_matters():
    out, _ = example(["double", "free_choice", "+"],
                     act("Ann", "special", card="double"),
                     act("Ann", "special", card="free_choice", sign="x"))
    assert out["state"]["scores"]["Ann"] == 192


def test_summary_holds_every_contract_key_with_sorted_hands():
    out, _ = example(["x", "free_choice", "-"])
    state = out["state"]
    assert set(state) == {"game", "finished", "winners", "waiting_for", "hands", "order", "active",
                          "scores", "high", "low", "turn_awards", "turn_points"}
    assert state["game"] == "smooth_operator" and state["winners"] == []
    assert state["order"] == ["Ann", "Ben", "Cal"]
    assert state["hands"]["Ann"] == ["-", "x", "free_choice"]
    for hand in state["hands"].values():
        order = ["+", "-", "x", "/", "free_turn", "double", "free_choice"]
        assert hand == sorted(hand, key=order.index)


# ----- error codes --------------------------------------------------------------------------
def first_error(actions, setup=None, **kwargs):
    out, status = replay(actions, setup=setup if setup is not None else EXAMPLE_SETUP, **kwargs)
    assert status == 1 and out["ok"] is False
    return out


@pytest.mark.parametrize("action", [
    {"player": "Ben", "type": "fly"},
    {"player": "Ben", "type": "play"},
    {"player": "Ben", "type": "play", "card": "/", "extra": 1},
    {"player": "Ben", "type": "play", "card": 4},
    {"player": "Ben", "type": "play", "card": True},
    {"player": "Ben", "type": "play", "card": "÷"},
    {"player": "Ben", "type": "play", "card": ["/"]},
    {"player": "Ben", "type": "play", "card": "/", "answer": "3"},
    {"player": "Ben", "type": "play", "card": "/", "answer": True},
    {"player": "Ben", "type": "penalty", "discard": None},
    {"player": "Ben", "type": "special", "card": "+"},
    {"player": "Ben", "type": "special", "card": "free_choice"},
    {"player": "Ben", "type": "special", "card": "double", "sign": "x"},
    {"player": "Ben", "type": "special", "card": "free_choice", "sign": 3},
    {"player": "Ben", "type": "end_turn", "card": "double"},
    {"player": 7, "type": "play", "card": "/"},
    {"type": "play", "card": "/"},
    ["Ben", "play", "/"],
])
def test_bad_action(action):
    out = first_error([action])
    assert out["error"]["code"] == "bad_action" and out["error"]["index"] == 0
    assert out["applied"] == 0


def test_error_reports_index_and_the_state_before_it():
    out = first_error([BEN_DIV, act("Cal", "play", card="/")])
    assert out["applied"] == 1
    assert out["error"]["index"] == 1 and out["error"]["code"] == "not_in_hand"
    assert out["state"]["turn_awards"] == {"Ben": 3}
    assert out["state"]["waiting_for"] == ["Cal"]
    assert isinstance(out["error"]["message"], str) and out["error"]["message"].endswith(".")


def test_unknown_player():
    assert first_error([act("Zed", "play", card="/")])["error"]["code"] == "unknown_player"


def test_not_your_turn_for_the_next_responder_and_the_active_player():
    assert first_error([CAL_MINUS])["error"]["code"] == "not_your_turn"
    assert first_error([act("Ann", "play", card="+")])["error"]["code"] == "not_your_turn"
    assert first_error([act("Ben", "end_turn")])["error"]["code"] == "not_your_turn"
    assert first_error([act("Ben", "special", card="double")])["error"]["code"] == "not_your_turn"


def test_active_player_cannot_play_or_pay_a_penalty_in_the_specials_phase():
    setup = {**EXAMPLE_SETUP, "hands": {**EXAMPLE_SETUP["hands"], "Ann": ["double", "+", "-"]}}
    for action in (act("Ann", "play", card="+"), act("Ann", "penalty", discard="double")):
        out = first_error([BEN_DIV, CAL_MINUS, action], setup=setup)
        assert out["error"] == {"index": 2, "code": "not_your_turn", "message": out["error"]["message"]}


def test_not_in_hand():
    assert first_error([act("Ben", "play", card="-")])["error"]["code"] == "not_in_hand"
    setup = {**EXAMPLE_SETUP, "hands": {**EXAMPLE_SETUP["hands"], "Ann": ["double", "+", "-"]}}
    out = first_error([BEN_DIV, CAL_MINUS, act("Ann", "special", card="free_turn")], setup=setup)
    assert out["error"]["code"] == "not_in_hand"


def test_uneven_division_for_a_card_and_for_a_free_choice_sign():
    setup = {**EXAMPLE_SETUP, "high_deck": [13, 15], "hands": {**EXAMPLE_SETUP["hands"],
                                                               "Ann": ["free_choice", "+", "-"]}}
    assert first_error([BEN_DIV], setup=setup)["error"]["code"] == "uneven_division"
    out = first_error([act("Ben", "play", card="+"), CAL_MINUS,
                       act("Ann", "special", card="free_choice", sign="/")], setup=setup)
    assert out["error"]["code"] == "uneven_division" and out["error"]["index"] == 2


def test_special_as_response():
    setup = {**EXAMPLE_SETUP, "hands": {**EXAMPLE_SETUP["hands"], "Ben": ["double", "+", "/"]}}
    assert first_error([act("Ben", "play", card="double")], setup=setup)["error"]["code"] == \
        "special_as_response"


def test_not_stuck_and_must_discard_special():
    setup = {**EXAMPLE_SETUP, "hands": {**EXAMPLE_SETUP["hands"], "Ben": ["double", "+", "/"]}}
    assert first_error([act("Ben", "penalty", discard="double")], setup=setup)["error"]["code"] == \
        "not_stuck"
    # not_stuck comes before must_discard_special
    assert first_error([act("Ben", "penalty", discard="+")], setup=setup)["error"]["code"] == \
        "not_stuck"
    stuck = {**EXAMPLE_SETUP, "high_deck": [13], "hands": {**EXAMPLE_SETUP["hands"],
                                                           "Ben": ["double", "/", "/"]}}
    assert first_error([act("Ben", "penalty", discard="/")], setup=stuck)["error"]["code"] == \
        "must_discard_special"
    # a stuck responder may not play the uneven division either
    assert first_error([act("Ben", "play", card="/")], setup=stuck)["error"]["code"] == \
        "uneven_division"


@pytest.mark.parametrize("sign", ["÷", "*", "plus", "", "double"])
def test_bad_sign(sign):
    setup = {**EXAMPLE_SETUP, "hands": {**EXAMPLE_SETUP["hands"], "Ann": ["free_choice", "+", "-"]}}
    out = first_error([BEN_DIV, CAL_MINUS, act("Ann", "special", card="free_choice", sign=sign)],
                      setup=setup)
    assert out["error"]["code"] == "bad_sign"


def test_game_over():
    out = first_error([BEN_DIV, CAL_MINUS, act("Ben", "play", card="+")],
                      setup={**EXAMPLE_SETUP, "hands": {**EXAMPLE_SETUP["hands"], "Ann": ["+", "+", "+"]}},
                      options={"target": 10})
    assert out["error"] == {"index": 2, "code": "game_over", "message": out["error"]["message"]}
    assert out["state"]["finished"] is True and out["state"]["winners"] == ["Ann"]
    assert out["state"]["waiting_for"] == [] and out["state"]["active"] == "Ann"


def test_precedence_between_codes():
    # bad_action beats unknown_player; unknown_player beats game_over
    assert first_error([{"player": "Zed", "type": "play", "card": "÷"}])["error"]["code"] == "bad_action"
    done = {**EXAMPLE_SETUP, "hands": {**EXAMPLE_SETUP["hands"], "Ann": ["+", "+", "+"]}}
    assert first_error([BEN_DIV, CAL_MINUS, act("Zed", "play", card="+")], setup=done,
                       options={"target": 10})["error"]["code"] == "unknown_player"
    # game_over beats not_your_turn and not_in_hand
    assert first_error([BEN_DIV, CAL_MINUS, act("Ann", "special", card="double")], setup=done,
                       options={"target": 10})["error"]["code"] == "game_over"
    # not_your_turn beats not_in_hand
    assert first_error([act("Cal", "play", card="/")])["error"]["code"] == "not_your_turn"
    # not_in_hand beats the game's own codes
    setup = {**EXAMPLE_SETUP, "high_deck": [13], "hands": {**EXAMPLE_SETUP["hands"], "Ben": ["/", "/", "x"]}}
    assert first_error([act("Ben", "penalty", discard="double")], setup=setup)["error"]["code"] == \
        "not_in_hand"
    assert first_error([act("Ben", "play", card="free_turn")], setup=setup)["error"]["code"] == "not_in_hand"


def test_answer_is_accepted_and_changes_nothing():
    with_answers = [dict(BEN_DIV, answer=3), dict(CAL_MINUS, answer=-99)]
    out_a, status = replay(with_answers, setup=EXAMPLE_SETUP)
    out_b, _ = replay([BEN_DIV, CAL_MINUS], setup=EXAMPLE_SETUP)
    assert status == 0 and out_a == out_b


# ----- bad scenarios --------------------------------------------------------------------
@pytest.mark.parametrize("changes", [
    {"players": ["Ann"]},
    {"players": ["A", "B", "C", "D", "E"]},
    {"options": {"target": 5}},
    {"options": {"target": 5001}},
    {"options": {"target": "500"}},
    {"options": {"target": True}},
    {"options": {"goal": 500}},
    {"setup": {"order": ["Ann", "Ben"]}},
    {"setup": {"order": ["Ann", "Ben", "Ben"]}},
    {"setup": {"hands": {"Zed": ["+"]}}},
    {"setup": {"hands": {"Ann": [5]}}},
    {"setup": {"hands": {"Ann": "+-x"}}},
    {"setup": {"hands": {"Ann": ["free_choice"] * 3, "Ben": ["free_choice"] * 2}}},
    {"setup": {"hands": {"Ann": ["+"] * 10}, "operator_deck": ["+"] * 6}},
    {"setup": {"high_deck": [12] * 6}},
    {"setup": {"high_deck": [10, 12]}},
    {"setup": {"high_deck": [True]}},
    {"setup": {"low_deck": [11]}},
    {"setup": {"low_deck": []}},
    {"setup": {"high_deck": []}},
    {"setup": {"operator_deck": ["÷"]}},
    {"setup": {"colour": "red"}},
    {"setup": ["order"]},
])
def test_bad_scenarios(changes):
    sc = scenario([BEN_DIV])
    sc.update(changes)
    out, status = __import__("games.engine.replay", fromlist=["run_scenario"]).run_scenario(sc)
    assert status == 2
    assert out == {"ok": False, "applied": 0, "state": None,
                   "error": {"index": None, "code": "bad_scenario", "message": out["error"]["message"]}}


def test_a_setup_may_use_every_copy_of_a_card():
    out, status = replay([], setup={"order": ["Cal", "Ann", "Ben"],
                                    "hands": {"Ann": ["free_choice"] * 4, "Ben": ["x"] * 15},
                                    "high_deck": [12] * 5})
    assert status == 0
    assert out["state"]["hands"]["Ann"] == ["free_choice"] * 4  # stuck: waiting for her penalty
    assert out["state"]["waiting_for"] == ["Ann"]


# ----- the real command line --------------------------------------------------------------
def cli(payload: str, *args: str):
    result = subprocess.run([sys.executable, "-m", "games.engine.replay", *(args or ("-",))],
                            cwd=ROOT, input=payload, capture_output=True, text=True)
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1  # exactly one JSON object
    return json.loads(lines[0]), result.returncode


def test_cli_runs_the_seed_example_from_a_file(tmp_path):
    setup = {**EXAMPLE_SETUP, "hands": {**EXAMPLE_SETUP["hands"], "Ann": ["double", "free_choice", "+"]}}
    sc = scenario([BEN_DIV, CAL_MINUS, act("Ann", "special", card="free_choice", sign="x"),
                   act("Ann", "special", card="double")], setup=setup)
    path = tmp_path / "example.json"
    path.write_text(json.dumps(sc))
    out, status = cli("", str(path))
    assert status == 0 and out["ok"] and out["applied"] == 4 and out["error"] is None
    assert out["state"]["scores"]["Ann"] == 192


def test_cli_illegal_action_exits_1():
    out, status = cli(json.dumps(scenario([BEN_DIV, act("Ben", "play", card="+")], setup=EXAMPLE_SETUP)))
    assert status == 1 and out["applied"] == 1
    assert out["error"]["code"] == "not_your_turn" and out["error"]["index"] == 1


def test_cli_bad_scenario_exits_2():
    out, status = cli(json.dumps(scenario([], players=["Ann", "Ben"],
                                          setup={"hands": {"Ann": ["x"] * 16}})))
    assert status == 2 and out["state"] is None and out["error"]["code"] == "bad_scenario"
    out, status = cli(json.dumps(scenario([], players=["Solo"])))
    assert status == 2 and out["error"]["code"] == "bad_scenario"
