"""The focus options' self-play cases (games/engine/focus.py): declarations of the focused
facts (mg.facts chances), focused pack against the classic one."""

from __future__ import annotations

from ..focus import FocusCase


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
