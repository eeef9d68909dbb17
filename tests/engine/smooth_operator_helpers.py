"""Shared helpers for the Smooth Operator engine tests.

Test modules import this file by putting its folder on sys.path (tests/engine has no
__init__.py). The golden playthroughs are written by tests/golden/make.py.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from pathlib import Path

from games.engine.replay import run_scenario
from games.engine.smooth_operator import ENGINE

ROOT = Path(__file__).resolve().parents[2]
GAME = "smooth_operator"

# The seed leaflet's example: order Ann, Ben, Cal; Ben holds x + /, Cal holds - x +; the
# first flip is 12 and 4.
EXAMPLE_SETUP = {
    "order": ["Ann", "Ben", "Cal"],
    "hands": {"Ben": ["x", "+", "/"], "Cal": ["-", "x", "+"]},
    "high_deck": [12, 15, 18],
    "low_deck": [4, 3, 6],
}


def scenario(actions=(), players=("Ann", "Ben", "Cal"), setup=None, options=None, seed=0) -> dict:
    sc = {"game": GAME, "players": list(players), "seed": seed, "actions": list(actions)}
    if setup is not None:
        sc["setup"] = setup
    if options is not None:
        sc["options"] = options
    return sc


def act(player: str, type_: str, **fields) -> dict:
    return {"player": player, "type": type_, **fields}


def replay(*args, **kwargs) -> tuple[dict, int]:
    return run_scenario(scenario(*args, **kwargs))


def new_state(players=("Ann", "Ben", "Cal"), setup=None, options=None, seed=0) -> dict:
    return ENGINE.new_game(list(players), options, seed, setup)


def step(state: dict, player: str, action: dict) -> tuple[dict, list[dict]]:
    return ENGINE.apply(state, player, action)


def card_totals(state: dict) -> tuple[Counter, Counter, Counter]:
    """Where every card is: (operator, high, low) counts over hands, decks, piles, face up."""
    operators = Counter(state["decks"]["operator"]) + Counter(state["discards"]["operator"])
    for hand in state["hands"].values():
        operators.update(hand)
    high = Counter(state["decks"]["high"]) + Counter(state["discards"]["high"])
    low = Counter(state["decks"]["low"]) + Counter(state["discards"]["low"])
    if state["high"] is not None:
        high[state["high"]] += 1
        low[state["low"]] += 1
    return operators, high, low


def random_playthrough(seed: int, players=("A", "B", "C"), target=150, max_steps=2000,
                       setup=None):
    """Yield (state_before, player, action, state_after, events) with random legal moves."""
    rng = random.Random(seed)
    state = new_state(players, setup, {"target": target}, seed)
    for _ in range(max_steps):
        if state["finished"]:
            return
        player = ENGINE.waiting_for(state)[0]
        action = dict(rng.choice(ENGINE.legal_actions(state, player)))
        after, events = step(state, player, action)
        yield state, player, action, after, events
        state = after


def hide_differently(state: dict, viewer: str, rng: random.Random) -> dict:
    """The same game as `viewer` sees it: other hands and the deck order dealt otherwise."""
    other = copy.deepcopy(state)
    others = [p for p in other["order"] if p != viewer]
    pool = other["decks"]["operator"] + [c for p in others for c in other["hands"][p]]
    rng.shuffle(pool)
    for p in others:
        size = len(other["hands"][p])
        other["hands"][p], pool = pool[:size], pool[size:]
    other["decks"]["operator"] = pool
    rng.shuffle(other["decks"]["high"])
    rng.shuffle(other["decks"]["low"])
    return other
