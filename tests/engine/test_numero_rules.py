"""Numero rules through the replay contract: the leaflet's checks, scoring, challenges,
the end of the game, Solitaire, and every error code."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import get
from games.engine.errors import IllegalMove
from games.engine.replay import run_scenario
from numero_helpers import ALL_WILDS, act, error_code, scenario
from numero_helpers import run as run_setup

ROOT = Path(__file__).resolve().parents[2]
SCORING = {"scoring": True}
WILD_SCORING = {"wilds": ALL_WILDS, "scoring": True}
CHALLENGES = {"wilds": ALL_WILDS, "scoring": True, "challenges": True}
# A deck so refills are known: no 1s, 9s, 10s or 15s, and none of the setup's cards.
SAFE = [f"{v}{c}" for c in "bgor" for v in (2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14)]
DECK = object()  # marker: "fill the deck with safe cards"


def run(setup=None, actions=(), **kw):
    if setup is not None and setup.get("deck") is DECK:
        used = {c for h in setup.get("hands", {}).values() for c in h} | set(setup.get("centre", []))
        setup = dict(setup, deck=[c for c in SAFE if c not in used][:14])
    return run_setup(setup, actions, **kw)


def ok(out):
    assert out[1] == 0, out[0]["error"]
    return out[0]["state"]


def last_event(engine, state_setup, actions, options=None, players=("Ann", "Ben")):
    """Apply actions directly on the engine and return (state, events of the last action)."""
    if state_setup.get("deck") is DECK:
        used = {c for h in state_setup["hands"].values() for c in h} | set(state_setup["centre"])
        state_setup = dict(state_setup, deck=[c for c in SAFE if c not in used][:14])
    state = engine.new_game(list(players), options, 0, state_setup)
    events = []
    for a in actions:
        move = {k: v for k, v in a.items() if k != "player"}
        state, events = engine.apply(state, a["player"], move)
    return state, events


# ----- the leaflet's examples, as checks ---------------------------------------------------------
def test_check_take_two_cards_that_join_to_the_taking_card():
    state = ok(run({"hands": {"Ann": ["8b"], "Ben": ["1g"]}, "centre": ["5g", "3o"], "deck": DECK},
                   [act("Ann", "take", card="8b", groups=[["5g", "3o"]])]))
    assert state["piles"]["Ann"] == 3 and state["centre"] == []
    assert state["last_taker"] == "Ann"


def test_check_multiple_take_is_two_takes_of_four_cards_six_points():
    # 13r stays in the centre, so no clearing bonus: 2 takes + 4 cards = 6 points.
    state = ok(run({"hands": {"Ann": ["10r"], "Ben": ["1g"]}, "centre": ["10g", "6o", "4b", "13r"],
                    "deck": DECK}, [act("Ann", "take", card="10r", groups=[["10g"], ["6o", "4b"]])],
                   options=SCORING))
    assert state["piles"]["Ann"] == 4
    assert state["scores"]["Ann"] == 6
    engine = get("numero")
    _s, events = last_event(engine, {"hands": {"Ann": ["10r"], "Ben": ["1g"]},
                                     "centre": ["10g", "6o", "4b", "13r"], "deck": DECK},
                            [act("Ann", "take", card="10r", groups=[["10g"], ["6o", "4b"]])],
                            SCORING)
    take = next(e for e in events if e["type"] == "take")
    assert take["breakdown"]["takes"] == 2 and take["breakdown"]["cards"] == 4
    assert take["points"] == 6


def test_check_build_needs_the_answer_card():
    setup = {"hands": {"Ann": ["1o", "10r"], "Ben": ["2b"]}, "centre": ["9g"], "deck": DECK}
    state = ok(run(setup, [act("Ann", "build", card="1o", **{"with": ["9g"]})]))
    assert state["centre"] == [{"cards": ["9g", "1o"], "value": 10, "build": True,
                                "builder": "Ann"}]
    setup["hands"]["Ann"] = ["1o", "11b"]
    out = run(setup, [act("Ann", "build", card="1o", **{"with": ["9g"]})])
    assert out[1] == 1 and error_code(out) == "no_answer_card"


def test_check_two_subtractions_then_one_take_wins_five_cards():
    state = ok(run({"hands": {"Ann": ["-2", "-4", "9b"], "Ben": ["1g"]}, "centre": ["10r", "5g"],
                    "deck": DECK},
                   [act("Ann", "wild", card="-2", target="10r"),
                    act("Ann", "wild", card="-4", target="5g"),
                    act("Ann", "take", card="9b", groups=[["10r", "5g"]])],
                   options={"wilds": ["subtract"]}))
    assert state["piles"]["Ann"] == 5


def test_check_three_wild_cards_in_order_then_take_five_cards_three_operations():
    engine = get("numero")
    setup = {"hands": {"Ann": ["-2", "/4", "x3", "6b"], "Ben": ["1g"]}, "centre": ["10r"],
             "deck": DECK}
    actions = [act("Ann", "wild", card="-2", target="10r"), act("Ann", "wild", card="/4", target="10r"),
               act("Ann", "wild", card="x3", target="-2"),  # any card of the item names it
               act("Ann", "take", card="6b", groups=[["10r"]])]
    state, events = last_event(engine, setup, actions, WILD_SCORING)
    take = next(e for e in events if e["type"] == "take")
    assert take["cards"] == 5
    group = take["breakdown"]
    # 1 take + 5 cards + printed 1+2+2 + size 2 (five cards) + 3 operations 5 + clear 5
    assert group["operations"] == 5 and group["size"] == 2 and group["clear"] == 5
    assert take["points"] == 1 + 5 + 5 + 2 + 5 + 5 == 23
    assert engine.summary(state)["scores"]["Ann"] == 23


def test_wild_values_on_the_way_are_whole_numbers():
    # 10 / 4 is not whole, so the order matters: /4 first is refused.
    out = run({"hands": {"Ann": ["-2", "/4", "x3", "6b"], "Ben": ["1g"]}, "centre": ["10r"],
               "deck": DECK}, [act("Ann", "wild", card="/4", target="10r")], options=WILD_SCORING)
    assert error_code(out) == "wild_result_invalid"


# ----- scoring by hand ---------------------------------------------------------------------------
@pytest.mark.parametrize("centre,card,points", [
    # five cards of four colours: 1 + 5 + printed 2 (the 1) + size 2 + colours 5 + clear 5
    (["1g", "2o", "3b", "4r"], "10g", 20),
    # five cards of one colour: same sums, the one-colour bonus instead
    (["1g", "2g", "3g", "4g"], "10g", 20),
    # six cards, four colours, printed 1o and 15r: 1 + 6 + 4 + size 5 + colours 5 + clear 5
    (["1o", "2o", "3b", "4b", "5g"], "15r", 26),
    # a plain pair, nothing else left: 1 take + 2 cards + clear 5
    (["7b"], "7r", 8),
])
def test_take_points_by_hand(centre, card, points):
    state = ok(run({"hands": {"Ann": [card], "Ben": ["2b"]}, "centre": centre, "deck": DECK},
                   [act("Ann", "take", card=card, groups=[centre])], options=SCORING))
    assert state["scores"]["Ann"] == points


def test_all_four_operations_score_ten():
    # 10r -2 x3 /4 = 6, with 3b: 6 + 3 = 9. Operations - x / and + (two items): 10 points.
    # 1 take + 6 cards + printed 1+2+2 + size 5 + operations 10 + clear 5 = 32
    setup = {"hands": {"Ann": ["-2", "x3", "/4", "9g"], "Ben": ["2b"]}, "centre": ["10r", "3b"],
             "deck": DECK}
    state = ok(run(setup, [act("Ann", "wild", card="-2", target="10r"),
                           act("Ann", "wild", card="x3", target="10r"),
                           act("Ann", "wild", card="/4", target="10r"),
                           act("Ann", "take", card="9g", groups=[["10r", "3b"]])],
                   options={"wilds": ["subtract", "multiply", "divide"], "scoring": True}))
    assert state["scores"]["Ann"] == 32 and state["piles"]["Ann"] == 6


def test_fraction_counts_as_x_and_divide_and_a_build_counts_as_plus():
    # Ann builds 4 + 2 = 6 (holding 6r), Ben discards, Ann plays 2/3 on the build (6 -> 4)
    # and takes it with 4r: operations + (a build), x and / (2/3): three kinds, 5 points.
    setup = {"hands": {"Ann": ["2o", "6r", "4r", "2/3"], "Ben": ["14b"]}, "centre": ["4g"],
             "deck": DECK}
    state = ok(run(setup, [act("Ann", "build", card="2o", **{"with": ["4g"]}),
                           act("Ben", "discard", card="14b"),
                           act("Ann", "wild", card="2/3", target="4g"),
                           act("Ann", "take", card="4r", groups=[["2o"]])],
                   options={"wilds": ["fraction"], "scoring": True}))
    # 1 take + 4 cards (4g 2o 2/3 4r) + printed 3 + operations 5; 14b stays: no clear
    assert state["scores"]["Ann"] == 1 + 4 + 3 + 5


def test_scores_equal_piles_without_scoring():
    state = ok(run({"hands": {"Ann": ["8b"], "Ben": ["1g"]}, "centre": ["5g", "3o"], "deck": DECK},
                   [act("Ann", "take", card="8b", groups=[["5g", "3o"]])]))
    assert state["scores"] == state["piles"] == {"Ann": 3, "Ben": 0}


# ----- the end of the game -------------------------------------------------------------------
def test_end_without_a_final_take_leftovers_and_most_cards_bonus():
    # Ann's take empties her hand with the deck empty: Ben has one final turn but cannot
    # take (2b is left, he holds 3o 15r), so he is skipped and the game ends.
    setup = {"hands": {"Ann": ["5g"], "Ben": ["3o", "15r"]}, "centre": ["5o", "2b"], "deck": []}
    state = ok(run(setup, [act("Ann", "take", card="5g", groups=[["5o"]])], options=SCORING))
    assert state["finished"] and state["waiting_for"] == []
    assert state["centre"] == []  # the leftover 2b went to Ann, the last taker
    assert state["piles"] == {"Ann": 3, "Ben": -2}
    # Ann: take 1 + 2 cards = 3, leftovers +1, most cards +10. Ben: -(2 cards + printed 2)
    assert state["scores"] == {"Ann": 14, "Ben": -4}
    assert state["winners"] == ["Ann"]
    assert state["hands"]["Ben"] == ["3o", "15r"]


def test_end_with_a_final_take():
    setup = {"hands": {"Ann": ["5g"], "Ben": ["2r", "9o"]}, "centre": ["5o", "2b"], "deck": []}
    out = run(setup, [act("Ann", "take", card="5g", groups=[["5o"]]),
                      act("Ben", "take", card="2r", groups=[["2b"]])])
    state = ok(out)
    assert state["finished"] and state["last_taker"] == "Ben"
    assert state["piles"] == {"Ann": 2, "Ben": 2 - 1}
    assert state["winners"] == ["Ann"]


def test_final_turn_may_only_take_and_may_use_wild_cards_first():
    setup = {"hands": {"Ann": ["5g"], "Ben": ["-3", "2r", "9o"]}, "centre": ["5o", "5b"],
             "deck": []}
    first = act("Ann", "take", card="5g", groups=[["5o"]])
    out = run(setup, [first, act("Ben", "discard", card="9o")], options={"wilds": ["subtract"]})
    assert error_code(out) == "must_take"
    out = run(setup, [first, act("Ben", "build", card="2r", **{"with": ["5b"]})],
              options={"wilds": ["subtract"]})
    assert error_code(out) == "must_take"
    # Ben is not skipped: -3 on 5b makes 2, then 2r takes it.
    state = ok(run(setup, [first, act("Ben", "wild", card="-3", target="5b"),
                           act("Ben", "take", card="2r", groups=[["5b"]])],
                   options={"wilds": ["subtract"]}))
    assert state["finished"] and state["piles"] == {"Ann": 2, "Ben": 3 - 1}


def test_a_wild_card_that_spoils_the_last_take_ends_the_final_turn():
    setup = {"hands": {"Ann": ["5g"], "Ben": ["x2", "7r"]}, "centre": ["5o", "7b"], "deck": []}
    out = run(setup, [act("Ann", "take", card="5g", groups=[["5o"]]),
                      act("Ben", "wild", card="x2", target="7b")], options={"wilds": ["multiply"]})
    state = ok(out)
    assert state["finished"] and state["last_taker"] == "Ann"


def test_three_players_each_other_player_gets_a_final_turn():
    setup = {"hands": {"Ann": ["5g"], "Ben": ["2r", "9o"], "Cal": ["4b", "11g"]},
             "centre": ["5o", "2b", "4o"], "deck": []}
    state = ok(run(setup, [act("Ann", "take", card="5g", groups=[["5o"]]),
                           act("Ben", "take", card="2r", groups=[["2b"]]),
                           act("Cal", "take", card="4b", groups=[["4o"]])],
                   players=("Ann", "Ben", "Cal")))
    assert state["finished"]
    assert state["piles"] == {"Ann": 2, "Ben": 1, "Cal": 1}


def test_game_over_code_after_the_end():
    setup = {"hands": {"Ann": ["5g"], "Ben": ["3o"]}, "centre": ["5o"], "deck": []}
    out = run(setup, [act("Ann", "take", card="5g", groups=[["5o"]]),
                      act("Ben", "discard", card="3o")])
    assert error_code(out) == "game_over" and out[0]["error"]["index"] == 1


def test_turn_refills_the_hand_and_passes_on():
    deck = ["2o", "3b", "4b", "5b", "6b", "7b"]
    state = ok(run({"hands": {"Ann": ["8b", "2r"], "Ben": ["1g"]}, "centre": ["5g", "3o"],
                    "deck": deck}, [act("Ann", "discard", card="2r")]))
    assert state["hands"]["Ann"] == ["2o", "3b", "4b", "5b", "8b"]
    assert state["waiting_for"] == ["Ben"] and state["deck_count"] == 2
    assert state["centre"][-1] == {"cards": ["2r"], "value": 2, "build": False, "builder": None}


# ----- challenges ------------------------------------------------------------------------------
def _bluff(ann_hand):
    return {"hands": {"Ann": ann_hand, "Ben": ["6g", "13b"]}, "centre": ["9o"], "deck": DECK}


def test_challenge_a_bluff_undoes_the_build():
    state = ok(run(_bluff(["1g", "2r"]), [act("Ann", "build", card="1g", **{"with": ["9o"]}),
                                          act("Ben", "challenge", target="1g")],
                   options=CHALLENGES))
    assert state["scores"] == {"Ann": -20, "Ben": 0}
    assert [i["cards"] for i in state["centre"]] == [["9o"], ["1g"]]
    assert state["waiting_for"] == ["Ben"]  # a challenge is a free step


def test_challenge_an_honest_build_costs_the_challenger():
    out = run(_bluff(["1g", "10r"]), [act("Ann", "build", card="1g", **{"with": ["9o"]}),
                                      act("Ben", "challenge", target="9o")], options=CHALLENGES)
    state = ok(out)
    assert state["scores"] == {"Ann": 0, "Ben": -10}
    assert state["centre"][0]["build"] and state["centre"][0]["value"] == 10
    again = run(_bluff(["1g", "10r"]), [act("Ann", "build", card="1g", **{"with": ["9o"]}),
                                        act("Ben", "challenge", target="9o"),
                                        act("Ben", "challenge", target="9o")], options=CHALLENGES)
    assert error_code(again) == "challenge_not_allowed"


def test_challenge_undo_puts_later_wild_cards_out_of_play_and_keeps_parts():
    engine = get("numero")
    setup = {"hands": {"Ann": ["4g", "2r"], "Ben": ["x2", "13b"]}, "centre": ["5o", "3b"],
             "deck": DECK}
    state, events = last_event(engine, setup, [
        act("Ann", "build", card="4g", **{"with": ["5o", "3b"]}),  # 12, a bluff
        act("Ben", "wild", card="x2", target="4g"),                  # the build is now 24
        act("Ben", "challenge", target="5o")], CHALLENGES)
    assert events[0]["bluff"] is True
    assert [i["cards"] for i in state["centre"]] == [["5o"], ["3b"], ["4g"]]
    assert "x2" in state["out"]


def test_challenge_not_allowed_cases():
    build = act("Ann", "build", card="1g", **{"with": ["9o"]})
    # option off (scoring without challenges)
    out = run(_bluff(["1g", "10r"]), [build, act("Ben", "challenge", target="9o")], options=SCORING)
    assert error_code(out) == "challenge_not_allowed"
    # not a build
    setup = _bluff(["1g", "10r"])
    setup["centre"] = ["9o", "7r"]
    out = run(setup, [build, act("Ben", "challenge", target="7r")], options=CHALLENGES)
    assert error_code(out) == "challenge_not_allowed"
    # one's own build
    out = run(setup, [build, act("Ben", "discard", card="6g"),
                      act("Ann", "challenge", target="9o")], options=CHALLENGES)
    assert error_code(out) == "challenge_not_allowed"
    # too late: Ben had a turn since the build
    out = run(setup, [build, act("Ben", "discard", card="6g"), act("Ann", "discard", card="10r"),
                      act("Ben", "challenge", target="9o")], options=CHALLENGES)
    assert error_code(out) == "challenge_not_allowed"
    # an unknown target comes first
    out = run(setup, [build, act("Ben", "challenge", target="8r")], options=CHALLENGES)
    assert error_code(out) == "unknown_item"


def test_build_too_big_with_challenges():
    out = run({"hands": {"Ann": ["8g", "2r"], "Ben": ["6g"]}, "centre": ["9o"], "deck": DECK},
              [act("Ann", "build", card="8g", **{"with": ["9o"]})], options=CHALLENGES)
    assert error_code(out) == "build_too_big"


def test_options_need_scoring_for_challenges():
    out = run(options={"challenges": True})
    assert out[1] == 2 and error_code(out) == "bad_scenario"


# ----- every error code ----------------------------------------------------------------------
BASE = {"hands": {"Ann": ["8b", "5r", "-2", "x3"], "Ben": ["1g"]}, "centre": ["5g", "3o", "9b"],
        "deck": DECK}
BASE_OPTIONS = {"wilds": ["subtract", "multiply"]}


@pytest.mark.parametrize("action,code", [
    ({"player": "Ann", "type": "fly"}, "bad_action"),
    ({"player": "Ann", "type": "take", "card": "8b"}, "bad_action"),
    ({"player": "Ann", "type": "take", "card": "8b", "groups": []}, "bad_action"),
    ({"player": "Ann", "type": "take", "card": "8b", "groups": [[]]}, "bad_action"),
    ({"player": "Ann", "type": "take", "card": "8", "groups": [["5g"]]}, "bad_action"),
    ({"player": "Ann", "type": "discard", "card": "8b", "extra": 1}, "bad_action"),
    ({"player": "Ann", "type": "discard", "card": "8b", "answer": True}, "bad_action"),
    ({"player": "Zed", "type": "discard", "card": "8b"}, "unknown_player"),
    ({"player": "Ben", "type": "discard", "card": "1g"}, "not_your_turn"),
    ({"player": "Ann", "type": "discard", "card": "7r"}, "not_in_hand"),
    ({"player": "Ann", "type": "take", "card": "-2", "groups": [["5g"]]}, "not_a_number_card"),
    ({"player": "Ann", "type": "wild", "card": "8b", "target": "5g"}, "not_a_wild_card"),
    ({"player": "Ann", "type": "discard_wild", "card": "5r"}, "not_a_wild_card"),
    ({"player": "Ann", "type": "take", "card": "8b", "groups": [["5g", "2g"]]}, "unknown_item"),
    ({"player": "Ann", "type": "take", "card": "5r", "groups": [["5g"], ["5g"]]}, "item_reused"),
    ({"player": "Ann", "type": "take", "card": "8b", "groups": [["5g", "9b"]]}, "group_mismatch"),
    ({"player": "Ann", "type": "build", "card": "5r", "with": ["9b"]}, "no_answer_card"),
    ({"player": "Ann", "type": "wild", "card": "-2", "target": "9z"}, "bad_action"),
    ({"player": "Ann", "type": "wild", "card": "x3", "target": "7r"}, "unknown_item"),
    ({"player": "Ann", "type": "wild", "card": "/2", "target": "5g"}, "wild_not_in_pack"),
    ({"player": "Ann", "type": "discard_wild", "card": "sq"}, "wild_not_in_pack"),
    ({"player": "Ann", "type": "challenge", "target": "5g"}, "challenge_not_allowed"),
])
def test_error_codes(action, code):
    out = run(BASE, [action], options=BASE_OPTIONS)
    assert out[1] == 1 and error_code(out) == code, out[0]["error"]
    assert out[0]["error"]["index"] == 0 and out[0]["state"]["waiting_for"] == ["Ann"]
    assert out[0]["error"]["message"].endswith((".", "!"))


def test_wild_result_invalid_for_subtract_and_roots():
    setup = {"hands": {"Ann": ["-5", "sqrt", "cbrt", "1/3", "2b"], "Ben": ["1g"]},
             "centre": ["3g", "8o", "10r"], "deck": DECK}
    for card, target in (("-5", "3g"), ("sqrt", "8o"), ("cbrt", "10r"), ("1/3", "8o")):
        out = run(setup, [act("Ann", "wild", card=card, target=target)], options=WILD_SCORING)
        assert error_code(out) == "wild_result_invalid", (card, target)
    state = ok(run(setup, [act("Ann", "wild", card="cbrt", target="8o")], options=WILD_SCORING))
    assert state["centre"][1] == {"cards": ["8o", "cbrt"], "value": 2, "build": False,
                                  "builder": None}


def test_item_reused_through_two_codes_of_one_item():
    setup = {"hands": {"Ann": ["-2", "8b"], "Ben": ["1g"]}, "centre": ["10g", "3o"], "deck": DECK}
    out = run(setup, [act("Ann", "wild", card="-2", target="10g"),
                      act("Ann", "take", card="8b", groups=[["10g"], ["-2"]])],
              options={"wilds": ["subtract"]})
    assert error_code(out) == "item_reused"


def test_precedence_not_in_hand_before_game_codes():
    out = run(BASE, [act("Ann", "take", card="13r", groups=[["99" if False else "4r"]])],
              options=BASE_OPTIONS)
    assert error_code(out) == "not_in_hand"
    # a number card above max_number is simply not held
    out = run({"hands": {"Ann": ["8b"], "Ben": ["1g"]}, "centre": ["5g"], "deck": []},
              [act("Ann", "discard", card="14r")], options={"max_number": 10})
    assert error_code(out) == "not_in_hand"


def test_solitaire_codes():
    setup = {"hands": {"Sam": ["8b", "5r", "-2"]}, "centre": ["5g", "3o", "9b"], "deck": []}
    opts = {"wilds": ["subtract"]}
    for action, code in (
            (act("Sam", "build", card="5r", **{"with": ["3o"]}), "builds_not_allowed"),
            (act("Sam", "discard", card="5r"), "discards_not_allowed"),
            (act("Sam", "discard_wild", card="-2"), "discards_not_allowed"),
            (act("Sam", "challenge", target="5g"), "challenge_not_allowed"),
            (act("Sam", "discard", card="7r"), "not_in_hand")):
        out = run(setup, [action], options=opts, players=("Sam",), game="numero_solitaire")
        assert error_code(out) == code, action


# ----- bad scenarios ----------------------------------------------------------------------------
@pytest.mark.parametrize("scn", [
    scenario(players=("Ann",)),
    scenario(players=("A", "B", "C", "D")),
    scenario(options={"max_number": 12}),
    scenario(options={"wilds": ["addition"]}),
    scenario(options={"wilds": ["subtract", "subtract"]}),
    scenario(options={"scoring": 1}),
    scenario(options={"colour": "red"}),
    scenario(setup={"hands": {"Ann": ["5g", "5g"]}}),
    scenario(setup={"hands": {"Ann": ["5g"]}, "centre": ["5g"]}),
    scenario(setup={"centre": ["x2"]}, options={"wilds": ["multiply"]}),
    scenario(setup={"hands": {"Ann": ["x2"]}}),
    scenario(setup={"hands": {"Ann": ["12g"]}}, options={"max_number": 10}),
    scenario(setup={"hands": {"Zed": ["1g"]}}),
    scenario(setup={"deck": "1g"}),
    scenario(setup={"pile": []}),
    scenario(game="numero_solitaire", players=("A", "B")),
    scenario(game="numero_solitaire", players=("A",), options={"scoring": True, "challenges": True}),
])
def test_bad_scenarios(scn):
    out, status = run_scenario(scn)
    assert status == 2 and out["error"]["code"] == "bad_scenario" and out["state"] is None


# ----- the deal ---------------------------------------------------------------------------------
def test_deal_one_at_a_time_and_wild_cards_turned_up_go_to_the_bottom():
    engine = get("numero")
    deck = [f"{v}g" for v in range(1, 11)] + ["x2", "11o", "12o", "13o"]
    state = engine.new_game(["Ann", "Ben"], {"wilds": ["multiply"]}, 0, {"deck": deck})
    assert state["hands"]["Ann"] == ["1g", "3g", "5g", "7g", "9g"]
    assert state["hands"]["Ben"] == ["2g", "4g", "6g", "8g", "10g"]
    assert [i["cards"] for i in state["centre"]] == [["11o"], ["12o"]]
    assert state["deck"] == ["13o", "x2"]


def test_three_players_get_three_centre_cards():
    state = ok(run(players=("A", "B", "C"), seed=4))
    assert len(state["centre"]) == 3 and state["deck_count"] == 60 - 15 - 3
    assert all(len(h) == 5 for h in state["hands"].values())


# ----- Solitaire --------------------------------------------------------------------------------
def test_solitaire_perfect_game_bonuses():
    centre = ["3g", "4o", "5b", "6r", "7g"]
    hand = ["3o", "4b", "5r", "6g", "7o"]
    actions = [act("Sam", "take", card=h, groups=[[c]]) for h, c in zip(hand, centre)]
    state = ok(run({"hands": {"Sam": hand}, "centre": centre, "deck": []}, actions,
                   options=SCORING, players=("Sam",), game="numero_solitaire"))
    # five takes of 2 cards (3 points each), the last clears (+5), deck dealt +10, perfect +25
    assert state["finished"] and state["scores"] == {"Sam": 15 + 5 + 10 + 25}
    assert state["piles"] == {"Sam": 10} and state["winners"] == ["Sam"]


def test_solitaire_ends_when_no_take_is_possible_printed_points_count_against():
    setup = {"hands": {"Sam": ["1g", "15r", "x2"]}, "centre": ["4o", "9b"], "deck": ["6g"]}
    state = ok(run(setup, [], options={"scoring": True, "wilds": ["multiply"]},
                   players=("Sam",), game="numero_solitaire"))
    # no take: 1 and 15 match nothing, x2 makes 8 or 18. The deck still holds 6g: no bonus.
    assert state["finished"] and state["scores"] == {"Sam": -(2 + 2 + 2)}
    assert state["piles"] == {"Sam": 0}


def test_solitaire_counts_wild_cards_when_deciding_the_end_and_refills():
    setup = {"hands": {"Sam": ["8r", "-2"]}, "centre": ["10o", "11b"],
             "deck": ["x3", "2g", "6b", "4r", "12o", "13b", "7g"]}
    out = run(setup, [act("Sam", "wild", card="-2", target="10o"),
                      act("Sam", "take", card="8r", groups=[["10o"]])],
              options={"wilds": ["subtract", "multiply"]}, players=("Sam",),
              game="numero_solitaire")
    state = ok(out)
    # centre refilled to five first (x3 goes to the bottom), then the hand from what is left
    assert [i["cards"] for i in state["centre"]] == [["11b"], ["2g"], ["6b"], ["4r"], ["12o"]]
    assert state["hands"]["Sam"] == ["7g", "13b", "x3"]
    assert state["piles"] == {"Sam": 3}


# ----- the command line ---------------------------------------------------------------------------
def _cli(payload: str):
    return subprocess.run([sys.executable, "-m", "games.engine.replay", "-"], cwd=ROOT,
                          input=payload, capture_output=True, text=True)


def test_cli_exit_statuses():
    good = scenario({"hands": {"Ann": ["8b"], "Ben": ["1g"]}, "centre": ["5g", "3o"]},
                    [act("Ann", "take", card="8b", groups=[["5g", "3o"]])])
    result = _cli(json.dumps(good))
    assert result.returncode == 0 and len(result.stdout.strip().splitlines()) == 1
    assert json.loads(result.stdout)["state"]["piles"]["Ann"] == 3
    bad = dict(good, actions=[act("Ann", "take", card="8b", groups=[["5g"]])])
    result = _cli(json.dumps(bad))
    assert result.returncode == 1 and json.loads(result.stdout)["error"]["code"] == "group_mismatch"
    result = _cli(json.dumps(dict(good, options={"max_number": 11})))
    assert result.returncode == 2 and json.loads(result.stdout)["error"]["code"] == "bad_scenario"


def test_engine_apply_raises_illegal_move_and_keeps_state():
    engine = get("numero")
    state = engine.new_game(["Ann", "Ben"], BASE_OPTIONS, 0, dict(BASE, deck=[]))
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove):
        engine.apply(state, "Ann", {"type": "take", "card": "8b", "groups": [["9b"]]})
    assert json.dumps(state, sort_keys=True) == before
