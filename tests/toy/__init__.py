"""A test-only toy game ("Higher Card"), laid out like a real game so that a new game can start
as a copy of it (docs/engine.md, "Adding a game"). This folder stands for its engine package
(games/engine/<game>/): engine.py (its engine and presets), bots.py (its computer players and
their ratings), skills.py (its measure, its focus option and the words for it), focus.py (how the
focus option is measured and checked); adapter.py stands for its adapter
(games/adapters/<game>.py); its board is tests/templates/games/boards/toy.html and its
stylesheet tests/static/css/games/toy.css; its words are translated in games/locale/. Its one
registry line is `registry.register(SPEC)`, done by the `toy_game` fixture
(tests/toy/conftest.py). No module outside these names it
(tests/contract/test_games_stay_in_their_homes.py)."""

from .bots import BOTS, RATINGS
from .engine import ENGINE, PRESETS
from .focus import FOCUS_CASES, FOCUS_OPTIONS
from .skills import SKILLS

# The package's games by key, as every engine package exports them (games/engine/__init__.py).
ENGINES = {ENGINE.key: ENGINE}
BOTS_BY_GAME = {ENGINE.key: BOTS}
PRESETS_BY_GAME = {ENGINE.key: PRESETS}
RATINGS_BY_GAME = {ENGINE.key: RATINGS}

__all__ = ["ENGINES", "BOTS_BY_GAME", "PRESETS_BY_GAME", "RATINGS_BY_GAME", "FOCUS_CASES", "FOCUS_OPTIONS",
           "ENGINE", "BOTS", "PRESETS", "RATINGS", "SKILLS"]
