"""The Multiplication Game (`multiplication`): see ../../../docs/rules-multiplication.md."""

from .bots import BOTS, RATINGS
from .engine import MultiplicationEngine
from .focus import FOCUS_CASES, FOCUS_OPTIONS
from ..words import _

ENGINE = MultiplicationEngine()

PRESETS = {
    "classic": {"label": _("Classic: the 42 product cards"), "options": {}},
    "free_cards": {"label": _("With two free cards"), "options": {"free_cards": 2}},
    "short": {"label": _("Short game: five cards each, 100 turns at most"),
              "options": {"hand_size": 5, "turn_limit": 100}},
    "small_hands": {"label": _("Small hands: four cards each"), "options": {"hand_size": 4}},
}

# The package's games by key, as every engine package exports them (games/engine/__init__.py):
# one game here; Numero's package plays two.
ENGINES = {ENGINE.key: ENGINE}
BOTS_BY_GAME = {ENGINE.key: BOTS}
PRESETS_BY_GAME = {ENGINE.key: PRESETS}
RATINGS_BY_GAME = {ENGINE.key: RATINGS}

__all__ = ["ENGINES", "BOTS_BY_GAME", "PRESETS_BY_GAME", "RATINGS_BY_GAME", "FOCUS_CASES", "FOCUS_OPTIONS",
           "ENGINE", "BOTS", "PRESETS", "RATINGS"]
