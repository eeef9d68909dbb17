"""A focus case: how `python -m games.engine.selfplay --focus` measures one focus option.

The focus options are house options (docs/rules-*.md) that deal a game giving one skill more
chances. Each engine package that has them exports `FOCUS_CASES` (its `focus.py`): for each,
the options of the focused game and of the game it is compared with, and how to count the
skill's chances in expert self-play: per decision (`count`: the state before it, the player,
the action) or per finished game (`at_end`). Counters read the skill analysis the engine
records (`engine.analyse`) wherever it has the fact.

Each such package also exports `FOCUS_OPTIONS`: per game, its focus options as the generic
checks see them (`FocusOptions`; tests/engine/test_focus_options.py runs them for every
package, so a new game's focus options are checked without a line of test code).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

from . import get, make_bot, packages


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


def self_play(game: str, options: dict, players: int, games: int, seed: int = 0,
              level: str = "expert") -> Iterator[tuple]:
    """Seeded self-play at one level: (engine, state, player, action) before every decision
    is applied, and (engine, final state, None, None) at the end of each game. The seeds are
    those `selfplay --focus` has always used, so its figures do not move."""
    engine = get(game)
    names = [f"P{i + 1}" for i in range(players)]
    for g in range(games):
        bots = {p: make_bot(game, level, seed * 100_003 + g * 31 + i) for i, p in enumerate(names)}
        state = engine.new_game(names, dict(options), seed * 1_000_003 + g)
        steps = 0
        while not state["finished"] and steps < 100_000:
            player = engine.waiting_for(state)[0]
            action = bots[player].choose(engine.view(state, player))
            yield engine, state, player, action
            state, _ = engine.apply(state, player, action)
            steps += 1
        yield engine, state, None, None


@dataclass(frozen=True)
class FocusOptions:
    """A game's focus options, declared beside its cases: which option keys they are, deals
    that use them and values they refuse, and what a legal pack of a focused deal is."""

    game: str
    keys: tuple[str, ...]                  # its focus options: absent from a plain game's options
    dealt: tuple[tuple[int, dict], ...]    # (players, options): deals with focus options
    refused: tuple[tuple[int, dict], ...]  # (players, options): values refused with bad_scenario
    # What is wrong with a deal's pack, in words (an empty list: the pack is legal): every card
    # placed anywhere at the start of the game, for the deal's resolved options.
    pack_problems: Callable[[dict, dict], list[str]]
    plain_players: int = 2                 # players of a game dealt without them
    shuffled: bool = True                  # another seed deals another game


class PackCheck:
    """Collects what is wrong with a pack, for `FocusOptions.pack_problems`."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def expect(self, holds: bool, problem: str) -> None:
        if not holds:
            self.problems.append(problem)


def all_focus_options() -> tuple[FocusOptions, ...]:
    """Every engine package's FOCUS_OPTIONS, each package once, in the packages' order."""
    seen, found = set(), []
    for package in packages().values():
        if id(package) not in seen:
            seen.add(id(package))
            found.extend(getattr(package, "FOCUS_OPTIONS", ()))
    return tuple(found)
