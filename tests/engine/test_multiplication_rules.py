"""The Multiplication Game: the seed's checks, every error code, setup, turns, views, analysis."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers sit next to this file
from multiplication_helpers import discard, draw, run, run_cli, scenario  # noqa: E402

from games.engine import get  # noqa: E402
from games.engine.errors import BadScenario, IllegalMove  # noqa: E402
from games.engine.multiplication import PRESETS, rules  # noqa: E402

ENGINE = get("multiplication")
TWO = ["Ann", "Ben"]
THREE = ["Ann", "Ben", "Cal"]
# Ann turns the open card 6 into 12 declared 2 x 6; Ben answers on it.
ON_12 = {"open": 6, "hands": {"Ann": [12, 50, 70], "Ben": [24, 40, 81]}, "deck": [1, 2, 3, 5]}


def state_of(players, setup, actions, options=None):
    state = ENGINE.new_game(list(players), options, 0, setup)
    for action in actions:
        state, _ = ENGINE.apply(state, action["player"],
                                {k: v for k, v in action.items() if k != "player"})
    return state


# ----- the seed's checks -------------------------------------------------------------------
def test_seed_24_as_4x6_on_12_declared_2x6_is_legal():
    out, status = run(TWO, [discard("Ann", 12, 2, 6), discard("Ben", 24, 4, 6)], ON_12)
    assert status == 0 and out["applied"] == 2
    assert out["state"]["open"] == {"card": 24, "value": 24, "multipliers": [4, 6]}
    assert out["state"]["hands"]["Ben"] == [40, 81] and out["state"]["waiting_for"] == ["Ann"]


def test_seed_24_as_3x8_on_12_declared_2x6_has_no_common_multiplier():
    out, status = run(TWO, [discard("Ann", 12, 2, 6), discard("Ben", 24, 3, 8)], ON_12)
    assert status == 1 and out["error"]["index"] == 1
    assert out["error"]["code"] == "no_common_multiplier"
    assert out["state"]["open"] == {"card": 12, "value": 12, "multipliers": [2, 6]}


def test_an_opening_12_would_allow_3x8_because_all_its_factors_are_open():
    setup = {"open": 12, "hands": {"Ann": [24, 50], "Ben": [40]}, "deck": [1]}
    out, status = run(TWO, [discard("Ann", 24, 3, 8)], setup)
    assert status == 0 and out["state"]["open"]["multipliers"] == [3, 8]


def test_seed_28_as_4x7_on_24_declared_4x6_is_legal():
    out, status = run(THREE, [discard("Ann", 28, 4, 7)],
                      {"open": 24, "hands": {"Ann": [28, 2], "Ben": [3], "Cal": [5]}, "deck": [7]})
    assert status == 0  # an opening 24 has multipliers 3, 4, 6, 8
    setup = {"open": 6, "hands": {"Ann": [24, 2], "Ben": [28, 3], "Cal": [5, 7]}, "deck": [9]}
    out, status = run(THREE, [discard("Ann", 24, 4, 6), discard("Ben", 28, 4, 7)], setup)
    assert status == 0
    assert out["state"]["open"] == {"card": 28, "value": 28, "multipliers": [4, 7]}


ON_28 = {"open": 6, "hands": {"Ann": [24, 36, 2], "Ben": [28, 3, 50], "Cal": [20, 27, 30]},
         "deck": [1, 5, 7, 8]}
TO_28 = [discard("Ann", 24, 4, 6), discard("Ben", 28, 4, 7), draw("Cal")]


def test_seed_36_as_4x9_on_28_skips_the_next_player():
    out, status = run(THREE, TO_28 + [discard("Ann", 36, 4, 9)], ON_28)
    assert status == 0
    state = out["state"]
    # Ben drew the top card automatically and lost his turn: Cal plays next, on 36.
    assert state["hands"]["Ben"] == [3, 5, 50]
    assert state["waiting_for"] == ["Cal"]
    assert state["open"] == {"card": 36, "value": 36, "multipliers": [4, 9]}
    assert state["turn"] == 5  # three turns, Ann's discard and Ben's lost turn
    assert state["deck_count"] == 2


@pytest.mark.parametrize("card, a, b, code", [
    (20, 4, 5, None),                      # multiplier 4
    (27, 3, 9, None),                      # multiplier 9
    (30, 5, 6, "no_common_multiplier"),    # neither 4 nor 9
])
def test_seed_after_the_skip_the_player_after_plays_on_4_or_9(card, a, b, code):
    out, status = run(THREE, TO_28 + [discard("Ann", 36, 4, 9), discard("Cal", card, a, b)], ON_28)
    if code is None:
        assert status == 0 and out["state"]["open"]["value"] == card
    else:
        assert status == 1 and out["error"]["code"] == code


def test_seed_ben_cannot_play_while_skipped():
    out, status = run(THREE, TO_28 + [discard("Ann", 36, 4, 9), discard("Ben", 3, 1, 3)], ON_28)
    assert status == 1 and out["error"]["code"] == "not_your_turn"


def test_seed_free_card_declared_4x1_is_the_square_4_and_skips():
    setup = {"open": 6, "hands": {"Ann": [24, "free", 2], "Ben": [28, 3, 50], "Cal": [20, 27]},
             "deck": [1, 5, 7]}
    actions = TO_28 + [discard("Ann", "free", 4, 1)]
    out, status = run(THREE, actions, setup, {"free_cards": 1})
    assert status == 0
    state = out["state"]
    assert state["open"] == {"card": "free", "value": 4, "multipliers": [1, 4]}
    assert state["waiting_for"] == ["Cal"] and state["hands"]["Ben"] == [3, 5, 50]
    assert state["hands"]["Ann"] == [2]


# ----- turns, squares, the deck, the end ------------------------------------------------
def test_opening_multipliers():
    assert rules.opening_multipliers(24) == [3, 4, 6, 8]
    assert rules.opening_multipliers(7) == [1, 7]
    assert rules.opening_multipliers(36) == [4, 6, 9]
    assert rules.opening_multipliers(1) == [1]
    assert rules.opening_multipliers(100) == [10]
    assert len(rules.PRODUCTS) == 42 and sorted(rules.SQUARES) == [1, 4, 9, 16, 25, 36, 49, 64, 81, 100]


def test_square_in_a_two_player_game_gives_the_same_player_another_turn():
    setup = {"open": 7, "hands": {"Ann": [49, 14, 2], "Ben": [3]}, "deck": [5, 6]}
    out, status = run(TWO, [discard("Ann", 49, 7, 7), discard("Ann", 14, 2, 7)], setup)
    assert status == 0
    assert out["state"]["hands"]["Ben"] == [3, 5] and out["state"]["turn"] == 3
    assert out["state"]["open"]["multipliers"] == [2, 7]


def test_discarding_the_last_card_wins_at_once_even_with_a_square():
    setup = {"open": 7, "hands": {"Ann": [49], "Ben": [3]}, "deck": [5, 6]}
    out, status = run(TWO, [discard("Ann", 49, 7, 7)], setup)
    assert status == 0
    state = out["state"]
    assert state["finished"] and state["winners"] == ["Ann"] and state["waiting_for"] == []
    assert state["hands"]["Ben"] == [3] and state["deck_count"] == 2  # no skip after a win
    out, status = run(TWO, [discard("Ann", 49, 7, 7), draw("Ben")], setup)
    assert status == 1 and out["error"]["code"] == "game_over"


def test_draw_passes_the_turn_and_takes_the_top_card():
    setup = {"open": 7, "hands": {"Ann": [14], "Ben": [3]}, "deck": [5, 6]}
    out, _ = run(TWO, [draw("Ann")], setup)
    assert out["state"]["hands"]["Ann"] == [5, 14] and out["state"]["waiting_for"] == ["Ben"]
    assert out["state"]["deck_count"] == 1 and out["state"]["turn"] == 1


def test_empty_deck_is_refilled_from_the_discards_except_the_open_card():
    setup = {"open": 7, "hands": {"Ann": [14, 28, 2], "Ben": [3]}, "deck": []}
    actions = [discard("Ann", 14, 2, 7), draw("Ben"), discard("Ann", 28, 4, 7), draw("Ben")]
    out, status = run(TWO, actions, setup)
    assert status == 0
    # First draw: only the 7 was discarded under 14, so Ben drew the 7.
    # Second draw: the deck was empty again; the discards under 28 were 14 alone.
    assert out["state"]["hands"]["Ben"] == [3, 7, 14]
    assert out["state"]["open"]["card"] == 28 and out["state"]["deck_count"] == 0


def test_draw_with_no_cards_anywhere_is_skipped_and_the_turn_passes():
    setup = {"open": 7, "hands": {"Ann": [14, 2], "Ben": [3]}, "deck": []}
    out, status = run(TWO, [draw("Ann")], setup)
    assert status == 0 and out["state"]["hands"]["Ann"] == [2, 14]
    assert out["state"]["waiting_for"] == ["Ben"] and out["state"]["turn"] == 1


def test_turn_limit_ends_the_game_fewest_cards_win_and_ties_share():
    setup = {"open": 7, "hands": {"Ann": [2, 3], "Ben": [5, 6]}, "deck": []}
    out, status = run(TWO, [draw(TWO[i % 2]) for i in range(50)], setup, {"turn_limit": 50})
    assert status == 0 and out["state"]["finished"] and out["state"]["turn"] == 50
    assert out["state"]["winners"] == ["Ann", "Ben"]
    setup = {"open": 7, "hands": {"Ann": [14, 3], "Ben": [5, 6]}, "deck": []}
    actions = [discard("Ann", 14, 2, 7)] + [draw(TWO[(i + 1) % 2]) for i in range(49)]
    out, status = run(TWO, actions, setup, {"turn_limit": 50})
    assert status == 0 and out["state"]["winners"] == ["Ann"]
    out, status = run(TWO, actions + [draw("Ben")], setup, {"turn_limit": 50})
    assert status == 1 and out["error"]["code"] == "game_over"


def test_turn_limit_reached_by_a_square_ends_before_the_skip():
    setup = {"open": 7, "hands": {"Ann": [2], "Ben": [49, 3]}, "deck": [8]}
    draws = [draw(TWO[i % 2]) for i in range(49)]  # Ann draws the 8, then draws are skipped
    out, status = run(TWO, draws + [discard("Ben", 49, 7, 7)], setup, {"turn_limit": 50})
    assert status == 0
    state = out["state"]
    assert state["finished"] and state["turn"] == 50 and state["winners"] == ["Ben"]
    assert state["hands"]["Ann"] == [2, 8]


def test_turn_limit_reached_by_the_lost_turn():
    setup = {"open": 7, "hands": {"Ann": [49, 2], "Ben": [3]}, "deck": []}
    draws = [draw(TWO[i % 2]) for i in range(48)]
    out, status = run(TWO, draws + [discard("Ann", 49, 7, 7)], setup, {"turn_limit": 50})
    assert status == 0 and out["state"]["finished"] and out["state"]["turn"] == 50
    # Ben's lost turn was the 50th: he drew the 7 (the deck refilled from the discards).
    assert out["state"]["hands"] == {"Ann": [2], "Ben": [3, 7]}
    assert out["state"]["winners"] == ["Ann"]


def test_free_card_turned_up_goes_to_the_bottom():
    setup = {"hands": {"Ann": [2], "Ben": [3]}, "deck": ["free", 8, 9]}
    state = state_of(TWO, setup, [], {"free_cards": 1})
    assert state["open"] == {"card": 8, "value": 8, "multipliers": [1, 2, 4, 8]}
    out, _ = run(TWO, [draw("Ann"), draw("Ben")], setup, {"free_cards": 1})
    assert out["state"]["hands"] == {"Ann": [2, 9], "Ben": [3, "free"]}


def test_unlisted_hands_are_dealt_from_the_listed_deck():
    setup = {"hands": {"Ann": [2, 3, 4]}, "deck": [10, 20, 30, 40, 50, 60]}
    state = state_of(TWO, setup, [], {"hand_size": 3})
    assert ENGINE.summary(state)["hands"] == {"Ann": [2, 3, 4], "Ben": [10, 20, 30]}
    assert state["open"]["card"] == 40 and ENGINE.summary(state)["deck_count"] == 2


def test_default_deal():
    summary = ENGINE.summary(ENGINE.new_game(THREE, {}, 9))
    assert summary["cards_left"] == {p: 7 for p in THREE}
    assert summary["deck_count"] == 42 - 21 - 1 and summary["turn"] == 0
    assert summary["waiting_for"] == ["Ann"]
    four = ENGINE.summary(ENGINE.new_game(THREE + ["Dan"], {"free_cards": 2}, 9))
    assert set(four["cards_left"].values()) == {5} and four["deck_count"] == 44 - 20 - 1
    assert four["open"]["card"] != "free"
    for hand in four["hands"].values():
        assert hand == sorted(hand, key=rules.sort_key)


# ----- error codes ----------------------------------------------------------------------
@pytest.mark.parametrize("action", [
    {"player": "Ann", "type": "discard", "card": 12},
    {"player": "Ann", "type": "discard", "card": 12, "declare": [2, 6, 1]},
    {"player": "Ann", "type": "discard", "card": 12, "declare": [2]},
    {"player": "Ann", "type": "discard", "card": 12, "declare": [2, "6"]},
    {"player": "Ann", "type": "discard", "card": 12, "declare": [True, 6]},
    {"player": "Ann", "type": "discard", "card": 12, "declare": [2.0, 6]},
    {"player": "Ann", "type": "discard", "card": 12, "declare": "2x6"},
    {"player": "Ann", "type": "discard", "card": 11, "declare": [1, 11]},
    {"player": "Ann", "type": "discard", "card": "12", "declare": [2, 6]},
    {"player": "Ann", "type": "discard", "card": "Free", "declare": [2, 6]},
    {"player": "Ann", "type": "discard", "card": True, "declare": [1, 1]},
    {"player": "Ann", "type": "draw", "card": 12},
    {"player": "Ann", "type": "play", "card": 12},
    {"player": "Ann"},
    {"type": "draw"},
    [1, 2],
])
def test_bad_action(action):
    out, status = run(TWO, [action], ON_12)
    assert status == 1 and out["error"]["code"] == "bad_action" and out["applied"] == 0


def test_unknown_player_and_not_your_turn():
    out, _ = run(TWO, [draw("Zed")], ON_12)
    assert out["error"]["code"] == "unknown_player"
    out, _ = run(TWO, [draw("Ben")], ON_12)
    assert out["error"]["code"] == "not_your_turn"


def test_not_in_hand():
    out, _ = run(TWO, [discard("Ann", 24, 4, 6)], ON_12)
    assert out["error"]["code"] == "not_in_hand"
    out, _ = run(TWO, [discard("Ann", "free", 1, 6)], ON_12, {"free_cards": 2})
    assert out["error"]["code"] == "not_in_hand"
    assert out["error"]["message"] == "You don't have a free card in your hand."


@pytest.mark.parametrize("card, a, b", [
    (12, 3, 5),    # 15, not 12
    (12, 1, 12),   # 12 is no multiplier of the table
    (12, 0, 6),
    (12, -2, -6),
    (50, 5, 11),
])
def test_bad_declaration(card, a, b):
    out, status = run(TWO, [discard("Ann", card, a, b)], ON_12)
    assert status == 1 and out["error"]["code"] == "bad_declaration"


def test_free_card_declaration_must_use_table_multipliers():
    setup = {"open": 6, "hands": {"Ann": ["free", 2], "Ben": [3]}, "deck": [5]}
    out, _ = run(TWO, [discard("Ann", "free", 6, 11)], setup, {"free_cards": 1})
    assert out["error"]["code"] == "bad_declaration"
    out, status = run(TWO, [discard("Ann", "free", 6, 10)], setup, {"free_cards": 1})
    assert status == 0 and out["state"]["open"] == {"card": "free", "value": 60, "multipliers": [6, 10]}


def test_precedence_bad_declaration_before_no_common_multiplier():
    # 40 as 3 x 8 shares no multiplier with 12 (2 x 6) and is a wrong fact: the fact wins.
    out, _ = run(TWO, [discard("Ann", 12, 2, 6), discard("Ben", 40, 3, 8)], ON_12)
    assert out["error"]["code"] == "bad_declaration"
    out, _ = run(TWO, [discard("Ann", 12, 2, 6), discard("Ben", 40, 4, 10)], ON_12)
    assert out["error"]["code"] == "no_common_multiplier"
    # not_in_hand comes before both; not_your_turn before that.
    out, _ = run(TWO, [discard("Ann", 30, 3, 3)], ON_12)
    assert out["error"]["code"] == "not_in_hand"
    out, _ = run(TWO, [discard("Ben", 30, 3, 3)], ON_12)
    assert out["error"]["code"] == "not_your_turn"


def test_declaration_order_does_not_matter():
    a, _ = run(TWO, [discard("Ann", 12, 2, 6)], ON_12)
    b, _ = run(TWO, [discard("Ann", 12, 6, 2)], ON_12)
    assert a["state"] == b["state"]


def test_error_messages_are_plain_sentences():
    cases = [[discard("Ann", 12, 3, 5)], [discard("Ann", 12, 0, 6)],
             [discard("Ann", 12, 2, 6), discard("Ben", 24, 3, 8)]]
    messages = [run(TWO, c, ON_12)[0]["error"]["message"] for c in cases]
    assert messages[0] == "3 × 5 is 15, not 12."
    assert messages[1] == "Both multipliers must be whole numbers from 1 to 10."
    assert messages[2] == "3 × 8 shares no multiplier with the open card: use 2 or 6."


# ----- bad scenarios ------------------------------------------------------------------------
@pytest.mark.parametrize("players, setup, options", [
    (["Ann"], None, None),
    (["A", "B", "C", "D", "E", "F", "G"], None, None),
    (TWO, None, {"free_cards": 3}),
    (TWO, None, {"hand_size": 2}),
    (TWO, None, {"hand_size": 11}),
    (TWO, None, {"turn_limit": 49}),
    (TWO, None, {"turn_limit": 2001}),
    (TWO, None, {"free_cards": True}),
    (TWO, None, {"jokers": 1}),
    (TWO, {"hands": {"Ann": [24], "Ben": [24]}}, None),
    (TWO, {"hands": {"Ann": [24]}, "deck": [24]}, None),
    (TWO, {"open": 24, "hands": {"Ann": [24]}}, None),
    (TWO, {"hands": {"Ann": ["free"]}}, None),
    (TWO, {"hands": {"Ann": ["free", "free"]}}, {"free_cards": 1}),
    (TWO, {"open": "free"}, {"free_cards": 1}),
    (TWO, {"open": 11}, None),
    (TWO, {"hands": {"Zed": [2]}}, None),
    (TWO, {"hands": {"Ann": [13]}}, None),
    (TWO, {"hands": {"Ann": 2}}, None),
    (TWO, {"deck": [2, 3]}, None),          # not enough to deal 7 cards each
    (TWO, {"hands": {"Ann": [2], "Ben": [3]}, "deck": ["free"]}, {"free_cards": 1}),
    (TWO, {"discards": [2]}, None),
    (["A", "B", "C", "D", "E", "F"], None, {"hand_size": 7}),
])
def test_bad_scenario(players, setup, options):
    out, status = run(players, [], setup, options)
    assert status == 2 and out["ok"] is False and out["state"] is None
    assert out["error"]["code"] == "bad_scenario" and out["error"]["index"] is None


def test_direct_new_game_raises_bad_scenario():
    with pytest.raises(BadScenario):
        ENGINE.new_game(["Ann"])


# ----- the real command line -------------------------------------------------------------
def test_cli_exit_codes():
    out, status = run_cli(scenario(TWO, [discard("Ann", 12, 2, 6), discard("Ben", 24, 4, 6)],
                                   ON_12))
    assert status == 0 and out["ok"] and out["state"]["open"]["multipliers"] == [4, 6]
    out, status = run_cli(scenario(TWO, [discard("Ann", 12, 2, 6), discard("Ben", 24, 3, 8)],
                                   ON_12))
    assert status == 1 and out["error"]["code"] == "no_common_multiplier" and out["applied"] == 1
    out, status = run_cli(scenario(TWO, [], {"hands": {"Ann": [24], "Ben": [24]}}))
    assert status == 2 and out["error"]["code"] == "bad_scenario" and out["state"] is None


# ----- views, analysis, events ----------------------------------------------------------
def test_views_show_own_hand_only():
    state = state_of(TWO, ON_12, [discard("Ann", 12, 2, 6)])
    view = ENGINE.view(state, "Ann")
    assert view["hand"] == [50, 70] and view["me"] == "Ann" and not view["can_act"]
    assert view["cards_left"] == {"Ann": 2, "Ben": 3} and view["deck_count"] == 4
    assert view["discard_pile"] == [6] and "hands" not in view and "deck" not in view
    assert ENGINE.view(state, "Ben")["can_act"]
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] is None and spectator["me"] is None
    assert ENGINE.coach_view(state)["hands"] == {"Ann": [50, 70], "Ben": [24, 40, 81]}
    assert "deck" not in ENGINE.coach_view(state)


def test_events_and_sentences():
    state = state_of(THREE, ON_28, TO_28)
    _, events = ENGINE.apply(state, "Ann", {"type": "discard", "card": 36, "declare": [4, 9]})
    assert [e["type"] for e in events] == ["discard", "skip", "draw"]
    texts = [ENGINE.describe_event(e) for e in events]
    assert texts == ["Ann discarded 36 as 4 × 9, a square number!",
                     "Ben must draw a card and miss a turn because of the square number.",
                     "Ben drew a card."]
    assert "card" not in events[2]  # nobody learns the drawn card from an event
    setup = {"open": 7, "hands": {"Ann": [49], "Ben": [3]}, "deck": [5]}
    _, events = ENGINE.apply(state_of(TWO, setup, []), "Ann",
                             {"type": "discard", "card": 49, "declare": [7, 7]})
    assert ENGINE.describe_event(events[-1]) == "Ann has no cards left and wins!"


def test_analyse_lists_legal_discards_and_flags_misses():
    state = state_of(THREE, ON_28, TO_28)  # Ann holds 2 and 36 on 28 (4 x 7)
    facts = ENGINE.analyse(state, "Ann", {"type": "draw"})
    assert facts["kind"] == "draw" and facts["legal"]
    assert facts["legal_discards"] == [{"card": 36, "declarations": [[4, 9]]}]
    # A draw while 36 could be played: a missed play, costing two cards (the one kept and the
    # one drawn); it is never also a missed square (one mistake, one measure).
    assert facts["could_discard"] and facts["missed_play"] and facts["cards_given_up"] == 2
    assert facts["square_possible"] and facts["square_cards"] == [36] and not facts["missed_square"]
    # 36 is the only card Ann can play: no other card to play instead, so no square chance.
    assert facts["square_chance"] is False and facts["expert"]["move"] == [36, 4, 9]
    played = ENGINE.analyse(state, "Ann", {"type": "discard", "card": 36, "declare": [4, 9]})
    assert played["kind"] == "discard" and played["legal"] and played["square"]
    assert not played["missed_play"] and not played["missed_square"]
    assert played["fact"] == {"a": 4, "b": 9, "card": 36, "product": 36, "correct": True,
                              "needed": "4x9"}
    wrong = ENGINE.analyse(state, "Ann", {"type": "discard", "card": 36, "declare": [5, 7]})
    assert wrong["legal"] is False and wrong["error"] == "bad_declaration"
    assert wrong["fact"]["correct"] is False and wrong["fact"]["product"] == 35
    # Blamed on the fact the card needed here (4 x 9 on the open 4 x 7), not on 5 x 7.
    assert wrong["fact"]["needed"] == "4x9"
    json.dumps([facts, played, wrong])


def test_analyse_with_nothing_playable_and_malformed_input():
    state = state_of(TWO, ON_12, [])
    facts = ENGINE.analyse(state, "Ann", {"type": "draw"})
    # On 6 (1, 2, 3, 6) Ann's 12 fits, 50 and 70 do not... 50 = 5 x 10, 70 = 7 x 10.
    assert [d["card"] for d in facts["legal_discards"]] == [12]
    assert facts["legal_discards"][0]["declarations"] == [[2, 6], [3, 4]]
    junk = ENGINE.analyse(state, "Ann", {"type": "discard", "card": "x"})
    assert junk["error"] == "bad_action" and junk["kind"] == "discard"
    assert ENGINE.analyse(state, "Ann", "draw")["kind"] == "unknown"
    assert ENGINE.analyse(state, "Ben", {"type": "draw"})["error"] == "not_your_turn"


def test_legal_actions_are_exactly_the_accepted_ones():
    state = state_of(THREE, ON_28, TO_28)
    legal = ENGINE.legal_actions(state, "Ann")
    assert legal == [{"type": "discard", "card": 36, "declare": [4, 9]}, {"type": "draw"}]
    assert ENGINE.legal_actions(state, "Ben") == []
    for card in rules.PRODUCTS:
        for a, b in rules.FACTS[card]:
            action = {"type": "discard", "card": card, "declare": [a, b]}
            assert ENGINE.is_legal(state, "Ann", action) == (action in legal)


def test_presets_are_valid_for_every_player_count():
    for preset in PRESETS.values():
        assert preset["label"]
        for count in range(2, 7):
            ENGINE.new_game([f"P{i}" for i in range(count)], preset["options"])


def test_illegal_move_is_raised_by_apply():
    state = state_of(TWO, ON_12, [])
    with pytest.raises(IllegalMove) as info:
        ENGINE.apply(state, "Ann", {"type": "discard", "card": 12, "declare": [3, 5]})
    assert info.value.code == "bad_declaration"


def test_turn_limit_sentence():
    event = {"type": "game_over", "reason": "turn_limit", "winners": ["Ann", "Ben"],
             "cards_left": {"Ann": 2, "Ben": 2, "Cal": 5}}
    assert ENGINE.describe_event(event) == \
        "The turn limit was reached: Ann and Ben share the win with 2 cards left."
    setup = {"open": 7, "hands": {"Ann": [2, 3], "Ben": [5, 6]}, "deck": []}
    _, events = ENGINE.apply(state_of(TWO, setup, [], {"turn_limit": 50}), "Ann", {"type": "draw"})
    assert ENGINE.describe_event(events[0]) == \
        "Ann could not draw: there are no cards left to draw."
