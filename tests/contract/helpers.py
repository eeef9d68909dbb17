"""What the contract suite shares: the games it runs over, random play, and the search for two
states that differ only in what one player may not see. Not a test module.

The suite knows no game by name: everything comes from the registry's GameSpecs (engine, bots,
presets). It also runs over the test-only toy game (tests/toy/), which shows that a new game
is covered without touching anything here.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass

from hypothesis import strategies as st

from games import registry
from games.engine.core import SHARED_ERROR_CODES
from games.spec import GameSpec
from tests.toy.adapter import SPEC as TOY_SPEC

# Every game's registered specs, then the toy game (registered only while a test needs it).
CONTRACT_GAMES: list[GameSpec] = [*registry.all_games(), TOY_SPEC]

MAX_STEPS = 5000  # no game here lasts half as long, even played at random


def ids(spec: GameSpec) -> str:
    return spec.key


def known_codes(spec: GameSpec) -> frozenset[str]:
    """The codes the game may refuse with: the shared ones and the game's declared ERROR_CODES."""
    return SHARED_ERROR_CODES | spec.engine.ERROR_CODES


@contextlib.contextmanager
def registered(spec: GameSpec) -> Iterator[GameSpec]:
    """The game in the registry for the duration (the toy game is registered only here)."""
    if registry.get(spec.key) is not None:
        yield spec
        return
    registry.register(spec)
    try:
        yield spec
    finally:
        registry.unregister(spec.key)


def plain(data):
    """JSON data survives a round trip through JSON text unchanged."""
    return json.loads(json.dumps(data))


# ----- random play -------------------------------------------------------------------------
@dataclass(frozen=True)
class Shape:
    """One random game: how many play, which preset (or the defaults), the seed, and how
    often a bot (rather than a random legal move) chooses."""

    players: tuple[str, ...]
    options: dict
    seed: int
    bot_share: float

    def __repr__(self) -> str:  # hypothesis prints it for a failing example
        return (f"Shape(players={list(self.players)}, options={self.options}, seed={self.seed}, "
                f"bot_share={self.bot_share})")


NAMES = ("Ann", "Ben", "Cal", "Dan", "Eve", "Fay", "Gus", "Hal")


def shapes(spec: GameSpec) -> st.SearchStrategy[Shape]:
    engine = spec.engine
    presets = [{}] + [p.options for p in spec.presets]
    return st.builds(
        lambda n, options, seed, share: Shape(NAMES[:n], dict(options), seed, share),
        st.integers(engine.min_players, min(engine.max_players, len(NAMES))),
        st.sampled_from(presets),
        st.integers(0, 10**6),
        st.sampled_from([0.0, 0.3, 1.0]),
    )


@dataclass
class Step:
    before: dict
    player: str
    action: dict
    after: dict
    events: list
    after_text: str  # `after` as JSON text when it was made


def random_play(spec: GameSpec, shape: Shape, max_steps: int | None = None) -> tuple[list[Step], dict]:
    """Play to the end (or `max_steps`): each turn a random waiting player moves, choosing a
    random legal action, or asking their bot (a random level per seat) `bot_share` of the time."""
    engine = spec.engine
    rng = random.Random(shape.seed)
    levels = sorted(spec.bots)
    bots = {p: spec.make_bot(rng.choice(levels), shape.seed * 10 + i) for i, p in enumerate(shape.players)}
    state = engine.new_game(list(shape.players), dict(shape.options), shape.seed)
    steps: list[Step] = []
    limit = MAX_STEPS if max_steps is None else max_steps
    while not state["finished"] and len(steps) < limit:
        player = rng.choice(engine.waiting_for(state))
        if rng.random() < shape.bot_share:
            action = bots[player].choose(plain(engine.view(state, player)))  # plain data only
        else:
            action = rng.choice(engine.legal_actions(state, player))
        after, events = engine.apply(state, player, action)
        steps.append(Step(state, player, action, after, events, json.dumps(after)))
        state = after
    return steps, state


def canonical(data):
    """JSON data with every list in a fixed order, as text: two actions that differ only in
    the order of their parts (the groups of a take) read the same."""
    def sort(value):
        if isinstance(value, dict):
            return {k: sort(v) for k, v in value.items()}
        if isinstance(value, list):
            return sorted((sort(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
        return value
    return json.dumps(sort(data), sort_keys=True)


def listed(action: dict, legal: list[dict]) -> bool:
    """An allowed action is one the game lists, up to the order of its parts; the player key
    and a mental-maths answer are not part of the move."""
    move = {k: v for k, v in action.items() if k not in ("player", "answer")}
    return canonical(move) in {canonical(a) for a in legal}


# ----- states that differ only in what a player may not see ---------------------------------
def _set(data, path, value):
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def _get(data, path):
    for key in path:
        data = data[key]
    return data


@dataclass
class Twin:
    state: dict
    coach_differs: bool  # the teacher's view tells the two apart


def _containers(data, path=()):
    """(path, container) of every dict and list in JSON data."""
    if isinstance(data, (dict, list)):
        yield path, data
        items = data.items() if isinstance(data, dict) else enumerate(data)
        for key, value in items:
            yield from _containers(value, path + (key,))


def _swaps(state: dict, rng: random.Random, tries: int) -> list[tuple]:
    """Ways to change a state: ("reverse", path) of a list, ("swap", path, path) of two
    values of one type, between siblings (a secret choice, a hand) or anywhere (a hand's card
    with the deck's), in a random order."""
    fixed = ("players", "options", "seed")  # known to everyone, or not information at all
    changes: list[tuple] = []
    leaves = []
    for path, container in _containers(state):
        if path and path[0] in fixed:
            continue
        items = container.items() if isinstance(container, dict) else enumerate(container)
        scalars = [(path + (k,), v) for k, v in items
                   if not isinstance(v, (dict, list)) and (path + (k,))[0] not in fixed]
        leaves += scalars
        if isinstance(container, list) and len(container) > 1:
            changes.append(("reverse", path))
        for _ in range(3 if len(scalars) > 1 else 0):
            (pa, a), (pb, b) = rng.sample(scalars, 2)
            if type(a) is type(b) and a != b:
                changes.append(("swap", pa, pb))
    for _ in range(tries if len(leaves) > 1 else 0):
        (pa, a), (pb, b) = rng.sample(leaves, 2)
        if type(a) is type(b) and a != b:
            changes.append(("swap", pa, pb))
    rng.shuffle(changes)
    return changes


def _changed(state: dict, change: tuple) -> dict:
    # a deep copy: an engine's own copy_state may share parts it never changes in place
    twin = copy.deepcopy(state)
    if change[0] == "reverse":
        _set(twin, change[1], list(reversed(_get(twin, change[1]))))
    else:
        a, b = _get(twin, change[1]), _get(twin, change[2])
        _set(twin, change[1], b)
        _set(twin, change[2], a)
    return twin


def hidden_twins(spec: GameSpec, state: dict, viewer: str | None, rng: random.Random,
                 tries: int = 300, enough: int = 4) -> list[Twin]:
    """States made from `state` by swapping two of its values, or reversing one of its lists,
    that `viewer` sees exactly as in `state` (the same view): they differ only in what the
    viewer may not see. The game is not told what is hidden: the search finds it. Stops at
    `enough` twins once one of them changes the coach's view (or when out of ideas)."""
    engine = spec.engine
    seen_view = engine.view(state, viewer)
    seen_coach = engine.coach_view(state)
    twins: list[Twin] = []
    for change in _swaps(state, rng, tries):
        twin = _changed(state, change)
        if twin == state:
            continue
        try:
            if engine.view(twin, viewer) != seen_view:
                continue
            coach_differs = engine.coach_view(twin) != seen_coach
        except Exception:  # noqa: BLE001 - a change the game's own rules never make
            continue
        twins.append(Twin(twin, coach_differs))
        if len(twins) >= enough and any(t.coach_differs for t in twins):
            break
    return twins
