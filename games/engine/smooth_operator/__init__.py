"""Smooth Operator: give the player whose turn it is as few points as possible.

Exports ENGINE, BOTS ({"beginner", "player", "expert"}) and PRESETS (teaching presets).
Rules: ../../../../shared/spec/smooth-operator.md; house rules: docs/rules-smooth-operator.md.
"""

from .bots import BeginnerBot, PlayerBot
from .engine import SmoothOperatorEngine
from .expert import ExpertBot

ENGINE = SmoothOperatorEngine()

BOTS = {"beginner": BeginnerBot, "player": PlayerBot, "expert": ExpertBot}

PRESETS = {
    "quick": {"label": "Quick game (first to 100 points)", "options": {"target": 100}},
    "short": {"label": "Short game (first to 250 points)", "options": {"target": 250}},
    "standard": {"label": "Standard game (first to 500 points)", "options": {"target": 500}},
    "long": {"label": "Long game (first to 1000 points)", "options": {"target": 1000}},
}

__all__ = ["ENGINE", "BOTS", "PRESETS"]
