"""The plug-in contract of a game on the Django side: `GameSpec` and its hooks.

Each game's adapter (games/adapters/<game>.py) builds one GameSpec; games/registry.py lists
them. The hooks are pure functions of a player's view (or of plain data the generic code
loads, such as `SeatMove`s), so an adapter never queries the database and never sees
another player's hidden cards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, ngettext

from games.engine import Engine
from games.engine.bots import BotRatings, is_level, make_level_bot
from games.engine.skills import GameSkills
from games.words import Spoken


@dataclass(frozen=True)
class Preset:
    """A teaching preset a teacher picks in the assignment form."""

    key: str
    label: str
    options: dict


@dataclass(frozen=True)
class SeatMove:
    """One of the viewer's own recorded attempts, for hooks that look back at their play."""

    accepted: bool
    error_code: str
    analysis: dict
    answer: int | None = None


class BadSelection(ValueError):
    """A selection query the page never sends; `str()` is a plain sentence for the child."""


@dataclass(frozen=True)
class SelectionHook:
    """An optional step-by-step selection on the server (Numero: a hand card, then centre
    cards). The generic view `games:selection` parses the query, renders `template` with
    `context(view, parsed)` for the player's own view, and changes nothing; the move itself
    still goes over the socket through the move service."""

    parse: Callable[[Mapping[str, str]], Any]  # raises BadSelection
    context: Callable[[dict, Any], dict]       # (own view, parsed) -> template context
    template: str                              # the play area's template
    empty: Any = None                          # the parsed value of "nothing picked yet"


@dataclass(frozen=True)
class MentalMathHook:
    """An optional mental-maths mode, switched on per assignment: the player types the
    result with the move (`answer`), and sees how their last answer went."""

    # (own view, the player's last accepted move or None) -> extra board context
    context: Callable[[dict, SeatMove | None], dict]


def _your_turn(view: dict) -> str:
    return gettext("Your turn.")


def _no_board_context(view: dict) -> dict:
    return {}


@dataclass(frozen=True)
class GameSpec:
    key: str
    pitch: str                    # one line for menus (the home page, the student's games)
    engine: Engine
    bots: Mapping[str, type]      # bot level -> bot class (constructed with (engine, seed))
    presets: tuple[Preset, ...]
    free_play_bots: int           # computer opponents in a free-play game
    board_template: str           # included by games/_table.html and games/replay.html
    name: str = ""                # its menu name; by default the engine's `title`
    scripts: tuple[str, ...] = ()  # static JS the table page loads, e.g. ("js/<game>.js",)
    # Static CSS of its board, e.g. ("css/games/<game>.css",): the base layout links them on
    # every page that shows the board (a page whose context holds the game's `spec`).
    stylesheets: tuple[str, ...] = ()
    # Its bots' calibrated ratings, kept beside its bots (games/engine/bots.py BotRatings);
    # None: the generic figures of games/ratings.py.
    ratings: BotRatings | None = None
    # Where keyboard focus goes when a swap took away the focused control (it was played, or
    # is now disabled): CSS selectors, the first that matches wins (static/js/app.js reads
    # them from the table page's data-focus-next; the pushes do not carry them).
    focus_next: tuple[str, ...] = ()
    # Options of a game that no assignment sets (free play, tables with classmates): by
    # default the engine's own; a game whose defaults could end before everyone has played
    # names safer ones.
    free_play_options: Mapping[str, Any] = field(default_factory=dict)
    your_turn: Callable[[dict], str] = _your_turn             # status line on the player's turn
    board_context: Callable[[dict], dict] = _no_board_context  # extra board template values
    selection: SelectionHook | None = None
    mental_math: MentalMathHook | None = None
    skills: GameSkills | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # (`name` may be a lazy translation: only a plain empty string means "not given".)
        if isinstance(self.name, str) and not self.name:  # the engine's title, not typed twice
            object.__setattr__(self, "name", self.engine.title)

    @property
    def min_players(self) -> int:
        return self.engine.min_players

    @property
    def max_players(self) -> int:
        return self.engine.max_players

    @property
    def is_solo(self) -> bool:
        return self.max_players == 1

    @property
    def players_label(self) -> str:
        low, high = self.min_players, self.max_players
        if low == high:
            return ngettext("%(n)s player", "%(n)s players", low) % {"n": low}
        return gettext("%(low)s-%(high)s players") % {"low": low, "high": high}

    @property
    def bot_count_range(self) -> tuple[int, int]:
        """How many computer players can join one student at the table."""
        return max(self.min_players - 1, 0), self.max_players - 1

    @property
    def multiplayer(self) -> bool:
        return self.max_players > 1

    def preset(self, key: str) -> Preset | None:
        return next((p for p in self.presets if p.key == key), None)

    def make_bot(self, level: str, seed: int = 0):
        """A bot for this game: `bot.choose(view) -> action`. Bots only ever see a view.
        `level` is one of `bots`, or a mixed bot "mix:<p>" (games/engine/bots.py: the
        expert's move with probability p, else the beginner's; below 0 the starter's with
        probability -p, else the beginner's; "just right" opponents)."""
        return make_level_bot(self.bots, self.engine, level, seed)

    def knows_bot_level(self, level: str) -> bool:
        """A level `make_bot` can build: one of `bots`, or a mix (not for one-player games)."""
        return level in self.bots or (self.multiplayer and is_level(self.bots, level))


def presets_from(table: Mapping[str, Mapping]) -> tuple[Preset, ...]:
    """An engine package's PRESETS ({key: {"label", "options"}}) as Presets."""
    return tuple(Preset(key, Spoken(p["label"]), dict(p["options"])) for key, p in table.items())
