"""The focus options' self-play cases (games/engine/focus.py): takes that use a wild card of
the families a level (or the chosen wilds) brings."""

from __future__ import annotations

from ..focus import FocusCase
from .cards import family_of, is_wild


def _wild_takes(families: tuple):
    """Takes that take a centre item changed by a wild card of one of `families`."""
    def count(engine, state, player, action) -> int:
        if action.get("type") != "take":
            return 0
        analysis = engine.analyse(state, player, action)
        if analysis.get("kind") != "take" or not analysis.get("chosen"):
            return 0
        named = {code for group in action["groups"] for code in group}
        for item in state["centre"]:
            if named & set(item["cards"]) and any(
                    is_wild(c) and family_of(c) in families for c in item["cards"]):
                return 1
        return 0
    return count


FOCUS_CASES = (
    FocusCase("numero", "level", "takes with a wild card (level 4's subtract, multiply, divide)",
              {"level": 4}, count=_wild_takes(("subtract", "multiply", "divide"))),
    FocusCase("numero", "wilds", "takes with a divide wild card, against the classic game",
              {"level": 6, "wilds": ["divide"]}, count=_wild_takes(("divide",))),
    FocusCase("numero", "wilds", "takes with a divide wild card, against level 6 (all families)",
              {"level": 6, "wilds": ["divide"]}, {"level": 6},
              count=_wild_takes(("divide",)), asserted=False),
)
