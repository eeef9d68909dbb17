"""The focus options (the house options of docs/rules-*.md): for every option, the same seed
gives the same deal, the pack is legal, bad values are refused with bad_scenario, the replay
command takes scenarios with the option, and expert self-play gives the focused skill at least
3x the chances per game (games/engine/selfplay.py, FOCUS_CASES).

What "legal pack" checks, per game (every card placed anywhere at the start of the game):
- The Multiplication Game: every card is a product card or "free"; every product card is there
  at least once (the standard pack) and at most FOCUS_COPIES (3) times; exactly the focused
  cards (products of the focused facts and tables) are there 3 times; free cards as the option.
- Smooth Operator: every card is a game card; the operator cards are 45 of each focused sign,
  5 of each other sign, 4 of each special; each number card of the ranges 5 times, none outside.
- Numero: every card exists once and is in the spec's pack of the level/options (cards.pack).
- Add or Multiply?: each hand holds ten number cards of the range (values 0-6, every value of
  the range, at most ceil(10 / width) of each) and the six operation cards.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from games.engine import get, make_bot, selfplay
from games.engine.add_or_multiply import rules as am_rules
from games.engine.errors import BadScenario
from games.engine.multiplication import rules as mg_rules
from games.engine.numero import PRESETS
from games.engine.numero import cards as nu_cards
from games.engine.numero.setup import LEVELS
from games.engine.replay import run_scenario
from games.engine.smooth_operator import rules as so_rules

ROOT = Path(__file__).resolve().parents[2]

# (game, players, focus options)
FOCUSED = [
    ("multiplication", 2, {"focus_facts": ["7x8", "6x9"]}),
    ("multiplication", 3, {"focus_tables": [7, 8]}),
    ("multiplication", 4, {"focus_facts": ["3x4"], "focus_tables": [9], "free_cards": 2}),
    ("smooth_operator", 3, {"focus_operators": ["/", "-"]}),
    ("smooth_operator", 2, {"focus_operators": ["/"], "low_range": [1, 5]}),
    ("smooth_operator", 4, {"low_range": [2, 4], "high_range": [11, 12]}),
    ("numero", 2, {"level": 4}),
    ("numero", 3, {"level": 6, "wilds": ["divide"]}),
    ("numero", 2, {"level": 1, "wilds": ["subtract"]}),
    ("numero_solitaire", 1, {"level": 5}),
    ("add_or_multiply", 3, {"number_range": [3, 6]}),
    ("add_or_multiply", 3, {"number_range": [0, 2], "rounds": 3}),
]

BAD = [
    ("multiplication", 2, {"focus_facts": ["8x7"]}),       # written larger first
    ("multiplication", 2, {"focus_facts": ["7x11"]}),
    ("multiplication", 2, {"focus_facts": []}),
    ("multiplication", 2, {"focus_facts": "7x8"}),
    ("multiplication", 2, {"focus_facts": ["7x8", "7x8"]}),
    ("multiplication", 2, {"focus_facts": [56]}),
    ("multiplication", 2, {"focus_tables": [0]}),
    ("multiplication", 2, {"focus_tables": [True]}),
    ("multiplication", 2, {"focus_tables": [1, 2, 3, 4]}),
    ("multiplication", 2, {"focus_tables": None}),
    ("smooth_operator", 2, {"focus_operators": ["%"]}),
    ("smooth_operator", 2, {"focus_operators": ["double"]}),
    ("smooth_operator", 2, {"focus_operators": ["+", "-", "x", "/"]}),
    ("smooth_operator", 2, {"focus_operators": ["/", "/"]}),
    ("smooth_operator", 2, {"focus_operators": "/"}),
    ("smooth_operator", 2, {"low_range": [0, 5]}),
    ("smooth_operator", 2, {"low_range": [5, 2]}),
    ("smooth_operator", 2, {"low_range": [1, 11]}),
    ("smooth_operator", 2, {"low_range": [1]}),
    ("smooth_operator", 2, {"high_range": [10, 20]}),
    ("smooth_operator", 2, {"high_range": [11.0, 12]}),
    ("numero", 2, {"level": 0}),
    ("numero", 2, {"level": 9}),
    ("numero", 2, {"level": "4"}),
    ("numero", 2, {"level": True}),
    ("numero", 2, {"level": 8, "scoring": False}),
    ("numero", 2, {"level": 4, "wilds": ["divide", "modulo"]}),
    ("numero_solitaire", 1, {"level": 8}),
    ("add_or_multiply", 3, {"number_range": [3, 3]}),
    ("add_or_multiply", 3, {"number_range": [4, 2]}),
    ("add_or_multiply", 3, {"number_range": [0, 7]}),
    ("add_or_multiply", 3, {"number_range": [-1, 2]}),
    ("add_or_multiply", 3, {"number_range": [1, False]}),
    ("add_or_multiply", 3, {"number_range": {"low": 1, "high": 3}}),
]


def _players(n):
    return ["Ann", "Ben", "Cal", "Dan"][:n]


def _id(case):
    return f"{case[0]}-{json.dumps(case[2], sort_keys=True)}"


@pytest.mark.parametrize("case", FOCUSED, ids=_id)
def test_same_seed_same_deal(case):
    game, n, options = case
    engine = get(game)
    first = engine.new_game(_players(n), dict(options), seed=11)
    again = engine.new_game(_players(n), json.loads(json.dumps(options)), seed=11)
    assert json.dumps(first, sort_keys=True) == json.dumps(again, sort_keys=True)
    assert json.loads(json.dumps(first)) == first
    assert {k: first["options"][k] for k in options} == options  # the options are kept
    if game != "add_or_multiply":  # nothing is shuffled there
        other = engine.new_game(_players(n), dict(options), seed=12)
        assert json.dumps(other, sort_keys=True) != json.dumps(first, sort_keys=True)


@pytest.mark.parametrize("case", FOCUSED, ids=_id)
def test_the_pack_is_legal(case):
    game, n, options = case
    engine = get(game)
    for seed in range(5):
        state = engine.new_game(_players(n), dict(options), seed=seed)
        CHECK_PACK[game](state, state["options"])


def _check_multiplication(state, options):
    cards = [c for h in state["hands"].values() for c in h] + state["deck"] + [state["open"]["card"]]
    counts = Counter(cards)
    assert all(mg_rules.is_card(c) for c in counts)
    focused = set(mg_rules.focus_cards(options))
    assert focused
    for product in mg_rules.PRODUCTS:
        assert counts[product] == (mg_rules.FOCUS_COPIES if product in focused else 1)
    assert counts[mg_rules.FREE] == options["free_cards"]
    assert counts == Counter(mg_rules.pack(options))
    # the focused cards are dealt first: the hands hold focused cards only, or all of them
    dealt = [c for h in state["hands"].values() for c in h]
    in_hands = sum(1 for c in dealt if c in focused)
    assert in_hands == min(len(dealt), mg_rules.FOCUS_COPIES * len(focused))


def _check_smooth_operator(state, options):
    operators = Counter(c for h in state["hands"].values() for c in h)
    operators.update(state["decks"]["operator"])
    focus = options.get("focus_operators") or []
    for code in so_rules.OPERATOR_CODES:
        if code in so_rules.SPECIALS:
            expected = 4
        elif not focus:
            expected = 15
        else:
            expected = so_rules.FOCUS_COPIES if code in focus else so_rules.UNFOCUSED_COPIES
        assert operators[code] == expected, code
    assert set(operators) <= set(so_rules.OPERATOR_CODES)
    for name, values in (("high", so_rules.high_values(options)), ("low", so_rules.low_values(options))):
        numbers = Counter(state["decks"][name]) + Counter(state["discards"][name]) + Counter([state[name]])
        assert numbers == Counter({v: so_rules.NUMBER_COPIES for v in values})
    low, high = options.get("low_range", [1, 10]), options.get("high_range", [11, 20])
    assert set(so_rules.low_values(options)) == set(range(low[0], low[1] + 1))
    assert set(so_rules.high_values(options)) == set(range(high[0], high[1] + 1))


def _check_numero(state, options):
    cards = [c for h in state["hands"].values() for c in h] + state["deck"]
    cards += [c for item in state["centre"] for c in item["cards"]]
    assert len(cards) == len(set(cards))  # every card exists once
    assert sorted(cards, key=nu_cards.sort_key) == nu_cards.pack(options)
    assert all(nu_cards.in_pack(c, options) for c in cards)


def _check_add_or_multiply(state, options):
    low, high = options["number_range"]
    width = high - low + 1
    for hand in state["hands"].values():
        numbers = Counter(hand["numbers"])
        assert sum(numbers.values()) == len(am_rules.NUMBER_CARDS)
        assert set(numbers) == set(range(low, high + 1))
        assert all(0 <= v <= 6 for v in numbers)
        assert max(numbers.values()) <= math.ceil(len(am_rules.NUMBER_CARDS) / width)
        assert sorted(hand["operations"]) == sorted(am_rules.OPERATION_CARDS)


CHECK_PACK = {"multiplication": _check_multiplication, "smooth_operator": _check_smooth_operator,
              "numero": _check_numero, "numero_solitaire": _check_numero,
              "add_or_multiply": _check_add_or_multiply}


def test_the_whole_range_is_the_standard_hand():
    assert am_rules.number_cards([0, 6]) == list(am_rules.NUMBER_CARDS)


@pytest.mark.parametrize("game", ["multiplication", "smooth_operator", "numero", "add_or_multiply"])
def test_no_focus_option_no_change(game):
    """Off by default: the state of a game without them is the one it always was (no new key)."""
    engine = get(game)
    n = 3 if game == "add_or_multiply" else 2
    state = engine.new_game(_players(n), {}, seed=5)
    assert set(state["options"]) == set(engine.OPTIONS) - set(FOCUS_KEYS[game])


FOCUS_KEYS = {"multiplication": ("focus_facts", "focus_tables"),
              "smooth_operator": ("focus_operators", "low_range", "high_range"),
              "numero": ("level",), "add_or_multiply": ("number_range",)}


@pytest.mark.parametrize("case", BAD, ids=_id)
def test_bad_values_are_bad_scenario(case):
    game, n, options = case
    with pytest.raises(BadScenario) as refused:
        get(game).new_game(_players(n), options, seed=1)
    assert refused.value.message.endswith(".") and "Traceback" not in refused.value.message
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


@pytest.mark.parametrize("case", FOCUSED, ids=_id)
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
    measured = {(c.game, k) for c in selfplay.FOCUS_CASES for k in c.focused}
    for game, keys in FOCUS_KEYS.items():
        for key in keys:
            assert (game, key) in measured, key
