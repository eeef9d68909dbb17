"""Regenerate the Add or Multiply? golden playthroughs (run explicitly, from the repo root):

    .venv/bin/python tests/golden/make_add_or_multiply.py

Each file holds players, options, seed, the bots that chose, the actions and the expected
omniscient summary after every action; tests/engine/test_add_or_multiply_golden.py replays
them. Only regenerate on purpose (a rules change), then inspect the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from games.engine import get, make_bot  # noqa: E402

GAME = "add_or_multiply"
GAMES = [  # (players, options, seed, bot levels by seat)
    (["Brian", "Susie", "Ted"], {}, 1, ["expert", "player", "beginner"]),
    (["Ann", "Ben", "Cal"], {}, 2, ["beginner", "beginner", "beginner"]),
    (["Ann", "Ben", "Cal"], {"rounds": 3}, 3, ["player", "expert", "player"]),
    (["Zoe", "Yan", "Xia"], {}, 4, ["expert", "expert", "beginner"]),
]


def record(players, options, seed, levels) -> dict:
    engine = get(GAME)
    bots = {p: make_bot(GAME, level, seed * 10 + i)
            for i, (p, level) in enumerate(zip(players, levels))}
    state = engine.new_game(players, options, seed)
    record = {"game": GAME, "players": players, "options": options, "seed": seed,
              "bots": levels, "initial": engine.summary(state), "actions": [], "summaries": []}
    while not state["finished"]:
        for player in engine.waiting_for(state):
            action = bots[player].choose(engine.view(state, player))
            state, _ = engine.apply(state, player, action)
            record["actions"].append({"player": player, **action})
            record["summaries"].append(engine.summary(state))
    return record


def regenerate_goldens() -> list[Path]:
    paths = []
    for n, game in enumerate(GAMES, start=1):
        path = HERE / f"{GAME}_{n}.json"
        path.write_text(json.dumps(record(*game), indent=1) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


if __name__ == "__main__":
    for path in regenerate_goldens():
        print(path)
