"""The games Numberdeck offers: the only list of them.

Everything on the Django side asks this registry about a game (its name, player counts,
presets, bots and their ratings, board template and stylesheets, table hooks, skills); nothing
else names a game key (tests/contract/test_games_stay_in_their_homes.py). A game is added by
writing its engine package (games/engine/<game>/), its adapter (games/adapters/<game>.py,
which builds its GameSpec: games/spec.py), its board template(s)
(templates/games/boards/<game>.html), its stylesheet (static/css/games/<game>.css), one
line in `GAMES` below and its words' translations (games/locale/). docs/engine.md, "Adding a
game", lists every step, starting from a copy of the test-only example game in tests/.
"""

from __future__ import annotations

from collections.abc import Iterator

from games.adapters import add_or_multiply, multiplication, numero, smooth_operator
from games.engine.skills import Measure
from games.spec import GameSpec

# The games, in menu order: one line per game.
GAMES: list[GameSpec] = [
    smooth_operator.SPEC,
    add_or_multiply.SPEC,
    numero.SPEC,
    numero.SOLITAIRE_SPEC,
    multiplication.SPEC,
]


def all_games() -> list[GameSpec]:
    return list(GAMES)


def get(key: str) -> GameSpec | None:
    """The game with this key, or None (a key from a URL or a form may be anything)."""
    return next((g for g in GAMES if g.key == key), None)


def spec_for(key: str) -> GameSpec:
    """The game with this key; a stored game's key is always registered (KeyError if not)."""
    spec = get(key)
    if spec is None:
        raise KeyError(f"unknown game: {key!r}")
    return spec


def game_name(key: str) -> str:
    """The game's menu name in the reader's language; an unregistered key (a game that was
    once offered, still named by old records) is shown as it is."""
    spec = get(key)
    return str(spec.name) if spec else key


def register(spec: GameSpec) -> None:
    """Add a game at run time (tests register a game of their own this way)."""
    if get(spec.key) is not None:
        raise ValueError(f"a game with the key {spec.key!r} is registered already")
    GAMES.append(spec)


def unregister(key: str) -> None:
    GAMES[:] = [g for g in GAMES if g.key != key]


def measures() -> Iterator[Measure]:
    """Every registered game's skill measures, once each (Numero and its Solitaire share)."""
    seen: set[str] = set()
    for spec in GAMES:
        for m in spec.skills.measures if spec.skills else ():
            if m.id not in seen:
                seen.add(m.id)
                yield m


__all__ = ["GAMES", "all_games", "game_name", "get", "measures", "register", "spec_for", "unregister"]
