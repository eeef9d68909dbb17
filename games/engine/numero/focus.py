"""The focus options' self-play cases (games/engine/focus.py): takes that use a wild card of
the families a level (or the chosen wilds) brings."""

from __future__ import annotations

from ..focus import FocusCase, FocusOptions, PackCheck
from . import cards as pack_cards
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


def pack_problems(state: dict, options: dict) -> list[str]:
    """Every card exists once and is in the spec's pack of the level/options (cards.pack)."""
    check = PackCheck()
    cards = [c for h in state["hands"].values() for c in h] + state["deck"]
    cards += [c for item in state["centre"] for c in item["cards"]]
    check.expect(len(cards) == len(set(cards)), "a card is there twice")
    check.expect(sorted(cards, key=pack_cards.sort_key) == pack_cards.pack(options), "not the level's pack")
    check.expect(all(pack_cards.in_pack(c, options) for c in cards), "a card outside the level's pack")
    return check.problems


FOCUS_OPTIONS = (
    FocusOptions(
        "numero", keys=("level",),
        dealt=((2, {"level": 4}), (3, {"level": 6, "wilds": ["divide"]}), (2, {"level": 1, "wilds": ["subtract"]})),
        refused=((2, {"level": 0}), (2, {"level": 9}), (2, {"level": "4"}), (2, {"level": True}),
                 (2, {"level": 8, "scoring": False}), (2, {"level": 4, "wilds": ["divide", "modulo"]})),
        pack_problems=pack_problems),
    # Solitaire takes a level too (not measured in self-play: no FocusCase, so no keys here).
    FocusOptions("numero_solitaire", keys=(), dealt=((1, {"level": 5}),), refused=((1, {"level": 8}),),
                 pack_problems=pack_problems, plain_players=1),
)
