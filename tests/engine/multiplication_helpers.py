"""Shared helpers for the Multiplication Game engine tests (not a test module)."""

from __future__ import annotations

import random

from add_or_multiply_helpers import run_cli  # noqa: F401  (the generic CLI runner)

from games.engine.replay import run_scenario

GAME = "multiplication"


def discard(player: str, card, a: int, b: int, **extra) -> dict:
    return {"player": player, "type": "discard", "card": card, "declare": [a, b], **extra}


def draw(player: str) -> dict:
    return {"player": player, "type": "draw"}


def scenario(players, actions, setup=None, options=None, seed=0) -> dict:
    data = {"game": GAME, "players": list(players), "seed": seed, "actions": actions}
    if setup is not None:
        data["setup"] = setup
    if options is not None:
        data["options"] = options
    return data


def run(players, actions, setup=None, options=None, seed=0) -> tuple[dict, int]:
    return run_scenario(scenario(players, actions, setup, options, seed))


def random_game(engine, seed: int, players=("Ann", "Ben"), options=None, stop_after=None,
                draw_chance=0.15):
    """Play with random legal actions (drawing now and then); return the decision points
    [(state, player, action)] and the last state."""
    rng = random.Random(seed)
    state = engine.new_game(list(players), options or {}, seed)
    steps = []
    while not state["finished"] and (stop_after is None or len(steps) < stop_after):
        player = engine.waiting_for(state)[0]
        legal = engine.legal_actions(state, player)
        action = legal[-1] if rng.random() < draw_chance else rng.choice(legal)
        steps.append((state, player, action))
        state, _ = engine.apply(state, player, action)
    return steps, state
