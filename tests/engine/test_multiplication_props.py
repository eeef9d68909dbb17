"""The Multiplication Game: what random play shows about this game's own rules (cards, turns,
squares, winners, what a view hides) and its bots. What every game must do (listed moves
allowed, JSON states, same seed same game, fuzzed moves refused with known codes, goldens) is
the contract suite's: tests/contract/."""

import copy
import json
import sys
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers sit next to this file
from multiplication_helpers import random_game  # noqa: E402

from games.engine import get  # noqa: E402
from games.engine.multiplication import BOTS, rules  # noqa: E402
from games.engine.selfplay import run  # noqa: E402

ENGINE = get("multiplication")
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
        for hand in ENGINE.summary(state)["hands"].values():
            assert hand == sorted(hand, key=rules.sort_key)
    for (state, player, action), after in zip(steps, [s for s, _, _ in steps[1:]] + [final]):
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


# ----- bots --------------------------------------------------------------------------------
def test_bots_choose_from_a_view_alone():
    state = ENGINE.new_game(["Ann", "Ben", "Cal"], {"free_cards": 2}, 3)
    view = ENGINE.view(state, "Ann")
    assert {"hands", "deck", "discards"}.isdisjoint(view)
    plain = json.loads(json.dumps(view))  # plain data, no state behind it
    for level, cls in BOTS.items():
        action = cls(ENGINE, 1).choose(plain)
        assert ENGINE.is_legal(state, "Ann", action), level


def test_expert_usually_beats_the_beginner():
    result = run("multiplication", 100, ["expert", "beginner"], seed=3)
    assert result["illegal"] == 0 and result["finished"] == 100
    assert result["win_rate"]["expert"] >= 0.7


@FAST
@given(params=game_shapes, cut=st.integers(0, 200))
def test_copy_state_is_equal_and_shares_nothing_mutable(params, cut):
    """The engine's own structural copy (faster than the generic one) shares nothing."""
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
