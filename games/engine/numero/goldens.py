"""Golden playthroughs: full seeded bot games stored with the summary after every action.

    python -m games.engine.numero.goldens [DIRECTORY]     # default tests/golden

rewrites tests/golden/numero_<n>.json. The tests replay each file and compare every
summary exactly, so any change of behaviour shows up as a diff to inspect by hand.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .. import get, make_bot
from . import PRESETS

# (file number, game, players, options, seed, bot levels per seat, what the game must show:
#  a kind of action, or a number of actions at least)
GOLDENS = [
    (1, "numero", ["Ann", "Ben"], PRESETS["level1"]["options"], 101, ["player", "beginner"], None),
    (2, "numero", ["Ann", "Ben", "Cal"], PRESETS["level4"]["options"], 202,
     ["expert", "player", "beginner"], None),
    (3, "numero", ["Ann", "Ben"], PRESETS["level8"]["options"], 303, ["expert", "expert"],
     "challenge"),
    (4, "numero_solitaire", ["Sam"], PRESETS["level7"]["options"], 404, ["expert"], 8),
    (5, "numero_solitaire", ["Sam"], PRESETS["level2"]["options"], 505, ["beginner"], None),
    (6, "numero", ["Ann", "Ben"], PRESETS["level6"]["options"], 606, ["expert", "player"], "wild"),
]


def play(game: str, players: list[str], options: dict, seed: int, levels: list[str],
         max_actions: int = 5000) -> dict:
    engine = get(game)
    bots = {p: make_bot(game, level, seed * 10 + i)
            for i, (p, level) in enumerate(zip(players, levels))}
    state = engine.new_game(players, options, seed)
    actions, summaries = [], []
    while not state["finished"] and len(actions) < max_actions:
        player = engine.waiting_for(state)[0]
        action = bots[player].choose(engine.view(state, player))
        state, _events = engine.apply(state, player, action)
        actions.append({"player": player, **action})
        summaries.append(engine.summary(state))
    return {"game": game, "players": players, "options": options, "seed": seed,
            "bots": levels, "actions": actions, "summaries": summaries}


def regenerate_goldens(directory: str | Path = "tests/golden") -> list[Path]:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for number, game, players, options, seed, levels, wanted in GOLDENS:
        # the first seed from `seed` on whose game shows what is wanted
        while True:
            record = play(game, players, options, seed, levels)
            actions = record["actions"]
            if wanted is None or (len(actions) >= wanted if type(wanted) is int
                                  else any(a["type"] == wanted for a in actions)):
                break
            seed += 1
        path = directory / f"numero_{number}.json"
        path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in regenerate_goldens(*sys.argv[1:2]):
        print(path)
