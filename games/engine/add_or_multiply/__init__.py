"""Add or Multiply? (`add_or_multiply`): see ../../../docs/rules-add-or-multiply.md."""

from .bots import BOTS, RATINGS
from .engine import AddOrMultiplyEngine
from .focus import FOCUS_CASES, FOCUS_OPTIONS
from .rules import round_facts
from ..words import _

ENGINE = AddOrMultiplyEngine()

PRESETS = {
    "classic": {"label": _("Classic: five rounds"), "options": {"rounds": 5}},
    "short": {"label": _("Short game: three rounds"), "options": {"rounds": 3}},
    "taster": {"label": _("Taster: one round"), "options": {"rounds": 1}},
}

# The package's games by key, as every engine package exports them (games/engine/__init__.py):
# one game here; Numero's package plays two.
ENGINES = {ENGINE.key: ENGINE}
BOTS_BY_GAME = {ENGINE.key: BOTS}
PRESETS_BY_GAME = {ENGINE.key: PRESETS}
RATINGS_BY_GAME = {ENGINE.key: RATINGS}


def last_round_facts(state: dict) -> dict:
    """Per player facts of the last resolved round (`{}` before the first): what came,
    the chosen operation's points and the other operation's points (am.operation)."""
    return state["history"][-1]["results"] if state["history"] else {}


__all__ = ["ENGINES", "BOTS_BY_GAME", "PRESETS_BY_GAME", "RATINGS_BY_GAME", "FOCUS_CASES", "FOCUS_OPTIONS",
           "ENGINE", "BOTS", "PRESETS", "RATINGS", "round_facts", "last_round_facts"]
