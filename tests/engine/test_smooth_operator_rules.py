"""Smooth Operator turn flow, setup, views, events and analysis, on fixed setups."""

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from smooth_operator_helpers import (  # noqa: E402
    EXAMPLE_SETUP, card_totals, new_state, step,
)

from games.engine.errors import IllegalMove  # noqa: E402
from games.engine.smooth_operator import ENGINE, PRESETS, rules  # noqa: E402

PLAYERS = ("Ann", "Ben", "Cal")


def example_state(ann_hand=("+", "-", "x"), **changes):
    setup = {**EXAMPLE_SETUP, "hands": {**EXAMPLE_SETUP["hands"], "Ann": list(ann_hand)}, **changes}
    return new_state(PLAYERS, setup)


def play_all(state, *moves):
    events = []
    for player, action in moves:
        state, new = step(state, player, action)
        events.extend(new)
    return state, events


# ----- setup -------------------------------------------------------------------------------
def test_order_draw_sorts_by_the_card_drawn_and_redraws_ties():
    seen_ties = 0
    for seed in range(60):
        state = new_state(("A", "B", "C", "D"), seed=seed)
        draws = state["order_draws"]
        first = draws[0]
        assert set(first) == {"A", "B", "C", "D"}
        order = state["order"]
        # a player with a higher first card always plays before one with a lower card
        for i, p in enumerate(order):
            for q in order[i + 1:]:
                assert first[p] >= first[q]
        if len(draws) > 1:
            seen_ties += 1
            for later in draws[1:]:  # only tied players draw again
                assert len(set(first[p] for p in later)) == 1
        assert state["active"] == order[0]
    assert seen_ties > 0  # 4 draws from 1-10 tie often; the rule was exercised


def test_ties_are_resolved_by_the_later_draw():
    for seed in range(200):
        state = new_state(("A", "B"), seed=seed)
        draws = state["order_draws"]
        if len(draws) > 1:
            last = draws[-1]
            assert last[state["order"][0]] > last[state["order"][1]]
            return
    pytest.fail("no tie in 200 seeds")


def test_deal_is_one_card_at_a_time_in_play_order_skipping_set_hands():
    initial = new_state(PLAYERS, {"order": ["Cal", "Ann", "Ben"], "hands": {"Ann": ["x"]},
                                  "operator_deck": ["+", "-", "/", "double", "x", "+"],
                                  "high_deck": [13], "low_deck": [4]})
    # Cal and Ben alternate: Cal gets the 1st, 3rd and 5th cards; Ben the 2nd, 4th and 6th.
    # 13 and 4: Ann (x) answers first and can play, so nobody has drawn since the deal.
    assert ENGINE.waiting_for(initial) == ["Ann"] and initial["pending"] == ["Ann", "Ben"]
    assert initial["hands"]["Cal"] == ["+", "/", "x"]
    assert initial["hands"]["Ben"] == ["-", "double", "+"]
    assert initial["hands"]["Ann"] == ["x"]
    assert initial["decks"]["operator"] == []


def test_setup_lists_are_not_changed_by_playing():
    setup = {"order": ["Ann", "Ben", "Cal"], "operator_deck": ["+"] * 12, "high_deck": [12, 14],
             "low_deck": [3, 7]}
    frozen = json.dumps(setup)
    state = new_state(PLAYERS, setup)
    play_all(state, ("Ben", {"type": "play", "card": "+"}))
    assert json.dumps(setup) == frozen


def test_unlisted_decks_are_the_pack_minus_what_the_setup_placed():
    state = new_state(PLAYERS, {"hands": {"Ann": ["free_choice"] * 3}}, seed=4)
    operators, high, low = card_totals(state)
    assert operators == Counter(rules.operator_components())
    assert high == Counter(rules.high_components()) and low == Counter(rules.low_components())


def test_a_listed_deck_leaves_the_rest_of_its_pack_out_of_the_game():
    state = new_state(PLAYERS, {"order": list(PLAYERS), "operator_deck": ["+"] * 9, "high_deck": [15],
                                "low_deck": [5]})
    operators, high, low = card_totals(state)
    assert operators == Counter({"+": 9}) and high == Counter({15: 1}) and low == Counter({5: 1})


# ----- responses ------------------------------------------------------------------------
def test_response_awards_the_active_player_and_draws_a_replacement():
    state = example_state(operator_deck=["double", "free_turn", "x"])
    before = len(state["hands"]["Ben"])
    state, events = play_all(state, ("Ben", {"type": "play", "card": "/"}))
    assert state["turn_awards"] == {"Ben": 3} and state["scores"]["Ann"] == 3
    assert len(state["hands"]["Ben"]) == before and "/" not in state["hands"]["Ben"]
    assert state["discards"]["operator"] == ["/"]
    types = [e["type"] for e in events]
    assert types == ["play"]
    assert events[0] == {"type": "play", "player": "Ben", "active": "Ann", "card": "/", "high": 12,
                         "low": 4, "award": 3}


def test_stuck_without_special_gives_25_automatically_and_keeps_the_hand():
    state = example_state(high_deck=[13, 15], low_deck=[4, 3],
                          hands={"Ann": ["+", "+", "+"], "Ben": ["/", "/", "/"], "Cal": ["-", "x", "+"]})
    # Ben cannot divide 13 by 4 and holds no special: skipped with 25 for Ann.
    assert ENGINE.waiting_for(state) == ["Cal"]
    assert state["turn_awards"] == {"Ben": 25} and state["hands"]["Ben"] == ["/", "/", "/"]
    assert state["responses"][0] == {"player": "Ben", "card": None, "discard": None, "award": 25}


def test_an_empty_hand_is_stuck_too():
    state = new_state(("Ann", "Ben"), {"order": ["Ann", "Ben"], "hands": {"Ann": ["+"], "Ben": []},
                                       "high_deck": [12], "low_deck": [4]}, options={"target": 60})
    # Ben gives 25 every time; Ann holds no special: whole turns run without a decision.
    assert state["scores"]["Ann"] == 25 and ENGINE.waiting_for(state) == ["Ann"]
    assert state["active"] == "Ben"


def test_stuck_with_a_special_is_a_penalty_decision():
    state = example_state(high_deck=[13, 15], low_deck=[4, 3], operator_deck=["-", "+", "+"],
                          hands={"Ann": ["+", "+", "+"], "Ben": ["/", "double", "/"], "Cal": ["-", "x", "+"]})
    assert ENGINE.waiting_for(state) == ["Ben"]
    assert ENGINE.legal_actions(state, "Ben") == [{"type": "penalty", "discard": "double"}]
    state, events = play_all(state, ("Ben", {"type": "penalty", "discard": "double"}))
    assert state["turn_awards"] == {"Ben": 25}
    assert sorted(state["hands"]["Ben"]) == ["-", "/", "/"]
    assert state["discards"]["operator"] == ["double"]
    assert events[0]["type"] == "penalty" and events[0]["discard"] == "double"


def test_one_legal_card_is_still_a_decision():
    state = example_state(hands={"Ann": ["+"], "Ben": ["x", "x", "double"], "Cal": ["-"]})
    assert ENGINE.waiting_for(state) == ["Ben"]
    assert ENGINE.legal_actions(state, "Ben") == [{"type": "play", "card": "x"}]


# ----- specials --------------------------------------------------------------------------
def responses_done(ann_hand, **changes):
    state = example_state(ann_hand, **changes)
    return play_all(state, ("Ben", {"type": "play", "card": "/"}), ("Cal", {"type": "play", "card": "-"}))[0]


def test_specials_phase_lists_every_special_and_end_turn():
    state = responses_done(["double", "free_choice", "free_turn"])
    legal = ENGINE.legal_actions(state, "Ann")
    assert {"type": "end_turn"} in legal
    assert {"type": "special", "card": "double"} in legal
    assert {"type": "special", "card": "free_turn"} in legal
    signs = sorted(a["sign"] for a in legal if a.get("card") == "free_choice")
    assert signs == sorted(["+", "-", "x", "/"])  # 12 / 4 divides


def test_free_choice_without_division_when_it_does_not_divide():
    state = example_state(["free_choice", "+", "+"], high_deck=[13],
                          hands={"Ann": ["free_choice", "+", "+"], "Ben": ["+", "x"], "Cal": ["-", "x"]})
    state, _ = play_all(state, ("Ben", {"type": "play", "card": "+"}), ("Cal", {"type": "play", "card": "-"}))
    signs = [a["sign"] for a in ENGINE.legal_actions(state, "Ann") if a.get("card") == "free_choice"]
    assert signs == ["+", "-", "x"]


def test_free_choice_replaces_penalty_awards_too():
    state = example_state(high_deck=[13, 15], low_deck=[4, 3], operator_deck=["+"] * 4,
                          hands={"Ann": ["free_choice", "+", "+"], "Ben": ["/", "/", "/"],
                                 "Cal": ["-", "x", "+"]})
    state, _ = play_all(state, ("Cal", {"type": "play", "card": "-"}))
    assert state["turn_awards"] == {"Ben": 25, "Cal": 9} and state["scores"]["Ann"] == 34
    state, events = play_all(state, ("Ann", {"type": "special", "card": "free_choice", "sign": "-"}))
    # the lower sign is allowed; it replaces both awards (the 25 included)
    assert events[0]["points"] == 18
    assert state["last_turn"]["turn_awards"] == {"Ben": 9, "Cal": 9}
    assert state["scores"]["Ann"] == 18


def test_last_special_played_ends_the_turn_by_itself():
    state = responses_done(["double", "+", "+"], operator_deck=["+", "-", "x"])
    state, events = play_all(state, ("Ann", {"type": "special", "card": "double"}))
    assert [e["type"] for e in events] == ["special", "end_turn", "flip"]
    assert state["active"] == "Ben" and state["scores"]["Ann"] == 22


def test_a_newly_drawn_special_can_be_played_the_same_turn():
    state = responses_done(["double", "+", "+"], operator_deck=["+", "-", "double", "x"])
    # Ben and Cal drew + and -, Ann's double is replaced by another double
    state, _ = play_all(state, ("Ann", {"type": "special", "card": "double"}))
    assert state["active"] == "Ann" and ENGINE.waiting_for(state) == ["Ann"]
    state, _ = play_all(state, ("Ann", {"type": "special", "card": "double"}))
    assert state["scores"]["Ann"] == 44 and state["active"] == "Ben"


def test_free_turns_add_up():
    state = responses_done(["free_turn", "free_turn", "+"], operator_deck=["+", "-", "+", "+"] + ["x"] * 8)
    state, _ = play_all(state, ("Ann", {"type": "special", "card": "free_turn"}),
                        ("Ann", {"type": "special", "card": "free_turn"}))
    # Ann drew + twice: no special left, so the turn ended and her first free turn began
    assert state["active"] == "Ann" and state["free_turns"] == 1 and state["turn_number"] == 2
    assert (state["high"], state["low"]) == (15, 3)
    state, _ = play_all(state, ("Ben", {"type": "play", "card": "x"}), ("Cal", {"type": "play", "card": "x"}))
    assert state["active"] == "Ann" and state["free_turns"] == 0 and state["turn_number"] == 3
    state, _ = play_all(state, ("Ben", {"type": "play", "card": "x"}), ("Cal", {"type": "play", "card": "x"}))
    assert state["active"] == "Ben"


def test_end_turn_while_holding_specials():
    state = responses_done(["double", "free_choice", "+"])
    state, events = play_all(state, ("Ann", {"type": "end_turn"}))
    assert state["scores"]["Ann"] == 11 and state["active"] == "Ben"
    assert sorted(state["hands"]["Ann"]) == sorted(["double", "free_choice", "+"])
    assert events[0] == {"type": "end_turn", "player": "Ann", "points": 11, "score": 11}


def test_game_ends_at_the_end_of_the_turn_that_reaches_the_target():
    state = ENGINE.new_game(list(PLAYERS), {"target": 20}, 0,
                            {**EXAMPLE_SETUP, "operator_deck": ["+"] * 4,
                             "hands": {**EXAMPLE_SETUP["hands"], "Ann": ["double", "+", "+"]}})
    state, _ = play_all(state, ("Ben", {"type": "play", "card": "/"}), ("Cal", {"type": "play", "card": "-"}))
    assert not state["finished"]  # 11 < 20: the specials are still offered
    state, events = play_all(state, ("Ann", {"type": "special", "card": "double"}))
    assert state["finished"] and state["winners"] == ["Ann"] and state["phase"] == "over"
    assert events[-1]["type"] == "game_over"
    summary = ENGINE.summary(state)
    assert summary["active"] == "Ann" and summary["turn_points"] == 22
    assert summary["turn_awards"] == {"Ben": 3, "Cal": 8}
    with pytest.raises(IllegalMove) as err:
        step(state, "Ben", {"type": "play", "card": "+"})
    assert err.value.code == "game_over"


def test_target_reached_by_responses_still_allows_specials():
    state = ENGINE.new_game(list(PLAYERS), {"target": 10}, 0,
                            {**EXAMPLE_SETUP,
                             "hands": {**EXAMPLE_SETUP["hands"], "Ann": ["double", "+", "+"]}})
    state, _ = play_all(state, ("Ben", {"type": "play", "card": "/"}), ("Cal", {"type": "play", "card": "-"}))
    assert not state["finished"] and ENGINE.waiting_for(state) == ["Ann"]


# ----- decks -------------------------------------------------------------------------------
def test_flip_discards_the_old_pair_first_so_a_one_card_deck_repeats():
    state = new_state(("Ann", "Ben"), {"order": ["Ann", "Ben"], "high_deck": [17], "low_deck": [1],
                                       "hands": {"Ann": ["+", "+"], "Ben": ["-", "-"]}})
    state, events = play_all(state, ("Ben", {"type": "play", "card": "-"}))
    assert (state["high"], state["low"]) == (17, 1) and state["active"] == "Ben"
    assert {"type": "reshuffle", "deck": "high", "cards": 1} in events
    assert {"type": "reshuffle", "deck": "low", "cards": 1} in events


def test_played_card_can_come_straight_back_from_an_empty_deck():
    state = new_state(("Ann", "Ben"), {"order": ["Ann", "Ben"], "operator_deck": [],
                                       "hands": {"Ann": ["+"], "Ben": ["x"]}})
    state, events = play_all(state, ("Ben", {"type": "play", "card": "x"}))
    assert state["hands"]["Ben"] == ["x"] and state["discards"]["operator"] == []
    assert {"type": "reshuffle", "deck": "operator", "cards": 1} in events


def test_nothing_to_draw_leaves_a_shorter_hand():
    state = new_state(("Ann", "Ben"), {"order": ["Ann", "Ben"], "operator_deck": [],
                                       "hands": {"Ann": ["+", "-"]}})
    assert state["hands"]["Ben"] == []


def test_discard_pile_is_reshuffled_when_the_operator_deck_runs_out():
    state = new_state(("Ann", "Ben"), {"order": ["Ann", "Ben"], "operator_deck": ["x"],
                                       "hands": {"Ann": ["+", "double"], "Ben": ["-", "+"]}})
    state, _ = play_all(state, ("Ben", {"type": "play", "card": "-"}))  # draws the last x
    assert state["decks"]["operator"] == []
    state, _ = play_all(state, ("Ann", {"type": "special", "card": "double"}))
    # Ann's double went onto the pile [-, double] first, which became the new deck
    drawn = Counter(state["hands"]["Ann"]) - Counter(["+"])
    assert sum(drawn.values()) == 1 and set(drawn) <= {"-", "double"}
    assert Counter(state["decks"]["operator"]) + drawn == Counter(["-", "double"])
    operators, _, _ = card_totals(state)
    assert operators == Counter({"x": 1, "-": 1, "+": 2, "double": 1})


# ----- views, summaries, events -----------------------------------------------------------
def test_view_shows_own_hand_and_only_counts_of_others():
    state = example_state(["double", "+", "-"])
    view = ENGINE.view(state, "Ben")
    assert view["me"] == "Ben" and view["hand"] == ["+", "x", "/"]
    assert view["hand_counts"] == {"Ann": 3, "Ben": 3, "Cal": 3}
    assert view["decision"] == "response"
    assert view["legal_actions"] == [{"type": "play", "card": c} for c in ("+", "x", "/")]
    assert "hands" not in view and "decks" not in view
    assert view["deck_counts"]["high"] == 2 and view["waiting_for"] == ["Ben"]
    text = json.dumps(view)
    assert '"double"' not in text  # Ann's special is hidden
    spectator = ENGINE.view(state, None)
    assert spectator["me"] is None and spectator["hand"] is None and spectator["legal_actions"] == []
    coach = ENGINE.coach_view(state)
    assert coach["hands"]["Ann"] == ["+", "-", "double"] and coach["me"] is None
    assert "decks" not in coach


def test_view_says_why_each_own_card_cannot_be_used_now():
    state = ENGINE.new_game(["Robo", "Ann"], {"target": 500}, 1, {
        "order": ["Robo", "Ann"], "hands": {"Ann": ["/", "double", "+"], "Robo": ["x", "-", "free_turn"]},
        "high_deck": [13, 17], "low_deck": [5, 2]})
    view = ENGINE.view(state, "Ann")
    assert view["legal_actions"] == [{"type": "play", "card": "+"}]
    assert view["why_not"] == {
        "/": "13 ÷ 5 doesn't divide evenly, so ÷ can't be played now.",
        "double": "Double is a special card: you play it on your own turn, after everyone has answered."}
    # Only the viewer's own cards, and nothing while they have no decision.
    assert ENGINE.view(state, "Robo")["why_not"] == {} and ENGINE.view(state, None)["why_not"] == {}


def test_describe_event_names_players_and_numbers():
    state = responses_done(["double", "free_choice", "+"])
    state, events = play_all(state, ("Ann", {"type": "special", "card": "free_choice", "sign": "x"}),
                             ("Ann", {"type": "special", "card": "double"}))
    texts = [ENGINE.describe_event(e) for e in events]
    assert "Ann played Free Choice with ×: every award becomes 12 × 4 = 48" in texts[0]
    assert any("192" in t for t in texts)
    _, events = play_all(example_state(), ("Ben", {"type": "play", "card": "/"}))
    assert ENGINE.describe_event(events[0]) == "Ben played ÷: 12 ÷ 4 = 3 points for Ann."


def test_every_event_type_has_a_sentence():
    samples = [
        {"type": "flip", "player": "Ann", "high": 12, "low": 4, "turn": 1, "free": True},
        {"type": "stuck", "player": "Ben", "active": "Ann", "award": 25},
        {"type": "penalty", "player": "Ben", "active": "Ann", "discard": "double", "award": 25},
        {"type": "special", "player": "Ann", "card": "free_turn", "points": 3},
        {"type": "end_turn", "player": "Ann", "points": 1, "score": 40},
        {"type": "reshuffle", "deck": "low", "cards": 48},
        {"type": "no_card", "player": "Cal"},
        {"type": "game_over", "winners": ["Ann"], "score": 512},
    ]
    for event in samples:
        text = ENGINE.describe_event(event)
        assert text.endswith((".", "!")) and "Something happened" not in text
    assert "1 point " in ENGINE.describe_event(samples[4])


def test_scores_and_presets():
    state = responses_done(["double", "+", "+"])
    assert ENGINE.scores(state) == {"Ann": 11, "Ben": 0, "Cal": 0}
    for preset in PRESETS.values():
        assert preset["label"]
        ENGINE.resolve_options(preset["options"], 2)


# ----- analysis ---------------------------------------------------------------------------
def test_analyse_a_response_lists_every_option_and_the_lowest():
    state = example_state()
    facts = ENGINE.analyse(state, "Ben", {"type": "play", "card": "+", "answer": 16})
    assert facts["kind"] == "response" and facts["error"] is None
    assert facts["options"] == {"+": 16, "x": 48, "/": 3}
    assert facts["lowest"] == 3 and facts["lowest_cards"] == ["/"]
    assert facts["chosen"] == "+" and facts["chosen_award"] == 16
    assert facts["missed_lower"] is True and facts["above_lowest"] == 13
    assert facts["holds_division"] and facts["lowest_exact_division_available"]
    assert facts["answer_correct"] is True and facts["correct_answer"] == 16


def test_analyse_a_rejected_uneven_division_does_not_raise():
    state = example_state(high_deck=[13])
    facts = ENGINE.analyse(state, "Ben", {"type": "play", "card": "/", "answer": 3})
    assert facts["error"] == "uneven_division"
    assert facts["holds_division"] and not facts["division_exact"]
    assert not facts["lowest_exact_division_available"]
    assert facts["chosen_award"] is None and facts["correct_answer"] is None
    assert facts["answer_correct"] is False
    assert ENGINE.analyse(state, "Cal", {"type": "play", "card": "-"})["error"] == "not_your_turn"
    assert ENGINE.analyse(state, "Ben", {"type": "nonsense"})["error"] == "bad_action"
    assert ENGINE.analyse(state, "Ben", "junk")["error"] == "bad_action"


def test_analyse_the_specials_phase():
    state = responses_done(["double", "free_choice", "+"])
    facts = ENGINE.analyse(state, "Ann", {"type": "end_turn"})
    assert facts["kind"] == "specials"
    assert facts["specials_held"] == ["double", "free_choice"]
    assert facts["turn_points"] == 11 and facts["turn_awards"] == {"Ben": 3, "Cal": 8}
    assert facts["free_choice_points"] == {"+": 32, "-": 16, "x": 96, "/": 6}
    assert facts["best_free_choice"] == "x" and facts["free_choice_would_raise"]
    assert facts["ended_with_raising_free_choice_unplayed"] is True
    wrong = ENGINE.analyse(state, "Ann",
                           {"type": "special", "card": "free_choice", "sign": "x", "answer": 50})
    assert wrong["ended_with_raising_free_choice_unplayed"] is False
    assert wrong["correct_answer"] == 48 and wrong["answer_correct"] is False
    double = ENGINE.analyse(state, "Ann", {"type": "special", "card": "double"})
    assert double["double_on_zero"] is False and double["chosen"] == "double"


def test_analyse_a_penalty_and_a_bystander():
    state = example_state(high_deck=[13],
                          hands={"Ann": ["+"], "Ben": ["/", "double", "free_turn"], "Cal": ["-"]})
    facts = ENGINE.analyse(state, "Ben", {"type": "penalty", "discard": "free_turn"})
    assert facts["kind"] == "penalty" and facts["specials_held"] == ["free_turn", "double"]
    assert facts["chosen"] == "free_turn" and facts["error"] is None
    assert ENGINE.analyse(state, "Ann", {"type": "end_turn"})["kind"] == "none"


def test_analyse_an_answer_without_an_operation_is_not_judged():
    state = responses_done(["double", "+", "+"])
    facts = ENGINE.analyse(state, "Ann", {"type": "special", "card": "double", "answer": 22})
    assert facts["correct_answer"] is None and facts["answer_correct"] is None
    assert "answer" not in ENGINE.analyse(state, "Ann", {"type": "end_turn"})
