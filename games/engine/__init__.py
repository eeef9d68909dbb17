"""Numberdeck's game engines: pure Python, no Django, deterministic, JSON states.

    from games.engine import get
    engine = get("smooth_operator")
    state = engine.new_game(["Ann", "Ben"], {"target": 100}, seed=7)
"""

from importlib import import_module

from .core import Engine
from .errors import BadScenario, IllegalMove

# game key -> module that defines ENGINE (an Engine) and BOTS ({level: bot class}).
GAME_MODULES = {
    "smooth_operator": "games.engine.smooth_operator",
    "add_or_multiply": "games.engine.add_or_multiply",
    "numero": "games.engine.numero",
    "numero_solitaire": "games.engine.numero",
    "multiplication": "games.engine.multiplication",
}
GAME_KEYS = tuple(GAME_MODULES)
BOT_LEVELS = ("beginner", "player", "expert")


def _module(key: str):
    try:
        return import_module(GAME_MODULES[key])
    except KeyError:
        raise KeyError(f"unknown game: {key!r}") from None


def get(key: str) -> Engine:
    """The engine for a game key (raises KeyError for an unknown key)."""
    module = _module(key)
    engines = getattr(module, "ENGINES", None)
    return engines[key] if engines else module.ENGINE


def make_bot(key: str, level: str, seed: int = 0):
    """A bot for a game: `bot.choose(view) -> action`. Bots only ever see a view."""
    module = _module(key)
    bots = getattr(module, "BOTS_BY_GAME", {}).get(key) or module.BOTS
    if level not in bots:
        raise KeyError(f"unknown bot level: {level!r}")
    return bots[level](get(key), seed)


__all__ = ["BadScenario", "Engine", "IllegalMove", "GAME_KEYS", "BOT_LEVELS", "get", "make_bot"]
