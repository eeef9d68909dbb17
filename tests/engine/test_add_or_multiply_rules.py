"""Add or Multiply?: the seed's example, every error code, the summary, views, analysis."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers sit next to this file
from add_or_multiply_helpers import PLAYERS, play, run, run_cli, scenario, seed_actions  # noqa: E402

from games.engine import get  # noqa: E402
from games.engine.replay import run_scenario  # noqa: E402
from games.engine.add_or_multiply import rules  # noqa: E402
from games.engine.add_or_multiply import PRESETS, last_round_facts, round_facts  # noqa: E402
from games.engine.errors import BadScenario, IllegalMove  # noqa: E402

ENGINE = get("add_or_multiply")


def state_after(actions):
    state = ENGINE.new_game(list(PLAYERS))
    for action in actions:
        move = {k: v for k, v in action.items() if k != "player"}
        state, _ = ENGINE.apply(state, action["player"], move)
    return state


# ----- the seed's example -----------------------------------------------------------------
def test_seed_example_final_scores_and_winner():
    out, status = run(seed_actions())
    assert status == 0 and out["ok"] and out["applied"] == 15
    final = out["state"]
    assert final["scores"] == {"Brian": 24, "Susie": 38, "Ted": 19}
    assert final["winners"] == ["Susie"]
    assert final["finished"] is True and final["waiting_for"] == [] and final["submitted"] == []
    assert final["round"] == 5
    assert final["last_round"] == {
        "Brian": {"on_me": [0, 3], "operation": "+", "points": 3},
        "Susie": {"on_me": [5, 5], "operation": "x", "points": 25},
        "Ted": {"on_me": [0, 2], "operation": "x", "points": 0},
    }
    # All ten numbers are played; one operation card is left over for each player.
    assert all(h["numbers"] == [] and len(h["operations"]) == 1 for h in final["hands"].values())


@pytest.mark.parametrize("rounds, scores", [
    (1, {"Brian": 0, "Susie": 5, "Ted": 6}),
    (2, {"Brian": 8, "Susie": 9, "Ted": 6}),
    (3, {"Brian": 10, "Susie": 10, "Ted": 18}),
    (4, {"Brian": 21, "Susie": 13, "Ted": 19}),
])
def test_seed_example_running_totals(rounds, scores):
    out, status = run(seed_actions(rounds))
    assert status == 0 and out["state"]["scores"] == scores
    assert out["state"]["round"] == rounds + 1


def test_seed_example_round_one_hands_match_the_leaflet():
    out, _ = run(seed_actions(1))
    hands = out["state"]["hands"]
    assert hands["Brian"] == {"numbers": [0, 0, 1, 2, 3, 4, 5, 6], "operations": ["+", "+", "+", "x", "x"]}
    assert hands["Susie"] == {"numbers": [0, 1, 1, 2, 2, 3, 5, 6], "operations": ["+", "+", "x", "x", "x"]}
    assert hands["Ted"] == {"numbers": [0, 0, 1, 1, 2, 2, 5, 6], "operations": ["+", "+", "x", "x", "x"]}


def test_had_susie_added_in_round_five_brian_would_have_won():
    actions = seed_actions()
    actions[13] = play("Susie", {"Brian": 3, "Ted": 0}, "+")
    out, _ = run(actions)
    assert out["state"]["scores"] == {"Brian": 24, "Susie": 23, "Ted": 19}
    assert out["state"]["winners"] == ["Brian"]


def test_choices_are_taken_in_any_order():
    actions = seed_actions()
    reordered = []
    for r in range(5):
        reordered += list(reversed(actions[3 * r: 3 * r + 3]))
    assert run(reordered)[0]["state"] == run(actions)[0]["state"]


def test_ties_share_the_win():
    # Everybody sends 0 and 0 with the same operation: everybody scores 0.
    actions = [play(p, {o: 0 for o in PLAYERS if o != p}, "+") for p in PLAYERS]
    out, _ = run(actions, options={"rounds": 1})
    assert out["state"]["finished"] and out["state"]["winners"] == PLAYERS


# ----- round flow, summary -----------------------------------------------------------
def test_waiting_and_submitted_during_a_round():
    out, _ = run(seed_actions()[:2])
    summary = out["state"]
    assert summary["submitted"] == ["Brian", "Susie"]
    assert summary["waiting_for"] == ["Ted"]
    assert summary["round"] == 1 and summary["last_round"] == {}
    # Chosen cards are still held until the round resolves.
    assert summary["hands"]["Brian"]["numbers"] == [0, 0, 1, 1, 2, 2, 3, 4, 5, 6]


def test_initial_summary():
    summary = ENGINE.summary(ENGINE.new_game(list(PLAYERS)))
    assert summary == {
        "game": "add_or_multiply", "finished": False, "winners": [],
        "waiting_for": PLAYERS,
        "hands": {p: {"numbers": [0, 0, 1, 1, 2, 2, 3, 4, 5, 6],
                      "operations": ["+", "+", "+", "x", "x", "x"]} for p in PLAYERS},
        "round": 1, "scores": {p: 0 for p in PLAYERS}, "submitted": [], "last_round": {},
    }


def test_rounds_option_shortens_the_game():
    out, status = run(seed_actions(3), options={"rounds": 3})
    assert status == 0 and out["state"]["finished"] and out["state"]["round"] == 3
    assert out["state"]["winners"] == ["Ted"]


def test_same_value_on_both_needs_two_copies():
    out, status = run([play("Brian", {"Susie": 0, "Ted": 0}, "x")])
    assert status == 0 and out["state"]["submitted"] == ["Brian"]
    out, status = run([play("Brian", {"Susie": 6, "Ted": 6}, "x")])
    assert status == 1 and out["error"]["code"] == "not_in_hand"


# ----- error codes ------------------------------------------------------------------------
@pytest.mark.parametrize("action", [
    {"player": "Brian", "type": "pass"},
    {"player": "Brian", "type": "play", "on": {"Susie": 1, "Ted": 2}},
    {"player": "Brian", "type": "play", "on": {"Susie": 1, "Ted": 2}, "operation": "x", "card": 3},
    {"player": "Brian", "type": "play", "on": {"Susie": 1, "Ted": 7}, "operation": "x"},
    {"player": "Brian", "type": "play", "on": {"Susie": True, "Ted": 2}, "operation": "x"},
    {"player": "Brian", "type": "play", "on": {"Susie": "1", "Ted": 2}, "operation": "x"},
    {"player": "Brian", "type": "play", "on": [1, 2], "operation": "x"},
    {"player": "Brian", "type": "play", "on": {"Susie": 1, "Ted": 2}, "operation": "-"},
    {"player": "Brian", "type": "play", "on": {"Susie": 1, "Ted": 2}, "operation": "x", "answer": "2"},
    {"type": "play", "on": {"Susie": 1, "Ted": 2}, "operation": "x"},
    "play",
])
def test_bad_action(action):
    out, status = run([action])
    assert status == 1 and out["error"]["code"] == "bad_action" and out["error"]["index"] == 0
    assert out["applied"] == 0 and out["state"]["submitted"] == []


def test_answer_is_accepted_and_ignored():
    action = dict(play("Brian", {"Susie": 1, "Ted": 2}, "x"), answer=3)
    assert run([action])[0]["state"] == run([play("Brian", {"Susie": 1, "Ted": 2}, "x")])[0]["state"]


def test_unknown_player():
    out, status = run([play("Zed", {"Susie": 1, "Ted": 2}, "x")])
    assert status == 1 and out["error"]["code"] == "unknown_player"


def test_game_over():
    out, status = run(seed_actions() + [play("Brian", {"Susie": 1, "Ted": 2}, "x")])
    assert status == 1 and out["error"] == {"index": 15, "code": "game_over",
                                            "message": out["error"]["message"]}
    assert out["applied"] == 15 and out["state"]["finished"]


def test_not_in_hand_for_a_spent_number():
    # After the seed's four rounds Brian holds only 2 and 5.
    out, status = run(seed_actions(4) + [play("Brian", {"Susie": 6, "Ted": 2}, "+")])
    assert status == 1 and out["error"]["code"] == "not_in_hand" and out["applied"] == 12


def test_not_in_hand_for_a_spent_operation():
    # Three rounds of + with pairs 0-0, 1-1, 2-2 use up every + card.
    actions = [play(p, {o: v for o in PLAYERS if o != p}, "+") for v in (0, 1, 2) for p in PLAYERS]
    out, status = run(actions + [play("Brian", {"Susie": 3, "Ted": 4}, "+")])
    assert status == 1 and out["error"]["code"] == "not_in_hand"
    assert out["state"]["hands"]["Brian"] == {"numbers": [3, 4, 5, 6], "operations": ["x", "x", "x"]}
    out, status = run(actions + [play("Brian", {"Susie": 3, "Ted": 4}, "x")])
    assert status == 0


@pytest.mark.parametrize("on", [
    {"Susie": 1},
    {"Susie": 1, "Ted": 2, "Brian": 3},
    {"Susie": 1, "Brian": 2},
    {"Susie": 1, "Zed": 2},
    {},
])
def test_bad_target(on):
    out, status = run([play("Brian", on, "x")])
    assert status == 1 and out["error"]["code"] == "bad_target"


def test_already_played():
    first = play("Brian", {"Susie": 1, "Ted": 2}, "x")
    out, status = run([first, play("Susie", {"Brian": 0, "Ted": 4}, "+"), first])
    assert status == 1 and out["error"]["index"] == 2 and out["error"]["code"] == "already_played"
    assert out["state"]["submitted"] == ["Brian", "Susie"]


def test_precedence_not_in_hand_then_bad_target_then_already_played():
    first = play("Brian", {"Susie": 1, "Ted": 2}, "x")
    out, _ = run([first, play("Brian", {"Susie": 6, "Ted": 6}, "x")])
    assert out["error"]["code"] == "not_in_hand"
    out, _ = run([first, play("Brian", {"Susie": 1, "Zed": 2}, "x")])
    assert out["error"]["code"] == "bad_target"
    out, _ = run([play("Brian", {"Susie": 6, "Zed": 6}, "x")])
    assert out["error"]["code"] == "not_in_hand"
    # bad_action and unknown_player and game_over come before everything else.
    out, _ = run([first, {"player": "Brian", "type": "play", "on": {"Susie": 9}, "operation": "x"}])
    assert out["error"]["code"] == "bad_action"
    out, _ = run(seed_actions() + [play("Brian", {"Susie": 6, "Zed": 6}, "x")])
    assert out["error"]["code"] == "game_over"


def test_not_your_turn_never_happens_while_the_game_runs():
    # Everybody plays in every round: whoever has not chosen is waited for, whoever has
    # chosen is told already_played (never not_your_turn).
    state = ENGINE.new_game(list(PLAYERS))
    probe = {"type": "play", "on": {}, "operation": "+"}
    for action in seed_actions():
        for player in PLAYERS:
            if player in state["pending"]:
                good = rules.legal_plays(state["hands"][player], rules.opponents(PLAYERS, player))[0]
                with pytest.raises(IllegalMove) as info:
                    ENGINE.apply(state, player, good)
                assert info.value.code == "already_played"
            else:
                assert player in ENGINE.waiting_for(state)
                with pytest.raises(IllegalMove) as info:
                    ENGINE.apply(state, player, probe)
                assert info.value.code == "bad_target"
        state, _ = ENGINE.apply(state, action["player"],
                                {k: v for k, v in action.items() if k != "player"})


def test_error_messages_are_single_friendly_sentences():
    cases = [
        [play("Brian", {"Susie": 6, "Ted": 6}, "x")],
        [play("Brian", {"Susie": 1}, "x")],
        [play("Brian", {"Susie": 1, "Ted": 2}, "x")] * 2,
    ]
    for actions in cases:
        message = run(actions)[0]["error"]["message"]
        assert message and message.endswith(".") and message.count(". ") == 0
        assert "_" not in message


# ----- bad scenarios ----------------------------------------------------------------------
@pytest.mark.parametrize("changes", [
    {"players": ["Ann", "Ben"]},
    {"players": ["Ann", "Ben", "Cal", "Dan"]},
    {"players": ["Ann", "Ann", "Cal"]},
    {"players": ["Ann", "", "Cal"]},
    {"options": {"rounds": 6}},
    {"options": {"rounds": 0}},
    {"options": {"rounds": True}},
    {"options": {"target": 10}},
    {"setup": {"hands": {"Brian": [1, 2]}}},
    {"seed": "7"},
])
def test_bad_scenario(changes):
    out, status = run_scenario(dict(scenario(seed_actions(1)), **changes))
    assert status == 2 and out["ok"] is False and out["state"] is None
    assert out["error"]["code"] == "bad_scenario" and out["error"]["index"] is None


def test_new_game_raises_bad_scenario_directly():
    with pytest.raises(BadScenario):
        ENGINE.new_game(["A", "B"])
    with pytest.raises(BadScenario):
        ENGINE.new_game(list(PLAYERS), {"rounds": "5"})


# ----- the real command line ---------------------------------------------------------------
def test_cli_seed_example_exit_zero():
    out, status = run_cli(scenario(seed_actions()))
    assert status == 0 and out["state"]["scores"] == {"Brian": 24, "Susie": 38, "Ted": 19}


def test_cli_illegal_action_exit_one():
    out, status = run_cli(scenario([play("Brian", {"Susie": 1}, "x")]))
    assert status == 1 and out["error"]["code"] == "bad_target" and out["applied"] == 0
    assert out["state"]["waiting_for"] == PLAYERS


def test_cli_wrong_player_count_exit_two():
    out, status = run_cli(dict(scenario([]), players=["Ann", "Ben"]))
    assert status == 2 and out == {"ok": False, "applied": 0, "state": None,
                                   "error": {"index": None, "code": "bad_scenario",
                                             "message": out["error"]["message"]}}


def test_cli_unreadable_scenario_exit_two():
    out, status = run_cli("{not json")
    assert status == 2 and out["error"]["code"] == "bad_scenario" and out["state"] is None


# ----- views, analysis, events -----------------------------------------------------------
def test_view_hides_pending_choices_but_shows_who_chose():
    state = state_after(seed_actions()[:2])  # Brian and Susie chose, Ted not yet
    ted = ENGINE.view(state, "Ted")
    assert ted["submitted"] == ["Brian", "Susie"] and ted["can_act"] and ted["my_choice"] is None
    assert "pending" not in ted
    brian = ENGINE.view(state, "Brian")
    assert brian["my_choice"] == {"on": {"Susie": 1, "Ted": 2}, "operation": "x"}
    assert not brian["can_act"]
    # Another state where Brian chose differently gives Ted and Susie the same views.
    other = state_after([play("Brian", {"Susie": 6, "Ted": 0}, "+"), seed_actions()[1]])
    assert ENGINE.view(other, "Ted") == ted
    assert ENGINE.view(other, "Susie") == ENGINE.view(state, "Susie")
    assert ENGINE.view(other, None) == ENGINE.view(state, None)
    assert ENGINE.view(other, "Brian") != brian
    assert ENGINE.coach_view(state)["pending"]["Brian"]["operation"] == "x"


def test_view_after_reveal_shows_the_round():
    state = state_after(seed_actions(1))
    view = ENGINE.view(state, "Ted")
    assert view["last_round"]["Brian"]["from"] == {"Susie": 0, "Ted": 3}
    assert view["history"][0]["plays"]["Brian"]["on"] == {"Susie": 1, "Ted": 2}
    assert view["hands"]["Brian"]["numbers"] == [0, 0, 1, 2, 3, 4, 5, 6]
    assert view["me"] == "Ted" and view["round"] == 2


def test_round_facts_judge_the_operation():
    state = state_after(seed_actions(1))
    facts = last_round_facts(state)
    assert facts["Brian"] == {"on_me": [0, 3], "from": {"Susie": 0, "Ted": 3}, "operation": "x",
                              "points": 0, "other_operation": "+", "other_points": 3,
                              "missed": True}
    assert facts["Susie"]["points"] == 5 and facts["Susie"]["other_points"] == 4
    assert facts["Susie"]["missed"] is False
    plays = {p: {"on": on, "operation": op} for p, on, op in
             [(a["player"], a["on"], a["operation"]) for a in seed_actions(5)[12:]]}
    last = round_facts(PLAYERS, plays)
    assert last["Susie"]["points"] == 25 and last["Susie"]["other_points"] == 10
    assert last["Ted"]["missed"] is True  # 2 + 0 = 2 beats 2 x 0 = 0


def test_round_resolved_event_carries_the_facts():
    state = state_after(seed_actions()[:2])
    _, events = ENGINE.apply(state, "Ted", {"type": "play", "on": {"Brian": 3, "Susie": 4},
                                            "operation": "+"})
    kinds = [e["type"] for e in events]
    assert kinds == ["chose", "round_resolved"]
    assert events[1]["results"]["Ted"]["points"] == 6
    assert events[1]["results"]["Ted"]["other_points"] == 8
    text = ENGINE.describe_event(events[1])
    assert text == "Round 1: Brian 0 × 3 = 0, Susie 1 + 4 = 5, Ted 2 + 4 = 6."
    assert ENGINE.describe_event(events[0]) == "Ted has secretly chosen for round 1."
    json.dumps(events)


def test_game_over_event_sentence():
    state = state_after(seed_actions()[:14])
    _, events = ENGINE.apply(state, "Ted", {"type": "play", "on": {"Brian": 0, "Susie": 5},
                                            "operation": "x"})
    assert events[-1]["type"] == "game_over"
    assert ENGINE.describe_event(events[-1]) == "The game is over: Susie wins with 38 points."


def test_tie_sentence():
    event = {"type": "game_over", "winners": ["Ann", "Ben", "Cal"],
             "scores": {"Ann": 7, "Ben": 7, "Cal": 7}}
    assert ENGINE.describe_event(event) == \
        "The game is over: Ann, Ben and Cal share the win with 7 points each."


def test_analyse_records_the_decision():
    state = ENGINE.new_game(list(PLAYERS))
    facts = ENGINE.analyse(state, "Brian", {"type": "play", "on": {"Susie": 1, "Ted": 2},
                                            "operation": "x"})
    assert facts["kind"] == "play" and facts["legal"] and facts["error"] is None
    assert facts["chosen"] == {"on": {"Susie": 1, "Ted": 2}, "operation": "x"}
    assert facts["remaining_hand"] == {"numbers": [0, 0, 1, 2, 3, 4, 5, 6],
                                       "operations": ["+", "+", "+", "x", "x"]}
    assert facts["options"] == 2 * (7 * 7 - 4)  # no doubled 3, 4, 5 or 6
    # am.operation (revision 2): the expert's expected final points of each operation, judged
    # when chosen; a position-seeded evaluation, so the same position gives the same facts.
    choice = facts["operation_choice"]
    assert set(choice["values"]) == {"+", "x"} and choice["chosen"] == "x"
    assert choice["gap"] == round(abs(choice["values"]["+"] - choice["values"]["x"]), 3)
    assert choice["missed"] == (choice["chance"] and choice["values"]["x"] < choice["values"]["+"])
    assert choice["given_up"] == (choice["gap"] if choice["missed"] else 0.0)
    assert ENGINE.analyse(state, "Brian", {"type": "play", "on": {"Susie": 1, "Ted": 2},
                                           "operation": "x"}) == facts
    json.dumps(facts)


def test_analyse_never_raises_for_illegal_attempts():
    state = state_after(seed_actions()[:1])
    again = ENGINE.analyse(state, "Brian", {"type": "play", "on": {"Susie": 1, "Ted": 2},
                                            "operation": "x"})
    assert again["legal"] is False and again["error"] == "already_played"
    wrong = ENGINE.analyse(state, "Susie", {"type": "play", "on": {"Brian": 1}, "operation": "x"})
    assert wrong["error"] == "bad_target" and "remaining_hand" not in wrong
    assert "operation_choice" not in again and "operation_choice" not in wrong  # rule errors only
    junk = ENGINE.analyse(state, "Susie", {"type": "play", "on": 5})
    assert junk["error"] == "bad_action"
    stranger = ENGINE.analyse(state, "Zed", {"type": "play", "on": {}, "operation": "x"})
    assert stranger["error"] == "unknown_player"


def test_presets_are_valid_options():
    for preset in PRESETS.values():
        assert preset["label"]
        state = ENGINE.new_game(list(PLAYERS), preset["options"])
        assert state["options"]["rounds"] == preset["options"]["rounds"]
