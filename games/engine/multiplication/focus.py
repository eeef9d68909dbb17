"""The focus options' self-play cases (games/engine/focus.py): declarations of the focused
facts (mg.facts chances), focused pack against the classic one."""

from __future__ import annotations

from collections import Counter

from ..focus import FocusCase, FocusOptions, PackCheck
from . import rules


def _facts_declared(facts: frozenset):
    """mg.facts chances (skills.py: one per declaration for a number card, detailed by the
    fact the card needed) whose fact is one of `facts`."""
    def count(engine, state, player, action) -> int:
        if action.get("type") != "discard":
            return 0
        fact = engine.analyse(state, player, action).get("fact") or {}
        return 1 if fact.get("needed") in facts else 0
    return count


SEVENS = frozenset(f"{min(7, k)}x{max(7, k)}" for k in range(1, 11))

FOCUS_CASES = (
    FocusCase("multiplication", "focus_facts", "declarations of 6x9 or 7x8 (mg.facts chances)",
              {"focus_facts": ["7x8", "6x9"]}, count=_facts_declared(frozenset({"7x8", "6x9"}))),
    FocusCase("multiplication", "focus_tables",
              "declarations of a 7-times-table fact (mg.facts chances); practice preset with "
              "ten cards each, against the classic game",
              {"focus_tables": [7], "hand_size": 10}, count=_facts_declared(SEVENS)),
    FocusCase("multiplication", "focus_tables",
              "declarations of a 7-times-table fact (mg.facts chances), like for like",
              {"focus_tables": [7]}, count=_facts_declared(SEVENS), asserted=False),
)


def pack_problems(state: dict, options: dict) -> list[str]:
    """Every card is a product card or "free"; every product card is there at least once (the
    standard pack) and at most FOCUS_COPIES times; exactly the focused cards (products of the
    focused facts and tables) are there FOCUS_COPIES times; free cards as the option; and the
    focused cards are dealt first (the hands hold focused cards only, or all of them)."""
    check = PackCheck()
    cards = [c for h in state["hands"].values() for c in h] + state["deck"] + [state["open"]["card"]]
    counts = Counter(cards)
    check.expect(all(rules.is_card(c) for c in counts), "a card that is no card of the game")
    focused = set(rules.focus_cards(options))
    check.expect(bool(focused), "no focused card")
    for product in rules.PRODUCTS:
        expected = rules.FOCUS_COPIES if product in focused else 1
        check.expect(counts[product] == expected, f"{counts[product]} cards {product}, not {expected}")
    check.expect(counts[rules.FREE] == options["free_cards"], "free cards not as the option says")
    check.expect(counts == Counter(rules.pack(options)), "not the focused pack")
    dealt = [c for h in state["hands"].values() for c in h]
    in_hands = sum(1 for c in dealt if c in focused)
    check.expect(in_hands == min(len(dealt), rules.FOCUS_COPIES * len(focused)),
                 "the focused cards were not dealt first")
    return check.problems


FOCUS_OPTIONS = (
    FocusOptions(
        "multiplication", keys=("focus_facts", "focus_tables"),
        dealt=((2, {"focus_facts": ["7x8", "6x9"]}), (3, {"focus_tables": [7, 8]}),
               (4, {"focus_facts": ["3x4"], "focus_tables": [9], "free_cards": 2})),
        refused=((2, {"focus_facts": ["8x7"]}),  # written larger first
                 (2, {"focus_facts": ["7x11"]}), (2, {"focus_facts": []}), (2, {"focus_facts": "7x8"}),
                 (2, {"focus_facts": ["7x8", "7x8"]}), (2, {"focus_facts": [56]}),
                 (2, {"focus_tables": [0]}), (2, {"focus_tables": [True]}),
                 (2, {"focus_tables": [1, 2, 3, 4]}), (2, {"focus_tables": None})),
        pack_problems=pack_problems),
)
