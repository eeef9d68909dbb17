"""Numero and Numero Solitaire: take centre cards that add up to a card from your hand.

Exports ENGINES ({"numero", "numero_solitaire"}), BOTS_BY_GAME (bot classes per game and
level), BOTS (Numero's), PRESETS (the spec's teaching levels 1-8), PRESETS_BY_GAME
(Solitaire: levels 1-7, it has no challenges) and RATINGS_BY_GAME (Numero's bot ratings).
Rules and house rules: docs/rules-numero.md.
"""

from .bots import BOTS_BY_GAME, RATINGS_BY_GAME
from .cards import apply_wild, describe_wild, is_code, is_number, is_wild, value_of
from .engine import NumeroEngine
from .focus import FOCUS_CASES, FOCUS_OPTIONS
from .rules import check_discard, check_discard_wild, check_wild
from .solitaire import SolitaireEngine
from ..words import _

ENGINES = {"numero": NumeroEngine(), "numero_solitaire": SolitaireEngine()}
ENGINE = ENGINES["numero"]
BOTS = BOTS_BY_GAME["numero"]

_ALL_WILDS = ["subtract", "multiply", "divide", "fraction", "power"]
PRESETS = {
    "level1": {"label": _("Level 1: numbers 1-10"), "options": {"max_number": 10}},
    "level2": {"label": _("Level 2: numbers 1-15"), "options": {"max_number": 15}},
    "level3": {"label": _("Level 3: + subtract wild cards"),
               "options": {"max_number": 15, "wilds": ["subtract"]}},
    "level4": {"label": _("Level 4: + multiply and divide wild cards"),
               "options": {"max_number": 15, "wilds": ["subtract", "multiply", "divide"]}},
    "level5": {"label": _("Level 5: + fraction wild cards"),
               "options": {"max_number": 15,
                           "wilds": ["subtract", "multiply", "divide", "fraction"]}},
    "level6": {"label": _("Level 6: + powers and roots"), "options": {"max_number": 15,
                                                                   "wilds": list(_ALL_WILDS)}},
    "level7": {"label": _("Level 7: scoring points"),
               "options": {"max_number": 15, "wilds": list(_ALL_WILDS), "scoring": True}},
    "level8": {"label": _("Level 8: scoring with challenges"),
               "options": {"max_number": 15, "wilds": list(_ALL_WILDS), "scoring": True,
                           "challenges": True}},
}

# Solitaire has no challenges, so it offers levels 1-7.
PRESETS_BY_GAME = {
    "numero": PRESETS,
    "numero_solitaire": {k: v for k, v in PRESETS.items() if not v["options"].get("challenges")},
}

# The table's public helpers (games/adapters/numero.py): card codes and the checks of a wild
# card, a discard and a discarded wild on a player's own view.
__all__ = ["ENGINES", "ENGINE", "BOTS", "BOTS_BY_GAME", "PRESETS", "PRESETS_BY_GAME",
           "RATINGS_BY_GAME", "FOCUS_CASES", "FOCUS_OPTIONS",
           "apply_wild", "describe_wild", "is_code", "is_number", "is_wild", "value_of",
           "check_discard", "check_discard_wild", "check_wild"]
