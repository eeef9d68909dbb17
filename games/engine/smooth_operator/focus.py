"""The focus options' self-play cases (games/engine/focus.py): responses that work out the
focused operation, or that are made on a pair from the focused ranges."""

from __future__ import annotations

from collections import Counter

from ..focus import FocusCase, FocusOptions, PackCheck
from . import rules


def _played(sign: str):
    """Responses that work the sign out: accepted plays of that operator card (so.mental_math
    chances of its operation)."""
    def count(engine, state, player, action) -> int:
        if action.get("type") != "play" or action.get("card") != sign:
            return 0
        analysis = engine.analyse(state, player, action)
        return 1 if analysis.get("kind") == "response" and analysis.get("chosen_award") is not None else 0
    return count


def _pair_in(which: str, low: int, high: int):
    """Responses (decisions that compute h op l) on a pair whose `which` card is in low..high."""
    def count(engine, state, player, action) -> int:
        if engine.analyse(state, player, action).get("kind") not in ("response", "penalty"):
            return 0
        return 1 if low <= state[which] <= high else 0
    return count


FOCUS_CASES = (
    FocusCase("smooth_operator", "focus_operators",
              "÷ worked out (responses playing ÷: so.mental_math ÷ chances)",
              {"focus_operators": ["/"], "low_range": [1, 5]}, count=_played("/"), players=3),
    FocusCase("smooth_operator", "focus_operators",
              "÷ worked out (responses playing ÷), ÷ cards alone",
              {"focus_operators": ["/"]}, count=_played("/"), players=3, asserted=False),
    FocusCase("smooth_operator", "focus_operators",
              "− worked out (responses playing −: so.mental_math − chances)",
              {"focus_operators": ["-"]}, count=_played("-"), players=3),
    FocusCase("smooth_operator", "low_range", "responses on a low card from 2 to 4",
              {"low_range": [2, 4]}, count=_pair_in("low", 2, 4), players=3),
    FocusCase("smooth_operator", "high_range", "responses on a high card from 11 to 12",
              {"high_range": [11, 12]}, count=_pair_in("high", 11, 12), players=3),
)


def pack_problems(state: dict, options: dict) -> list[str]:
    """Every card is a game card; the operator cards are FOCUS_COPIES of each focused sign,
    UNFOCUSED_COPIES of each other sign (15 of each without a focus), 4 of each special; each
    number card of the ranges NUMBER_COPIES times, none outside them."""
    check = PackCheck()
    operators = Counter(c for h in state["hands"].values() for c in h)
    operators.update(state["decks"]["operator"])
    focus = options.get("focus_operators") or []
    for code in rules.OPERATOR_CODES:
        if code in rules.SPECIALS:
            expected = 4
        elif not focus:
            expected = 15
        else:
            expected = rules.FOCUS_COPIES if code in focus else rules.UNFOCUSED_COPIES
        check.expect(operators[code] == expected, f"{operators[code]} cards {code}, not {expected}")
    check.expect(set(operators) <= set(rules.OPERATOR_CODES), "an operator card that is no card of the game")
    for name, values in (("high", rules.high_values(options)), ("low", rules.low_values(options))):
        numbers = Counter(state["decks"][name]) + Counter(state["discards"][name]) + Counter([state[name]])
        check.expect(numbers == Counter({v: rules.NUMBER_COPIES for v in values}),
                     f"the {name} number cards are not the range's")
    low, high = options.get("low_range", [1, 10]), options.get("high_range", [11, 20])
    check.expect(set(rules.low_values(options)) == set(range(low[0], low[1] + 1)), "low range")
    check.expect(set(rules.high_values(options)) == set(range(high[0], high[1] + 1)), "high range")
    return check.problems


FOCUS_OPTIONS = (
    FocusOptions(
        "smooth_operator", keys=("focus_operators", "low_range", "high_range"),
        dealt=((3, {"focus_operators": ["/", "-"]}), (2, {"focus_operators": ["/"], "low_range": [1, 5]}),
               (4, {"low_range": [2, 4], "high_range": [11, 12]})),
        refused=((2, {"focus_operators": ["%"]}), (2, {"focus_operators": ["double"]}),
                 (2, {"focus_operators": ["+", "-", "x", "/"]}), (2, {"focus_operators": ["/", "/"]}),
                 (2, {"focus_operators": "/"}), (2, {"low_range": [0, 5]}), (2, {"low_range": [5, 2]}),
                 (2, {"low_range": [1, 11]}), (2, {"low_range": [1]}), (2, {"high_range": [10, 20]}),
                 (2, {"high_range": [11.0, 12]})),
        pack_problems=pack_problems),
)
