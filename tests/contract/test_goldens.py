"""Every golden playthrough of every game (tests/golden/*.json, written by tests/golden/make.py)
replays exactly: the game's summary after every action is the one stored."""

import copy
import json
from pathlib import Path

import pytest

from games import registry
from games.engine.replay import run_scenario
from tests.golden import make

GOLDEN_DIR = Path(make.__file__).resolve().parent
GOLDEN_FILES = sorted(GOLDEN_DIR.glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.name)
def test_golden_playthrough_replays_exactly(path):
    golden = make.read(path)
    engine = registry.spec_for(golden["game"]).engine
    state = engine.new_game(golden["players"], golden["options"], golden["seed"],
                            copy.deepcopy(golden["setup"]))
    if golden["initial"] is not None:
        assert engine.summary(state) == golden["initial"]
    assert golden["actions"] and len(golden["actions"]) == len(golden["summaries"])
    for i, (action, expected) in enumerate(zip(golden["actions"], golden["summaries"])):
        move = {k: v for k, v in action.items() if k != "player"}
        state, _events = engine.apply(state, action["player"], move)
        assert engine.summary(state) == expected, f"the summary after action {i} changed"
    assert state["finished"]
    # and through the replay command, the engines' black-box contract
    scenario = {k: golden[k] for k in ("game", "players", "options", "seed", "actions")}
    if golden["setup"] is not None:
        scenario["setup"] = golden["setup"]
    out, status = run_scenario(json.loads(json.dumps(scenario)))
    assert status == 0 and out["state"] == golden["summaries"][-1]


def test_the_generator_writes_every_golden_and_only_those():
    assert sorted(g.file for g in make.GOLDENS) == [p.name for p in GOLDEN_FILES]
    # Each file is named after the game it holds and numbered from 1, so a game's goldens are
    # found by its key (numero_solitaire_2.json is a Numero Solitaire game, not a Numero one).
    for key in {g.game for g in make.GOLDENS}:
        files = [g.file for g in make.GOLDENS if g.game == key]
        assert files == [f"{key}_{n}.json" for n in range(1, len(files) + 1)]


@pytest.mark.parametrize("key", [spec.key for spec in registry.all_games()])
def test_every_registered_game_has_golden_playthroughs(key):
    assert any(g.game == key for g in make.GOLDENS), f"add {key}'s goldens to tests/golden/make.py"
