"""The engine package as a whole: pure (no Django), and the replay command's envelope."""

import json
import subprocess
import sys
from pathlib import Path

from games import engine, registry
from games.engine.replay import run_scenario

ROOT = Path(__file__).resolve().parents[2]


def test_importing_every_engine_imports_no_django():
    code = (
        "import sys, games.engine as e\n"
        "for key in e.game_keys():\n"
        "    e.get(key)\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def replay_cli(payload: str, *args: str):
    return subprocess.run([sys.executable, "-m", "games.engine.replay", *(args or ("-",))],
                          cwd=ROOT, input=payload, capture_output=True, text=True)


def test_unreadable_scenario_is_bad_scenario_with_exit_2():
    result = replay_cli("{not json")
    assert result.returncode == 2
    out = json.loads(result.stdout)
    assert out["ok"] is False and out["state"] is None
    assert out["error"]["code"] == "bad_scenario" and out["error"]["index"] is None


def test_missing_file_is_bad_scenario():
    result = replay_cli("", "/no/such/file.json")
    assert result.returncode == 2 and json.loads(result.stdout)["error"]["code"] == "bad_scenario"


def test_unknown_game_and_unknown_keys_are_bad_scenarios():
    for scenario in ({"game": "chess", "players": ["A", "B"]},
                     {"game": "multiplication", "players": ["A", "B"], "colour": "red"},
                     {"game": "multiplication", "players": ["A", "A"]},
                     {"game": "multiplication", "players": ["A", ""]},
                     {"game": "multiplication", "players": ["A", "B"], "seed": True},
                     {"game": "multiplication", "players": ["A", "B"], "options": {"speed": 1}},
                     {"game": "multiplication", "players": ["A", "B"], "actions": {}},
                     []):
        out, status = run_scenario(scenario)
        assert status == 2 and out["error"]["code"] == "bad_scenario", scenario
        assert out["state"] is None and out["applied"] == 0


def test_action_without_a_player_is_bad_action_at_its_index():
    out, status = run_scenario({"game": "multiplication", "players": ["A", "B"],
                                "actions": [{"type": "draw"}]})
    assert status == 1 and out["error"]["index"] == 0 and out["error"]["code"] == "bad_action"
    assert out["state"]["game"] == "multiplication"


def test_cli_prints_exactly_one_json_object_and_exit_0():
    result = replay_cli(json.dumps({"game": "multiplication", "players": ["A", "B"],
                                    "actions": [{"player": "A", "type": "draw"}]}))
    assert result.returncode == 0
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    out = json.loads(lines[0])
    assert out["ok"] is True and out["applied"] == 1 and out["error"] is None
    assert out["state"]["waiting_for"] == ["B"]


def test_the_pure_tools_find_every_engine_package_by_themselves():


    # No list of games in the engine package: adding a package is enough for replay/selfplay.
    assert set(engine.game_keys()) == {spec.key for spec in registry.all_games()}
    for key in engine.game_keys():
        assert engine.get(key).key == key
