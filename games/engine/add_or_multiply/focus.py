"""The focus option's self-play case (games/engine/focus.py): rounds whose numbers both lie
in the focused range (am.operation chances)."""

from __future__ import annotations

from ..focus import FocusCase


def _rounds_in(low: int, high: int):
    """am.operation chances (one per resolved round per player) in which both numbers that
    came lie in low..high (from the revealed rounds' facts, `history`)."""
    def at_end(engine, state) -> int:
        return sum(1 for past in state["history"] for facts in past["results"].values()
                   if all(low <= v <= high for v in facts["on_me"]))
    return at_end


FOCUS_CASES = (
    FocusCase("add_or_multiply", "number_range", "rounds whose two numbers are 3 to 6 (am.operation chances)",
              {"number_range": [3, 6]}, at_end=_rounds_in(3, 6), players=3),
)
