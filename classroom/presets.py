"""Teaching presets an assignment can choose, and what each game allows (players, bots).

Everything here is read from the game's GameSpec (games/registry.py): its presets, its
engine's player counts, its bot levels and whether it has a mental-maths mode. A chosen
preset is checked again by the engine's own `resolve_options` for the table the teacher
picked, so a level the engine would refuse can never be assigned.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _, ngettext

from games import registry
from games.engine import BadScenario
from games.ratings import JUST_RIGHT, JUST_RIGHT_LABEL, LEVEL_LABELS, level_label
from games.spec import GameSpec

# How teachers read the computer players' levels (a game's own level without a label here
# shows its name).
BOT_LEVELS = {**LEVEL_LABELS, JUST_RIGHT: JUST_RIGHT_LABEL}


class PresetError(ValueError):
    """A preset or its options that cannot be used; the message is for a teacher."""


def _spec(game: str) -> GameSpec:
    spec = registry.get(game)
    if spec is None:
        raise PresetError(_("Choose one of the games in the list."))
    return spec


def presets_for(game: str) -> dict[str, dict]:
    """{key: {"label", "options"}} for a game, in the game's order ({} for an unknown game)."""
    spec = registry.get(game)
    if spec is None:
        return {}
    return {p.key: {"label": p.label, "options": dict(p.options)} for p in spec.presets}


def player_counts(game: str) -> tuple[int, int]:
    spec = registry.spec_for(game)
    return spec.min_players, spec.max_players


def is_solo(game: str) -> bool:
    return registry.spec_for(game).is_solo


def bot_count_range(game: str) -> tuple[int, int]:
    """How many computer players can join one student at the table."""
    return registry.spec_for(game).bot_count_range


def bot_levels(game: str) -> dict[str, str]:
    """The game's computer-player levels (easiest first, as the game lists them) and labels."""
    return {level: level_label(level) for level in registry.spec_for(game).bots}


def bot_level_choices(game: str) -> dict[str, str]:
    """What an assignment may set as its computer players' level: the game's levels, and
    "just right" (games/ratings.py: each child's computer players are tuned from their rating
    so they have an even chance of winning) for a game played with others."""
    levels = bot_levels(game)
    if registry.spec_for(game).multiplayer:
        levels[JUST_RIGHT] = BOT_LEVELS[JUST_RIGHT]
    return levels


def supports_mental_math(game: str) -> bool:
    return registry.spec_for(game).mental_math is not None


@dataclass(frozen=True)
class Choice:
    game: str
    preset: str
    label: str
    options: dict


def resolve(*, game: str, preset: str, player_count: int | None = None) -> Choice:
    """The preset's options, checked by the engine for `player_count` players (for every
    count the game allows when the table is not known yet, e.g. classmates only)."""
    spec = _spec(game)
    chosen = spec.preset(preset)
    if chosen is None:
        raise PresetError(_("Choose one of the levels offered for this game."))
    counts = [player_count] if player_count else range(spec.min_players, spec.max_players + 1)
    for count in counts:
        try:
            spec.engine.resolve_options(dict(chosen.options), count)
        except BadScenario as exc:
            raise PresetError(ngettext(
                "This level can't be played with %(count)s player. Choose another level or "
                "another number of computer players.",
                "This level can't be played with %(count)s players. Choose another level or "
                "another number of computer players.", count) % {"count": count}) from exc
    return Choice(game=game, preset=preset, label=chosen.label, options=dict(chosen.options))


def preset_label(game: str, preset: str) -> str:
    """The level's label, or its key for a level the game no longer offers."""
    return presets_for(game).get(preset, {}).get("label", preset)
