"""Smooth Operator: give the player whose turn it is as few points as possible.

Exports ENGINE, BOTS ({"starter", "beginner", "player", "expert"}), PRESETS (teaching presets) and RATINGS
(the bots' ratings), and the same keyed by game: ENGINES, BOTS_BY_GAME, PRESETS_BY_GAME and
RATINGS_BY_GAME.
Rules and house rules: docs/rules-smooth-operator.md.
"""

from .bots import RATINGS, BeginnerBot, PlayerBot, StarterBot
from .engine import SmoothOperatorEngine
from .expert import ExpertBot
from .focus import FOCUS_CASES, FOCUS_OPTIONS
from ..words import _

ENGINE = SmoothOperatorEngine()

BOTS = {"starter": StarterBot, "beginner": BeginnerBot, "player": PlayerBot, "expert": ExpertBot}

# Every preset's target is above the most points a turn can give before its active player has
# decided anything, so no preset can end the game before everybody has played (a
# "Quick" game to 100 could be won in the first turn by a child who had not moved: the computer
# players' responses can give 164 points, and a player holding no special card is never asked).
# The game ends only at the end of a turn, for the active player (docs/rules-smooth-operator.md,
# "A turn of the active player A"). A turn's points are (sum of the responders' awards) *
# 2^doubles; Double and Free Choice are the active player's own decisions (a player holding a
# special is always asked), so without one the points are the awards alone. An award is at most
# 20 x 10 = 200 (the highest high card times the highest low card; + - / give less, a stuck
# responder gives 25), and there are at most 3 responders (4 players): 600. (With Doubles a turn
# can give far more, 9600 with the pack's four, above the largest target allowed, but then the
# active player has decided, and every responder has played a card, or had none to play.) So the
# quickest preset is 650, the first round number above 600, and the others are spaced above it. In bot self-play with
# three players each player makes about 14 decisions at 650, 17 at 800, 22 at 1000 and 33 at
# 1500 (the old 100 and 250: about 2 and 6). tests/contract/test_presets_let_everyone_play.py
# checks the bound and plays every preset.
PRESETS = {
    "quick": {"label": _("Quick game (first to 650 points)"), "options": {"target": 650}},
    "short": {"label": _("Short game (first to 800 points)"), "options": {"target": 800}},
    "standard": {"label": _("Standard game (first to 1000 points)"), "options": {"target": 1000}},
    "long": {"label": _("Long game (first to 1500 points)"), "options": {"target": 1500}},
}

# The package's games by key, as every engine package exports them (games/engine/__init__.py):
# one game here; Numero's package plays two.
ENGINES = {ENGINE.key: ENGINE}
BOTS_BY_GAME = {ENGINE.key: BOTS}
PRESETS_BY_GAME = {ENGINE.key: PRESETS}
RATINGS_BY_GAME = {ENGINE.key: RATINGS}

__all__ = ["ENGINES", "BOTS_BY_GAME", "PRESETS_BY_GAME", "RATINGS_BY_GAME", "FOCUS_CASES", "FOCUS_OPTIONS",
           "ENGINE", "BOTS", "PRESETS", "RATINGS"]
