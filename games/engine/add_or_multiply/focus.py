"""The focus option's self-play case (games/engine/focus.py): rounds whose numbers both lie
in the focused range (am.operation chances)."""

from __future__ import annotations

import math
from collections import Counter

from ..focus import FocusCase, FocusOptions, PackCheck
from . import rules


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


def pack_problems(state: dict, options: dict) -> list[str]:
    """Each hand holds ten number cards of the range (values 0-6, every value of the range, at
    most ceil(10 / width) of each) and the six operation cards."""
    check = PackCheck()
    low, high = options["number_range"]
    width = high - low + 1
    for hand in state["hands"].values():
        numbers = Counter(hand["numbers"])
        check.expect(sum(numbers.values()) == len(rules.NUMBER_CARDS), "not ten number cards")
        check.expect(set(numbers) == set(range(low, high + 1)), "not every value of the range")
        check.expect(all(0 <= v <= 6 for v in numbers), "a number outside 0-6")
        check.expect(max(numbers.values()) <= math.ceil(len(rules.NUMBER_CARDS) / width), "too many of a value")
        check.expect(sorted(hand["operations"]) == sorted(rules.OPERATION_CARDS), "not the six operation cards")
    return check.problems


FOCUS_OPTIONS = (
    FocusOptions(
        "add_or_multiply", keys=("number_range",),
        dealt=((3, {"number_range": [3, 6]}), (3, {"number_range": [0, 2], "rounds": 3})),
        refused=((3, {"number_range": [3, 3]}), (3, {"number_range": [4, 2]}), (3, {"number_range": [0, 7]}),
                 (3, {"number_range": [-1, 2]}), (3, {"number_range": [1, False]}),
                 (3, {"number_range": {"low": 1, "high": 3}})),
        pack_problems=pack_problems, plain_players=3, shuffled=False),  # nothing is shuffled
)
