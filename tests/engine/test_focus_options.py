"""The focus options (the house options of docs/rules-*.md): for every option, the same seed
gives the same deal, the pack is legal, bad values are refused with bad_scenario, the replay
command takes scenarios with the option, and expert self-play gives the focused skill at least
3x the chances per game (games/engine/selfplay.py, FOCUS_CASES).

The games and their facts come from the engine packages: each one with focus options exports
FOCUS_OPTIONS (games/engine/focus.py `FocusOptions`: the option keys, deals that use them,
values they refuse, and what a legal pack of a focused deal is, in its `pack_problems`), so a
new game's focus options are checked here without a line of test code.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import game_keys, get, make_bot, selfplay
from games.engine.add_or_multiply import rules as am_rules
from games.engine.errors import BadScenario
from games.engine.focus import all_focus_options
from games.engine.numero import PRESETS
from games.engine.numero.setup import LEVELS
from games.engine.replay import run_scenario
from tests import toy

ROOT = Path(__file__).resolve().parents[2]

# Every engine package's, and the toy game's (tests/toy/focus.py: a game copied from it is
# checked here too).
FOCUS_OPTIONS = {declared.game: declared for declared in (*all_focus_options(), *toy.FOCUS_OPTIONS)}
ENGINES = {game: toy.ENGINES[game] if game in toy.ENGINES else get(game) for game in FOCUS_OPTIONS}

# (game, players, focus options): every game's deals with its focus options, and its refused values
FOCUSED = [(d.game, n, options) for d in FOCUS_OPTIONS.values() for n, options in d.dealt]
BAD = [(d.game, n, options) for d in FOCUS_OPTIONS.values() for n, options in d.refused]
# The replay command plays the games of games/engine/ (the toy game's package is in tests/).
REPLAYED = [case for case in FOCUSED if case[0] in game_keys()]


def _players(n):
    return ["Ann", "Ben", "Cal", "Dan"][:n]


def _id(case):
    return f"{case[0]}-{json.dumps(case[2], sort_keys=True)}"


@pytest.mark.parametrize("case", FOCUSED, ids=_id)
def test_same_seed_same_deal(case):
    game, n, options = case
    engine = ENGINES[game]
    first = engine.new_game(_players(n), dict(options), seed=11)
    again = engine.new_game(_players(n), json.loads(json.dumps(options)), seed=11)
    assert json.dumps(first, sort_keys=True) == json.dumps(again, sort_keys=True)
    assert json.loads(json.dumps(first)) == first
    assert {k: first["options"][k] for k in options} == options  # the options are kept
    if FOCUS_OPTIONS[game].shuffled:
        other = engine.new_game(_players(n), dict(options), seed=12)
        assert json.dumps(other, sort_keys=True) != json.dumps(first, sort_keys=True)


@pytest.mark.parametrize("case", FOCUSED, ids=_id)
def test_the_pack_is_legal(case):
    game, n, options = case
    engine = ENGINES[game]
    for seed in range(5):
        state = engine.new_game(_players(n), dict(options), seed=seed)
        assert FOCUS_OPTIONS[game].pack_problems(state, state["options"]) == [], (seed, options)


def test_the_whole_range_is_the_standard_hand():
    assert am_rules.number_cards([0, 6]) == list(am_rules.NUMBER_CARDS)


@pytest.mark.parametrize("game", [g for g, d in FOCUS_OPTIONS.items() if d.keys])
def test_no_focus_option_no_change(game):
    """Off by default: the state of a game without them is the one it always was (no new key)."""
    engine = ENGINES[game]
    state = engine.new_game(_players(FOCUS_OPTIONS[game].plain_players), {}, seed=5)
    assert set(state["options"]) == set(engine.OPTIONS) - set(FOCUS_OPTIONS[game].keys)


@pytest.mark.parametrize("case", BAD, ids=_id)
def test_bad_values_are_bad_scenario(case):
    game, n, options = case
    with pytest.raises(BadScenario) as refused:
        ENGINES[game].new_game(_players(n), options, seed=1)
    assert refused.value.message.endswith(".") and "Traceback" not in refused.value.message
    if game not in game_keys():
        return  # (the replay command plays the games of games/engine/ only)
    out, status = run_scenario({"game": game, "players": _players(n), "options": options})
    assert status == 2 and out["error"]["code"] == "bad_scenario" and out["state"] is None


def test_numero_level_is_the_spec_level():
    engine = get("numero")
    for level in LEVELS:
        by_level = engine.new_game(["Ann", "Ben"], {"level": level}, seed=3)
        by_preset = engine.new_game(["Ann", "Ben"], PRESETS[f"level{level}"]["options"], seed=3)
        assert {k: v for k, v in by_level["options"].items() if k != "level"} == by_preset["options"]
        assert by_level["deck"] == by_preset["deck"] and by_level["hands"] == by_preset["hands"]


def test_setups_are_checked_against_the_focused_pack():
    mg = get("multiplication")
    three = {"hands": {"Ann": [56, 56, 56]}}
    mg.new_game(["Ann", "Ben"], {"focus_facts": ["7x8"]}, 0, three)
    with pytest.raises(BadScenario):
        mg.new_game(["Ann", "Ben"], {}, 0, three)
    with pytest.raises(BadScenario):
        mg.new_game(["Ann", "Ben"], {"focus_facts": ["7x8"]}, 0, {"hands": {"Ann": [56] * 4}})
    so = get("smooth_operator")
    with pytest.raises(BadScenario):
        so.new_game(["Ann", "Ben"], {"low_range": [1, 5]}, 0, {"low_deck": [6]})
    so.new_game(["Ann", "Ben"], {"focus_operators": ["/"]}, 0, {"hands": {"Ann": ["/"] * 20}})
    with pytest.raises(BadScenario):
        so.new_game(["Ann", "Ben"], {"focus_operators": ["/"]}, 0, {"hands": {"Ann": ["+"] * 6}})
    nu = get("numero")
    with pytest.raises(BadScenario):
        nu.new_game(["Ann", "Ben"], {"level": 1}, 0, {"hands": {"Ann": ["12g"]}})


def _bot_actions(game, n, options, seed, steps=30):
    engine = get(game)
    players = _players(n)
    bots = {p: make_bot(game, "player", i) for i, p in enumerate(players)}
    state = engine.new_game(players, dict(options), seed)
    actions = []
    while not state["finished"] and len(actions) < steps:
        player = engine.waiting_for(state)[0]
        action = bots[player].choose(engine.view(state, player))
        state, _ = engine.apply(state, player, action)
        actions.append({"player": player, **action})
    return actions, engine.summary(state)


@pytest.mark.parametrize("case", REPLAYED, ids=_id)
def test_the_replay_command_takes_the_option(case):
    game, n, options = case
    actions, summary = _bot_actions(game, n, options, seed=4)
    scenario = {"game": game, "players": _players(n), "options": options, "seed": 4, "actions": actions}
    done = subprocess.run([sys.executable, "-m", "games.engine.replay", "-"], input=json.dumps(scenario),
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    assert out["ok"] and out["applied"] == len(actions)
    assert out["state"] == json.loads(json.dumps(summary))


# ----- self-play: a focused game gives the focused skill >= 3x the chances per game -----------

SELFPLAY_GAMES = 8


@pytest.mark.parametrize("case", [c for c in selfplay.FOCUS_CASES if c.asserted],
                         ids=lambda c: f"{c.game}-{json.dumps(c.focused, sort_keys=True)}")
def test_focused_games_triple_the_chances(case):
    focused = selfplay.chances_per_game(case, case.focused, SELFPLAY_GAMES, seed=0)
    unfocused = selfplay.chances_per_game(case, case.unfocused, SELFPLAY_GAMES, seed=0)
    assert focused >= 1
    assert focused >= 3 * unfocused, (case.skill, focused, unfocused)


def test_every_focus_option_is_measured():
    measured = {(c.game, k) for c in (*selfplay.FOCUS_CASES, *toy.FOCUS_CASES) for k in c.focused}
    for game, declared in FOCUS_OPTIONS.items():
        for key in declared.keys:
            assert (game, key) in measured, key


def test_every_game_measured_in_self_play_declares_its_focus_options():
    assert {c.game for c in selfplay.FOCUS_CASES} <= set(FOCUS_OPTIONS)
