"""The Multiplication Game: random-play invariants, fuzzing, bots and golden playthroughs."""

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
from multiplication_helpers import golden_paths, random_game  # noqa: E402

from games.engine import get, make_bot  # noqa: E402
from games.engine.multiplication import BOTS, rules  # noqa: E402
from games.engine.errors import IllegalMove  # noqa: E402
from games.engine.replay import run_scenario  # noqa: E402

ENGINE = get("multiplication")
KNOWN_CODES = {"bad_action", "unknown_player", "not_your_turn", "not_in_hand", "game_over",
               "bad_declaration", "no_common_multiplier"}
FAST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ["Ann", "Ben", "Cal", "Dan", "Eve", "Fay"]
game_shapes = st.tuples(st.integers(0, 10**6), st.integers(2, 6), st.integers(0, 2),
                        st.integers(50, 150))


def shape(params):
    seed, count, free, limit = params
    return seed, NAMES[:count], {"free_cards": free, "turn_limit": limit}


def all_cards_of(state) -> Counter:
    held = Counter(state["deck"]) + Counter(state["discards"]) + Counter([state["open"]["card"]])
    for hand in state["hands"].values():
        held.update(hand)
    return held


# ----- invariants over random games --------------------------------------------------------
@FAST
@given(params=game_shapes)
def test_random_games_keep_the_rules(params):
    seed, players, options = shape(params)
    steps, final = random_game(ENGINE, seed, players, options)
    assert final["finished"]
    everything = Counter(rules.all_cards(options["free_cards"]))
    for state, player, action in steps + [(final, None, None)]:
        assert all_cards_of(state) == everything  # cards are conserved
    for (state, player, action), after in zip(steps, [s for s, _, _ in steps[1:]] + [final]):
        assert action in ENGINE.legal_actions(state, player)
        sizes = {p: len(h) for p, h in state["hands"].items()}
        new_sizes = {p: len(h) for p, h in after["hands"].items()}
        changed = {p: new_sizes[p] - sizes[p] for p in players if new_sizes[p] != sizes[p]}
        i = players.index(player)
        nxt = players[(i + 1) % len(players)]
        if action["type"] == "draw":
            assert after["turn"] == state["turn"] + 1
            assert changed in ({player: 1}, {})
            assert after["open"] == state["open"]
        else:
            a, b = action["declare"]
            assert after["open"] == {"card": action["card"], "value": a * b,
                                     "multipliers": sorted({a, b})}
            assert changed.pop(player) == -1
            # A square costs the next player a turn unless the discard won or hit the limit.
            skipped = after["turn"] == state["turn"] + 2
            assert skipped == (rules.is_square(a * b) and bool(after["hands"][player])
                               and state["turn"] + 1 < options["turn_limit"])
            if skipped:
                assert changed in ({nxt: 1}, {})
            else:
                assert changed == {} and after["turn"] == state["turn"] + 1
        if not after["finished"]:
            assert after["turn"] < options["turn_limit"]
    if final["turn"] < options["turn_limit"]:
        assert [len(final["hands"][p]) for p in final["winners"]] == [0]
    else:
        fewest = min(len(h) for h in final["hands"].values())
        assert final["winners"] == [p for p in players if len(final["hands"][p]) == fewest]


@FAST
@given(params=game_shapes, cut=st.integers(0, 60))
def test_state_round_trips_through_json_and_same_seed_same_game(params, cut):
    seed, players, options = shape(params)
    _, state = random_game(ENGINE, seed, players, options, stop_after=cut)
    assert json.loads(json.dumps(state)) == state
    assert random_game(ENGINE, seed, players, options, stop_after=cut)[1] == state
    for viewer in players + [None]:
        view = ENGINE.view(state, viewer)
        assert json.loads(json.dumps(view)) == view
    summary = ENGINE.summary(state)
    assert json.loads(json.dumps(summary)) == summary
    for hand in summary["hands"].values():
        assert hand == sorted(hand, key=rules.sort_key)


@FAST
@given(params=game_shapes, cut=st.integers(0, 60), mix=st.randoms(use_true_random=False))
def test_views_never_show_hidden_cards(params, cut, mix):
    seed, players, options = shape(params)
    _, state = random_game(ENGINE, seed, players, options, stop_after=cut)
    for viewer in players + [None]:
        view = ENGINE.view(state, viewer)
        assert {"hands", "deck", "discards"}.isdisjoint(view)
        # Deal the hidden cards (other hands and the deck) anew, keeping every count: the
        # viewer must see exactly the same thing.
        hidden = [p for p in players if p != viewer]
        pool = list(state["deck"]) + [c for p in hidden for c in state["hands"][p]]
        mix.shuffle(pool)
        twin = copy.deepcopy(state)
        for p in hidden:
            size = len(state["hands"][p])
            twin["hands"][p], pool = pool[:size], pool[size:]
        twin["deck"] = pool
        assert ENGINE.view(twin, viewer) == view
        if viewer is not None:
            assert view["hand"] == rules.sorted_cards(state["hands"][viewer])


# ----- fuzzing -----------------------------------------------------------------------------
junk = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 110) | st.floats(allow_nan=False)
    | st.sampled_from(["free", "Free", "draw", "discard", "24", ""]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["type", "card", "declare", "player", "x"]), inner,
                      max_size=3),
    max_leaves=8,
)
cards = st.sampled_from(list(rules.PRODUCTS) + ["free"]) | junk
declares = st.lists(st.integers(-2, 12), min_size=2, max_size=2) | junk
actions = st.one_of(
    junk,
    st.fixed_dictionaries({"type": st.just("discard"), "card": cards, "declare": declares}),
    st.fixed_dictionaries({"type": st.sampled_from(["draw", "discard"])},
                          optional={"card": cards, "declare": declares, "answer": junk}),
)


@settings(max_examples=200, deadline=None)
@given(params=game_shapes, cut=st.integers(0, 40), who=st.integers(0, 7), action=actions)
def test_fuzzed_actions_raise_only_known_codes_and_change_nothing(params, cut, who, action):
    seed, players, options = shape(params)
    _, state = random_game(ENGINE, seed, players, options, stop_after=cut)
    player = (players + ["Zed", ""])[who % (len(players) + 2)]
    before = copy.deepcopy(state)
    try:
        ENGINE.apply(state, player, action)
    except IllegalMove as exc:
        assert exc.code in KNOWN_CODES and exc.message
    assert state == before
    facts = ENGINE.analyse(state, player, action)
    json.dumps(facts)
    assert state == before


# ----- bots --------------------------------------------------------------------------------
def test_bots_choose_from_a_view_alone():
    state = ENGINE.new_game(["Ann", "Ben", "Cal"], {"free_cards": 2}, 3)
    view = ENGINE.view(state, "Ann")
    assert {"hands", "deck", "discards"}.isdisjoint(view)
    plain = json.loads(json.dumps(view))  # plain data, no state behind it
    for level, cls in BOTS.items():
        action = cls(ENGINE, 1).choose(plain)
        assert ENGINE.is_legal(state, "Ann", action), level


@pytest.mark.parametrize("level", ["beginner", "player", "expert"])
def test_bots_are_deterministic_for_a_seed(level):
    def game(seed):
        players = ["Ann", "Ben", "Cal"]
        bots = {p: make_bot("multiplication", level, seed + i) for i, p in enumerate(players)}
        state = ENGINE.new_game(players, {"free_cards": 1}, seed)
        moves = []
        while not state["finished"]:
            p = ENGINE.waiting_for(state)[0]
            moves.append(bots[p].choose(ENGINE.view(state, p)))
            state, _ = ENGINE.apply(state, p, moves[-1])
        return moves
    assert game(4) == game(4)


def test_bots_never_choose_illegal_actions():
    rng = random.Random(8)
    for g in range(60):
        count = rng.randint(2, 6)
        players = NAMES[:count]
        levels = [rng.choice(list(BOTS)) for _ in players]
        bots = {p: make_bot("multiplication", lvl, g * 7 + i)
                for i, (p, lvl) in enumerate(zip(players, levels))}
        state = ENGINE.new_game(players, {"free_cards": rng.randint(0, 2),
                                          "turn_limit": 200}, g)
        while not state["finished"]:
            p = ENGINE.waiting_for(state)[0]
            action = bots[p].choose(ENGINE.view(state, p))
            assert action in ENGINE.legal_actions(state, p)
            state, _ = ENGINE.apply(state, p, action)


def test_expert_usually_beats_the_beginner():
    from games.engine.selfplay import run
    result = run("multiplication", 100, ["expert", "beginner"], seed=3)
    assert result["illegal"] == 0 and result["finished"] == 100
    assert result["win_rate"]["expert"] >= 0.7


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
        move = {k: v for k, v in action.items() if k != "player"}
        state, _ = ENGINE.apply(state, action["player"], move)
        assert ENGINE.summary(state) == expected
    assert state["finished"]
    out, status = run_scenario({"game": "multiplication", "players": golden["players"],
                                "options": golden["options"], "seed": golden["seed"],
                                "actions": golden["actions"]})
    assert status == 0 and out["state"] == golden["summaries"][-1]


@FAST
@given(params=game_shapes, cut=st.integers(0, 200))
def test_copy_state_is_equal_and_shares_nothing_mutable(params, cut):
    seed, players, options = shape(params)
    _, state = random_game(ENGINE, seed, players, options, stop_after=cut)
    copied = ENGINE.copy_state(state)
    assert copied == state

    def mutables(data):
        if isinstance(data, dict):
            yield id(data)
            for value in data.values():
                yield from mutables(value)
        elif isinstance(data, list):
            yield id(data)
            for value in data:
                yield from mutables(value)

    assert set(mutables(copied)).isdisjoint(mutables(state))
