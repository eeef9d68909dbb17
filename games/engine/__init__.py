"""Numberdeck's game engines: pure Python, no Django, deterministic, JSON states.

    from games.engine import game_keys, get
    engine = get(key)           # a game key: one of game_keys()
    state = engine.new_game(["Ann", "Ben"], options, seed=7)   # options: {} for the defaults
"""

import pkgutil
from functools import cache
from importlib import import_module

from .bots import make_level_bot
from .core import Engine
from .errors import BadScenario, IllegalMove

BOT_LEVELS = ("starter", "beginner", "player", "expert")  # easiest first


@cache
def packages() -> dict:
    """game key -> the engine package that plays it, found by looking: every sub-package of
    games.engine that exports ENGINES. A package exports, keyed by game (it may play several:
    Numero and its Solitaire), ENGINES ({key: Engine}), BOTS_BY_GAME ({key: {level: bot
    class}}) and PRESETS_BY_GAME ({key: {preset: {"label", "options"}}}). So adding an engine
    package is all the pure tools (replay, selfplay) need; the Django side asks
    games.registry, whose adapters read the same exports."""
    found = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.ispkg:
            package = import_module(f"{__name__}.{info.name}")
            for key in getattr(package, "ENGINES", {}):
                found[key] = package
    return found


def game_keys() -> tuple[str, ...]:
    return tuple(packages())


def _package(key: str):
    try:
        return packages()[key]
    except KeyError:
        raise KeyError(f"unknown game: {key!r}") from None


def get(key: str) -> Engine:
    """The engine for a game key (raises KeyError for an unknown key)."""
    return _package(key).ENGINES[key]


def make_bot(key: str, level: str, seed: int = 0):
    """A bot for a game: `bot.choose(view) -> action`. Bots only ever see a view.
    A level is one of the game's own (BOT_LEVELS) or a mixed bot "mix:<p>" (bots.py)."""
    return make_level_bot(_package(key).BOTS_BY_GAME[key], get(key), level, seed)


__all__ = ["BadScenario", "Engine", "IllegalMove", "BOT_LEVELS", "game_keys", "get", "make_bot"]
