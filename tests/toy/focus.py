"""Higher Card's focus option, `long_hands` (games/engine/focus.py): how self-play measures it,
and what the generic checks of tests/engine/test_focus_options.py need to know about it."""

from __future__ import annotations

from games.engine.focus import FocusCase, FocusOptions, PackCheck

from .engine import LONG_HAND, PACK


def _plays(engine, state, player, action) -> int:
    """toy.highest chances: one per card played."""
    return 1 if engine.analyse(state, player, action).get("kind") == "play" else 0


FOCUS_CASES = (
    # Ten tricks instead of five: twice the chances, not the three times a focus is held to.
    FocusCase("toy", "long_hands", "cards played (toy.highest chances)", {"long_hands": True},
              count=_plays, asserted=False),
)


def pack_problems(state: dict, options: dict) -> list[str]:
    """Every card of the pack (1-20) is dealt or in the deck, once; a long hand is ten cards."""
    check = PackCheck()
    cards = [c for hand in state["hands"].values() for c in hand] + state["deck"]
    check.expect(sorted(cards) == list(PACK), "not the pack of 1-20, each once")
    size = LONG_HAND if options.get("long_hands") else options["cards"]
    check.expect(all(len(hand) == size for hand in state["hands"].values()), "a hand of the wrong size")
    return check.problems


FOCUS_OPTIONS = (
    FocusOptions("toy", keys=("long_hands",), dealt=((2, {"long_hands": True}), (2, {"long_hands": True, "cards": 3})),
                 refused=((2, {"long_hands": "yes"}), (2, {"long_hands": 1})), pack_problems=pack_problems),
)
