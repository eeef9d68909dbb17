"""The replay contract with the focus options (the house options of docs/rules-*.md): a
game played to the end with a focus option, random legal moves and bots mixed, is the same
game from the same seed; replaying its recorded actions through the replay command from the
seed gives the same final summary; every state is plain JSON; every move was a listed one."""

from __future__ import annotations

import json

import pytest

from games import registry
from games.engine.replay import run_scenario
from tests.contract.helpers import Shape, listed, random_play
from tests.engine.test_focus_options import REPLAYED

NAMES = ("Ann", "Ben", "Cal", "Dan")


@pytest.mark.parametrize("case", REPLAYED, ids=lambda c: f"{c[0]}-{json.dumps(c[2], sort_keys=True)}")
@pytest.mark.parametrize("seed", [1, 2])
def test_focused_games_replay_exactly(case, seed):
    game, n, options = case
    spec = registry.spec_for(game)
    engine = spec.engine
    shape = Shape(NAMES[:n], dict(options), seed, 0.5)
    steps, final = random_play(spec, shape)
    again, final_again = random_play(spec, shape)
    assert final["finished"] and final == final_again
    assert [(s.player, s.action) for s in steps] == [(s.player, s.action) for s in again]
    for step in steps:
        assert json.loads(step.after_text) == step.after
        assert listed(step.action, engine.legal_actions(step.before, step.player))
    scenario = {"game": game, "players": list(shape.players), "options": options, "seed": seed,
                "actions": [{"player": s.player, **s.action} for s in steps]}
    out, status = run_scenario(json.loads(json.dumps(scenario)))
    assert status == 0 and out["ok"] and out["applied"] == len(steps)
    assert out["state"] == json.loads(json.dumps(engine.summary(final)))
