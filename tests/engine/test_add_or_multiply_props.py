"""Add or Multiply?: random-play invariants, fuzzing, bots and golden playthroughs."""

import copy
import json
import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers sit next to this file
from add_or_multiply_helpers import PLAYERS, golden_paths, random_game  # noqa: E402

from games.engine import get, make_bot  # noqa: E402
from games.engine.add_or_multiply import BOTS, rules  # noqa: E402
from games.engine.errors import IllegalMove  # noqa: E402
from games.engine.replay import run_scenario  # noqa: E402

ENGINE = get("add_or_multiply")
KNOWN_CODES = {"bad_action", "unknown_player", "not_your_turn", "not_in_hand", "game_over",
               "bad_target", "already_played"}
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _move(action):
    return {k: v for k, v in action.items() if k != "player"}


# ----- invariants over random games --------------------------------------------------------
@FAST
@given(seed=st.integers(0, 10**6), rounds=st.integers(1, 5))
def test_random_games_keep_the_rules(seed, rounds):
    steps, final = random_game(ENGINE, seed, {"rounds": rounds})
    assert final["finished"] and len(final["history"]) == rounds
    assert len(steps) == 3 * rounds
    for state, player, action in steps:
        assert action in ENGINE.legal_actions(state, player)
    start = Counter(rules.NUMBER_CARDS)
    for p in PLAYERS:
        # Cards are conserved: what is held plus what was played is the starting hand.
        played = Counter(v for r in final["history"] for v in r["plays"][p]["on"].values())
        assert Counter(final["hands"][p]["numbers"]) + played == start
        ops = Counter(r["plays"][p]["operation"] for r in final["history"])
        assert Counter(final["hands"][p]["operations"]) + ops == Counter(rules.OPERATION_CARDS)
        # Scores are exactly the sum of the round scores the rules give.
        total = 0
        for r in final["history"]:
            came = [r["plays"][o]["on"][p] for o in PLAYERS if o != p]
            total += rules.combine(r["plays"][p]["operation"], *came)
        assert final["scores"][p] == total
    best = max(final["scores"].values())
    assert final["winners"] == [p for p in PLAYERS if final["scores"][p] == best]


@FAST
@given(seed=st.integers(0, 10**6), cut=st.integers(0, 14))
def test_scores_change_only_when_a_round_resolves(seed, cut):
    steps, last = random_game(ENGINE, seed, stop_after=cut + 1)
    state, player, action = steps[-1]
    after, events = ENGINE.apply(state, player, action)
    resolved = [e for e in events if e["type"] == "round_resolved"]
    if len(state["pending"]) < 2:
        assert not resolved and after["scores"] == state["scores"]
        assert after["hands"] == state["hands"]  # chosen cards stay until the reveal
    else:
        assert len(resolved) == 1
        gained = {p: after["scores"][p] - state["scores"][p] for p in PLAYERS}
        assert gained == {p: f["points"] for p, f in resolved[0]["results"].items()}


@FAST
@given(seed=st.integers(0, 10**6), cut=st.integers(1, 14))
def test_state_round_trips_through_json_and_same_seed_same_game(seed, cut):
    _, state = random_game(ENGINE, seed, stop_after=cut)
    assert json.loads(json.dumps(state)) == state
    assert random_game(ENGINE, seed, stop_after=cut)[1] == state
    for viewer in PLAYERS + [None]:
        view = ENGINE.view(state, viewer)
        assert json.loads(json.dumps(view)) == view
    assert json.loads(json.dumps(ENGINE.summary(state))) == ENGINE.summary(state)


@FAST
@given(seed=st.integers(0, 10**6), cut=st.integers(1, 14), pick=st.integers(0, 10**6))
def test_views_do_not_depend_on_others_secret_choices(seed, cut, pick):
    _, state = random_game(ENGINE, seed, stop_after=cut)
    if not state["pending"] or state["finished"]:
        return
    chooser = sorted(state["pending"])[0]
    choices = ENGINE.legal_actions(dict(state, pending={}), chooser)
    other_choice = choices[pick % len(choices)]
    twin = copy.deepcopy(state)
    twin["pending"][chooser] = {"on": other_choice["on"], "operation": other_choice["operation"]}
    for viewer in [p for p in PLAYERS if p != chooser] + [None]:
        view = ENGINE.view(state, viewer)
        assert ENGINE.view(twin, viewer) == view
        assert "pending" not in view
        if viewer is not None and view["my_choice"] is not None:
            assert view["my_choice"] == state["pending"][viewer]
    assert ENGINE.view(state, chooser)["my_choice"] == state["pending"][chooser]


# ----- fuzzing -----------------------------------------------------------------------------
junk = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False)
    | st.sampled_from(["+", "x", "-", "Brian", "Susie", "Ted", "play", ""]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["Brian", "Susie", "Ted", "Zed", "on", "type"]), inner,
                      max_size=3),
    max_leaves=8,
)
on_maps = st.dictionaries(st.sampled_from(["Brian", "Susie", "Ted", "Zed", ""]),
                          st.integers(-1, 7) | st.booleans() | junk, max_size=4)
actions = st.one_of(
    junk,
    st.fixed_dictionaries({"type": st.just("play"), "on": on_maps,
                           "operation": st.sampled_from(["+", "x", "÷", 1, None])}),
    st.fixed_dictionaries({"type": st.just("play"), "on": on_maps, "operation": st.just("x")},
                          optional={"answer": junk, "card": junk}),
)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**5), cut=st.integers(0, 15),
       player=st.sampled_from(PLAYERS + ["Zed", ""]), action=actions)
def test_fuzzed_actions_raise_only_known_codes_and_change_nothing(seed, cut, player, action):
    _, state = random_game(ENGINE, seed, stop_after=cut)
    before = copy.deepcopy(state)
    try:
        ENGINE.apply(state, player, action)
    except IllegalMove as exc:
        assert exc.code in KNOWN_CODES and exc.message
    assert state == before
    ENGINE.analyse(state, player, action)  # never raises either
    assert state == before


# ----- bots --------------------------------------------------------------------------------
def test_bots_choose_from_a_view_alone():
    state = ENGINE.new_game(list(PLAYERS))
    state, _ = ENGINE.apply(state, "Susie", {"type": "play", "on": {"Brian": 0, "Ted": 0},
                                             "operation": "x"})
    view = ENGINE.view(state, "Brian")
    assert "pending" not in view and view["my_choice"] is None
    assert "0" not in json.dumps(view["submitted"])
    for level, cls in BOTS.items():
        bot = cls(ENGINE, 5)
        action = bot.choose(json.loads(json.dumps(view)))  # plain data, no state behind it
        assert ENGINE.is_legal(state, "Brian", action), level


@pytest.mark.parametrize("level", ["beginner", "player", "expert"])
def test_bots_are_deterministic_for_a_seed(level):
    def game(seed):
        bots = {p: make_bot("add_or_multiply", level, seed + i) for i, p in enumerate(PLAYERS)}
        state = ENGINE.new_game(list(PLAYERS))
        moves = []
        while not state["finished"]:
            for p in ENGINE.waiting_for(state):
                action = bots[p].choose(ENGINE.view(state, p))
                moves.append(action)
                state, _ = ENGINE.apply(state, p, action)
        return moves, state["scores"]
    assert game(11) == game(11)


def test_bots_never_choose_illegal_actions():
    rng = random.Random(3)
    levels = list(BOTS)
    for g in range(24):
        seats = [rng.choice(levels) for _ in PLAYERS]
        bots = {p: make_bot("add_or_multiply", lvl, g * 3 + i)
                for i, (p, lvl) in enumerate(zip(PLAYERS, seats))}
        state = ENGINE.new_game(list(PLAYERS), {"rounds": rng.randint(1, 5)})
        while not state["finished"]:
            player = rng.choice(ENGINE.waiting_for(state))
            action = bots[player].choose(ENGINE.view(state, player))
            assert action in ENGINE.legal_actions(state, player)
            state, _ = ENGINE.apply(state, player, action)


def test_expert_outscores_beginners():
    from games.engine.selfplay import run
    result = run("add_or_multiply", 60, ["expert", "beginner", "beginner"], seed=5)
    assert result["illegal"] == 0 and result["finished"] == 60
    assert result["mean_score"]["expert"] > result["mean_score"]["beginner"] + 2


# ----- golden playthroughs -----------------------------------------------------------------
def test_there_are_golden_playthroughs():
    assert len(golden_paths()) >= 3


@pytest.mark.parametrize("path", golden_paths(), ids=lambda p: p.name)
def test_golden_playthrough_replays_exactly(path):
    golden = json.loads(path.read_text(encoding="utf-8"))
    state = ENGINE.new_game(golden["players"], golden["options"], golden["seed"])
    assert ENGINE.summary(state) == golden["initial"]
    assert len(golden["actions"]) == len(golden["summaries"]) > 0
    for action, expected in zip(golden["actions"], golden["summaries"]):
        state, _ = ENGINE.apply(state, action["player"], _move(action))
        assert ENGINE.summary(state) == expected
    assert state["finished"]
    out, status = run_scenario({"game": "add_or_multiply", "players": golden["players"],
                                "options": golden["options"], "seed": golden["seed"],
                                "actions": golden["actions"]})
    assert status == 0 and out["state"] == golden["summaries"][-1]
