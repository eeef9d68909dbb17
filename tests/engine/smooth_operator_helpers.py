"""Shared helpers for the Smooth Operator engine tests and its golden playthroughs.

Test modules import this file by putting its folder on sys.path (tests/engine has no
__init__.py). `regenerate_goldens()` rewrites tests/golden/smooth_operator_*.json; run it
only on purpose, through `python tests/golden/make_smooth_operator.py`.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from pathlib import Path

from games.engine import make_bot
from games.engine.replay import run_scenario
from games.engine.smooth_operator import ENGINE, rules

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_DIR = ROOT / "tests" / "golden"
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


# ----- golden playthroughs ---------------------------------------------------------------
GOLDEN_GAMES = [
    # (file number, players, bot levels, options, seed, setup, with answers)
    (1, ["Ann", "Ben"], ["expert", "beginner"], {"target": 200}, 11, None, False),
    (2, ["Ann", "Ben", "Cal"], ["player", "expert", "beginner"], {"target": 300}, 23, None, True),
    (3, ["Ann", "Ben", "Cal", "Dan"], ["beginner", "beginner", "player", "expert"], {}, 5, None, False),
    (4, ["Ann", "Ben", "Cal"], ["expert", "player", "player"], {"target": 150}, 7,
     {"order": ["Cal", "Ann", "Ben"],
      "hands": {"Ann": ["/", "/", "/"], "Ben": ["double", "free_choice", "free_turn"]},
      "operator_deck": ["x", "x", "x", "-", "free_choice", "+", "/", "-", "double"]}, False),
    # short number decks: their discard piles are shuffled back in again and again
    (5, ["Ann", "Ben"], ["player", "player"], {"target": 400}, 3,
     {"high_deck": [20, 11, 15], "low_deck": [1, 2, 5, 10]}, True),
]


def _answer(state: dict, action: dict):
    op = action.get("sign") if action["type"] == "special" else action.get("card")
    if op in rules.ARITHMETIC:
        return rules.result(op, state["high"], state["low"])
    return None


def bot_game(players, levels, options, seed, setup=None, with_answers=False) -> dict:
    """Play a seeded game with bots; return the golden record (scenario + every summary)."""
    state = ENGINE.new_game(list(players), options, seed, setup)
    bots = {p: make_bot(GAME, level, seed * 10 + i) for i, (p, level) in enumerate(zip(players, levels))}
    actions, summaries = [], []
    while not state["finished"]:
        player = ENGINE.waiting_for(state)[0]
        action = bots[player].choose(ENGINE.view(state, player))
        if with_answers and len(actions) % 3 == 0:
            answer = _answer(state, action)
            if answer is not None:  # one in four answers is a wrong guess, as a child's might be
                action["answer"] = answer + (1 if len(actions) % 4 == 0 else 0)
        state, _ = ENGINE.apply(state, player, action)
        actions.append({"player": player, **action})
        summaries.append(ENGINE.summary(state))
    sc = scenario(actions, players, setup, options, seed)
    return {"scenario": sc, "initial": ENGINE.summary(ENGINE.new_game(list(players), options, seed, setup)),
            "summaries": summaries}


def golden_path(number: int) -> Path:
    return GOLDEN_DIR / f"{GAME}_{number}.json"


def regenerate_goldens() -> list[Path]:
    written = []
    for number, players, levels, options, seed, setup, answers in GOLDEN_GAMES:
        record = bot_game(players, levels, options, seed, setup, answers)
        path = golden_path(number)
        path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        written.append(path)
    return written
