"""The black-box contract: `python -m games.engine.replay SCENARIO.json` (or `-`).

Reads one scenario, applies its actions in order and prints exactly one JSON object:
`{"ok", "applied", "error", "state"}`. Exit status 0 (all applied), 1 (an illegal action
stopped it; `state` is the state before that action) or 2 (`bad_scenario`).
"""

from __future__ import annotations

import json
import sys

from . import game_keys, get
from .errors import BadScenario, IllegalMove
from .validate import is_int

SCENARIO_KEYS = {"game", "players", "options", "seed", "setup", "actions"}


def run_scenario(scenario) -> tuple[dict, int]:
    """Return (output object, exit status) for a parsed scenario."""
    try:
        engine, state, actions = _set_up(scenario)
    except BadScenario as exc:
        return _result(False, 0, {"index": None, "code": exc.code, "message": exc.message}, None), 2
    applied = 0
    for index, action in enumerate(actions):
        try:
            if type(action) is not dict:
                raise IllegalMove("bad_action", "That move is not written the right way.")
            player = action.get("player")
            if type(player) is not str:
                raise IllegalMove("bad_action", "Every move must say which player makes it.")
            move = {k: v for k, v in action.items() if k != "player"}
            state, _events = engine.apply(state, player, move)
        except IllegalMove as exc:
            error = {"index": index, "code": exc.code, "message": exc.message}
            return _result(False, applied, error, engine.summary(state)), 1
        applied += 1
    return _result(True, applied, None, engine.summary(state)), 0


def _set_up(scenario):
    if type(scenario) is not dict:
        raise BadScenario("The scenario must be a JSON object.")
    unknown = set(scenario) - SCENARIO_KEYS
    if unknown:
        raise BadScenario(f"Unknown scenario key: {sorted(unknown)[0]}.")
    game = scenario.get("game")
    if game not in game_keys():
        raise BadScenario("The scenario names no known game.")
    actions = scenario.get("actions", [])
    if type(actions) is not list:
        raise BadScenario("The actions must be a list.")
    seed = scenario.get("seed", 0)
    if not is_int(seed):
        raise BadScenario("The seed must be a whole number.")
    engine = get(game)
    state = engine.new_game(
        scenario.get("players"), scenario.get("options"), seed, scenario.get("setup")
    )
    return engine, state, actions


def _result(ok, applied, error, state) -> dict:
    return {"ok": ok, "applied": applied, "error": error, "state": state}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m games.engine.replay SCENARIO.json|-", file=sys.stderr)
        result, status = _result(False, 0, _bad("Give one scenario file, or - for standard input."), None), 2
    else:
        try:
            text = sys.stdin.read() if argv[0] == "-" else open(argv[0], encoding="utf-8").read()
            scenario = json.loads(text)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            result, status = _result(False, 0, _bad(f"The scenario could not be read: {exc}."), None), 2
        else:
            result, status = run_scenario(scenario)
    sys.stdout.write(json.dumps(result) + "\n")
    return status


def _bad(message: str) -> dict:
    return {"index": None, "code": BadScenario.code, "message": message}


if __name__ == "__main__":
    sys.exit(main())
