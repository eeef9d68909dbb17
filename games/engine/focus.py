"""A focus case: how `python -m games.engine.selfplay --focus` measures one focus option.

The focus options are house options (docs/rules-*.md) that deal a game giving one skill more
chances. Each engine package that has them exports `FOCUS_CASES` (its `focus.py`): for each,
the options of the focused game and of the game it is compared with, and how to count the
skill's chances in expert self-play: per decision (`count`: the state before it, the player,
the action) or per finished game (`at_end`). Counters read the skill analysis the engine
records (`engine.analyse`) wherever it has the fact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class FocusCase:
    game: str
    option: str                 # the focus option measured
    skill: str                  # what counts as a chance, in words
    focused: dict               # options of the focused game
    unfocused: dict = field(default_factory=dict)   # options of the game it is compared with
    count: Callable | None = None                   # per decision
    at_end: Callable | None = None                  # per finished game
    players: int = 2
    asserted: bool = True       # the 3x claim is made (and tested) for this case
