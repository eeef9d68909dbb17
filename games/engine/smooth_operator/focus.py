"""The focus options' self-play cases (games/engine/focus.py): responses that work out the
focused operation, or that are made on a pair from the focused ranges."""

from __future__ import annotations

from ..focus import FocusCase


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
