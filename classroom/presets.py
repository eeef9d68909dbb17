"""Teaching presets an assignment can choose, and what each game allows (players, bots).

Each engine package exports `PRESETS = {key: {"label", "options"}}`. Engines are still being
written, so this module also holds presets taken from the spec (/work/shared/spec/*.md) and
uses them for any game whose package does not export PRESETS yet. When an engine can be
imported, preset options are checked with its own `resolve_options`, so a preset that the
engine would refuse can never be assigned.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from games import engine as engines
from games.catalogue import GAMES_BY_KEY

BOT_LEVELS = {"beginner": "Beginner (easy)", "player": "Player (medium)", "expert": "Expert (hard)"}

# Player counts from the spec, used while an engine cannot be imported.
SPEC_PLAYER_COUNTS = {
    "smooth_operator": (2, 4),
    "add_or_multiply": (3, 3),
    "numero": (2, 3),
    "numero_solitaire": (1, 1),
    "multiplication": (2, 6),
}

_ALL_WILDS = ["subtract", "multiply", "divide", "fraction", "power"]
# numero.md, "Suggested teaching levels".
_NUMERO_LEVELS = [
    ("Numbers 1-10", {"max_number": 10}),
    ("Numbers 1-15", {"max_number": 15}),
    ("Numbers 1-15 with subtract cards", {"wilds": ["subtract"]}),
    ("Adds multiply and divide cards", {"wilds": ["subtract", "multiply", "divide"]}),
    ("Adds fraction cards", {"wilds": ["subtract", "multiply", "divide", "fraction"]}),
    ("Adds powers and roots", {"wilds": _ALL_WILDS}),
    ("All cards, scoring points", {"wilds": _ALL_WILDS, "scoring": True}),
    ("All cards, scoring, with challenges", {"wilds": _ALL_WILDS, "scoring": True, "challenges": True}),
]


def _numero_levels(last: int) -> dict:
    return {
        f"level-{n}": {"label": f"Level {n}: {label}", "options": dict(options)}
        for n, (label, options) in enumerate(_NUMERO_LEVELS[:last], start=1)
    }


SPEC_PRESETS: dict[str, dict[str, dict]] = {
    "smooth_operator": {
        "quick": {"label": "Quick game (first to 100 points)", "options": {"target": 100}},
        "short": {"label": "Short game (first to 250 points)", "options": {"target": 250}},
        "standard": {"label": "Standard game (first to 500 points)", "options": {"target": 500}},
        "long": {"label": "Long game (first to 1000 points)", "options": {"target": 1000}},
    },
    "add_or_multiply": {
        "classic": {"label": "Classic: five rounds", "options": {"rounds": 5}},
        "short": {"label": "Short game: three rounds", "options": {"rounds": 3}},
        "taster": {"label": "Taster: one round", "options": {"rounds": 1}},
    },
    "numero": _numero_levels(8),
    # Solitaire has no challenges (numero.md: "`challenges` must be false").
    "numero_solitaire": _numero_levels(7),
    "multiplication": {
        "standard": {"label": "Standard: no free cards", "options": {"free_cards": 0}},
        "one-free": {"label": "One free card (a helping hand)", "options": {"free_cards": 1}},
        "two-free": {"label": "Two free cards (easiest)", "options": {"free_cards": 2}},
        "short": {"label": "Short game: 5 cards each", "options": {"hand_size": 5}},
        "long": {"label": "Long game: 10 cards each", "options": {"hand_size": 10}},
    },
}


class PresetError(ValueError):
    """A preset or its options that cannot be used; the message is for a teacher."""


def load_engine(game: str):
    """The game's engine, or None while its package cannot be imported yet."""
    try:
        return engines.get(game)
    except Exception:  # noqa: BLE001 - a half-written engine package may fail in any way
        return None


def _engine_presets(game: str) -> dict | None:
    try:
        module = import_module(engines.GAME_MODULES[game])
    except Exception:  # noqa: BLE001 - see load_engine
        return None
    # A package shared by two games (Numero) may key its presets by game, as it does its bots.
    presets = getattr(module, "PRESETS_BY_GAME", {}).get(game) or getattr(module, "PRESETS", None)
    if isinstance(presets, dict) and isinstance(presets.get(game), dict) and "label" not in presets[game]:
        presets = presets[game]
    return presets if isinstance(presets, dict) and presets else None


def _works_with_engine(game: str, options: dict) -> bool:
    eng = load_engine(game)
    if eng is None:
        return True
    try:
        eng.resolve_options(dict(options), eng.min_players)
    except Exception:  # noqa: BLE001 - BadScenario, or a bug in a half-written engine
        return False
    return True


def presets_for(game: str) -> dict[str, dict]:
    """{key: {"label", "options"}} for a game: the engine's own when it exports them, and
    only those the engine accepts (a shared list may hold levels one of its games refuses)."""
    presets = _engine_presets(game) or SPEC_PRESETS.get(game, {})
    return {key: p for key, p in presets.items() if _works_with_engine(game, p["options"])}


def player_counts(game: str) -> tuple[int, int]:
    eng = load_engine(game)
    if eng is not None:
        return eng.min_players, eng.max_players
    return SPEC_PLAYER_COUNTS[game]


def is_solo(game: str) -> bool:
    return player_counts(game)[1] == 1


def bot_count_range(game: str) -> tuple[int, int]:
    """How many computer players can join one student at the table."""
    low, high = player_counts(game)
    return max(low - 1, 0), high - 1


def supports_mental_math(game: str) -> bool:
    return game == "smooth_operator"


@dataclass(frozen=True)
class Choice:
    game: str
    preset: str
    label: str
    options: dict


def resolve(*, game: str, preset: str, player_count: int | None = None) -> Choice:
    """The preset's options, checked by the engine when it can be imported."""
    if game not in GAMES_BY_KEY:
        raise PresetError("Choose one of the games in the list.")
    presets = presets_for(game)
    if preset not in presets:
        raise PresetError("Choose one of the levels offered for this game.")
    options = dict(presets[preset]["options"])
    eng = load_engine(game)
    if eng is not None:
        count = player_count or eng.min_players
        try:
            eng.resolve_options(options, count)
        except engines.BadScenario as exc:
            raise PresetError(f"This level does not work for this game: {exc}") from exc
    return Choice(game=game, preset=preset, label=presets[preset]["label"], options=options)


def preset_label(game: str, preset: str) -> str:
    return presets_for(game).get(preset, {}).get("label", preset)
