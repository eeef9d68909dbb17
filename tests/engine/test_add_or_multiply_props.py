"""Add or Multiply?: what random play shows about this game's own rules (cards, scores, secret
choices) and its bots. What every game must do (listed moves allowed, JSON states, same seed
same game, fuzzed moves refused with known codes, goldens) is the contract suite's:
tests/contract/."""

import copy
import json
import sys
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers sit next to this file
from add_or_multiply_helpers import PLAYERS, random_game  # noqa: E402

from games.engine import get  # noqa: E402
from games.engine.add_or_multiply import BOTS, rules  # noqa: E402
from games.engine.selfplay import run  # noqa: E402

ENGINE = get("add_or_multiply")
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----- invariants over random games --------------------------------------------------------
@FAST
@given(seed=st.integers(0, 10**6), rounds=st.integers(1, 5))
def test_random_games_keep_the_rules(seed, rounds):
    steps, final = random_game(ENGINE, seed, {"rounds": rounds})
    assert final["finished"] and len(final["history"]) == rounds
    assert len(steps) == 3 * rounds
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
@given(seed=st.integers(0, 10**6), cut=st.integers(1, 14), pick=st.integers(0, 10**6))
def test_views_do_not_depend_on_others_secret_choices(seed, cut, pick):
    _, state = random_game(ENGINE, seed, stop_after=cut)
    assume(state["pending"] and not state["finished"])
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


def test_expert_outscores_beginners():
    result = run("add_or_multiply", 60, ["expert", "beginner", "beginner"], seed=5)
    assert result["illegal"] == 0 and result["finished"] == 60
    assert result["mean_score"]["expert"] > result["mean_score"]["beginner"] + 2
