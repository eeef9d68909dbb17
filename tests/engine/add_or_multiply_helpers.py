"""Shared helpers for the Add or Multiply? engine tests (not a test module)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from games.engine.replay import run_scenario

REPO = Path(__file__).resolve().parents[2]
GAME = "add_or_multiply"
PLAYERS = ["Brian", "Susie", "Ted"]

# The five rounds printed in seed 002: (player, {opponent: number}, operation).
SEED_ROUNDS = [
    [("Brian", {"Susie": 1, "Ted": 2}, "x"), ("Susie", {"Brian": 0, "Ted": 4}, "+"),
     ("Ted", {"Brian": 3, "Susie": 4}, "+")],
    [("Brian", {"Susie": 4, "Ted": 0}, "+"), ("Susie", {"Brian": 6, "Ted": 2}, "+"),
     ("Ted", {"Brian": 2, "Susie": 0}, "x")],
    [("Brian", {"Susie": 1, "Ted": 6}, "x"), ("Susie", {"Brian": 1, "Ted": 2}, "x"),
     ("Ted", {"Brian": 2, "Susie": 1}, "x")],
    [("Brian", {"Susie": 3, "Ted": 0}, "+"), ("Susie", {"Brian": 5, "Ted": 1}, "x"),
     ("Ted", {"Brian": 6, "Susie": 1}, "+")],
    [("Brian", {"Susie": 5, "Ted": 2}, "+"), ("Susie", {"Brian": 3, "Ted": 0}, "x"),
     ("Ted", {"Brian": 0, "Susie": 5}, "x")],
]


def play(player: str, on: dict, operation: str) -> dict:
    return {"player": player, "type": "play", "on": on, "operation": operation}


def seed_actions(rounds: int = 5) -> list[dict]:
    return [play(*choice) for round_ in SEED_ROUNDS[:rounds] for choice in round_]


def scenario(actions: list, **extra) -> dict:
    return {"game": GAME, "players": list(PLAYERS), "actions": actions, **extra}


def run(actions: list, **extra) -> tuple[dict, int]:
    return run_scenario(scenario(actions, **extra))


def run_cli(data) -> tuple[dict, int]:
    """Run the real replay command on a scenario (dict, or raw text) through stdin."""
    text = data if isinstance(data, str) else json.dumps(data)
    proc = subprocess.run([sys.executable, "-m", "games.engine.replay", "-"], input=text,
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout + proc.stderr
    return json.loads(lines[0]), proc.returncode


def random_game(engine, seed: int, options=None, stop_after=None):
    """Play a game with random legal plays; return the list of (state, player, action)
    decision points and the final state. `stop_after` cuts it short (mid-round states)."""
    rng = random.Random(seed)
    state = engine.new_game(list(PLAYERS), options or {}, seed)
    steps = []
    while not state["finished"] and (stop_after is None or len(steps) < stop_after):
        waiting = engine.waiting_for(state)
        player = rng.choice(waiting)
        action = rng.choice(engine.legal_actions(state, player))
        steps.append((state, player, action))
        state, _ = engine.apply(state, player, action)
    return steps, state
