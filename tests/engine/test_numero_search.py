"""The one search (takes with wild cards) against brute force, the legal-action list, the
UI's selection helper and the search benchmark."""

import json
import random
import subprocess
import sys
from itertools import combinations
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import get
from games.engine.numero.cards import NUMBER_CODES, WILD_CODES, apply_wild, value_of
from games.engine.numero.scoring import item_facts
from games.engine.numero.search import TakeSearch, any_take, best_take, item_options
from games.engine.numero.view import position
from numero_helpers import oracle_best

ROOT = Path(__file__).resolve().parents[2]


def _position(rng, max_items, max_wilds, max_numbers=2):
    cards = list(NUMBER_CODES)
    rng.shuffle(cards)
    n = rng.randint(1, max_items)
    centre = [[cards.pop()] for _ in range(n)]
    builds = [False] * n
    if n >= 2 and rng.random() < 0.3:  # a build item: two number cards joined
        centre[0] = centre[0] + [cards.pop()]
        builds[0] = True
    hand = [cards.pop() for _ in range(rng.randint(1, max_numbers))]
    hand += rng.sample(WILD_CODES, rng.randint(0, max_wilds))
    return centre, builds, hand


def _items(centre, builds):
    return [(sum(value_of(c) for c in cards) if build else value_of(cards[0]),
             item_facts(cards, build)) for cards, build in zip(centre, builds)]


def _compare(centre, builds, hand):
    expected = oracle_best(centre, builds, hand)
    items = _items(centre, builds)
    by_cards = best_take(items, hand, "cards")
    by_points = best_take(items, hand, "points")
    assert (by_cards.cards if by_cards else 0) == expected["cards"], (centre, hand)
    assert (by_points.score if by_points else 0) == expected["points"], (centre, hand)
    assert any_take(items, hand) == (expected["cards"] > 0), (centre, hand)
    if by_cards:
        _replay_plan(centre, builds, hand, by_cards)


def _replay_plan(centre, builds, hand, plan):
    """A plan must be playable: each wild step valid in order, each group adding up."""
    values = [v for v, _f in _items(centre, builds)]
    for wild, index in plan.wild_steps:
        assert wild in hand
        values[index] = apply_wild(wild, values[index])
        assert values[index] is not None and values[index] >= 1
    for group in plan.groups:
        assert sum(values[i] for i, _ in group) == value_of(plan.card)
    flat = [i for g in plan.groups for i, _ in g]
    assert len(flat) == len(set(flat))


def test_search_matches_brute_force_on_two_thousand_small_positions():
    rng = random.Random(2024)
    for _ in range(2000):
        _compare(*_position(rng, max_items=3, max_wilds=3))


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_search_matches_brute_force_hypothesis(seed):
    _compare(*_position(random.Random(seed), max_items=4, max_wilds=3))


def _naive_best_cards(values, cards, wilds, target):
    """A second, slower exact search: every group with every distribution of wild cards,
    then every set of disjoint groups (no pruning, no symmetry)."""
    options = [item_options(v, tuple(wilds)) for v in values]
    groups = []
    n = len(values)

    def grow(start, rem, chosen, used_wilds, gain):
        if rem == 0 and chosen:
            groups.append((frozenset(chosen), used_wilds, gain))
            return
        for k in range(start, n):
            for mask, v, seq in options[k]:
                if v <= rem and not mask & used_wilds:
                    grow(k + 1, rem - v, chosen + [k], used_wilds | mask, gain + cards[k] + len(seq))

    grow(0, target, [], 0, 0)
    best = 0

    def pack(i, used, wused, total):
        nonlocal best
        best = max(best, total)
        for j in range(i, len(groups)):
            items, mask, gain = groups[j]
            if not items & used and not mask & wused:
                pack(j + 1, used | items, wused | mask, total + gain)

    pack(0, frozenset(), 0, 0)
    return best + 1 if best else 0


def test_search_matches_a_naive_exact_search_on_medium_positions():
    rng = random.Random(7)
    for _ in range(40):
        cards = list(NUMBER_CODES[:40])
        rng.shuffle(cards)
        centre = cards[:6]
        hand_card = cards[6]
        wilds = rng.sample(WILD_CODES, 3)
        items = [(value_of(c), item_facts([c], False)) for c in centre]
        plan = TakeSearch(items, tuple(wilds)).best(hand_card)
        naive = _naive_best_cards([value_of(c) for c in centre], [1] * 6, wilds, value_of(hand_card))
        assert (plan.cards if plan else 0) == naive, (centre, hand_card, wilds)


def test_search_with_many_interchangeable_items_matches_the_naive_search():
    # equal values make the search's symmetry rules (used in a fixed order) do real work
    rng = random.Random(9)
    for _ in range(150):
        n = rng.randint(3, 8)
        values = [rng.choice([1, 2, 3, 4, 5, 6]) for _ in range(n)]
        cards = [rng.choice([1, 1, 1, 2]) for _ in range(n)]
        items = [(v, (c, 0, frozenset("g"), frozenset(), False)) for v, c in zip(values, cards)]
        target = rng.randint(3, 15)
        wilds = rng.sample(WILD_CODES, rng.randint(0, 3))
        plan = TakeSearch(items, tuple(wilds)).best(f"{target}r")
        assert (plan.cards if plan else 0) == _naive_best_cards(values, cards, wilds, target)


def test_largest_take_uses_every_useful_wild_card():
    items = _items([["10r"]], [False])
    plan = best_take(items, ["-2", "/4", "x3", "6b"])
    assert plan.cards == 5 and [w for w, _ in plan.wild_steps] == ["-2", "/4", "x3"]


def test_crowded_position_is_searched_exactly_and_fast_enough():
    rng = random.Random(3)
    cards = list(NUMBER_CODES)
    rng.shuffle(cards)
    items = [(value_of(c), item_facts([c], False)) for c in cards[:12]]
    plan = best_take(items, [cards[12], "-2", "x2", "/3", "1/2", "sq"])
    assert plan is not None and plan.cards >= 2


# ----- the legal-action list ------------------------------------------------------------------
def _state(setup, options=None):
    return get("numero").new_game(["Ann", "Ben"], options, 0, setup)


def test_legal_takes_are_exactly_the_brute_force_takes():
    rng = random.Random(11)
    engine = get("numero")
    for _ in range(60):
        cards = list(NUMBER_CODES[:36])
        rng.shuffle(cards)
        centre, hand = cards[:5], cards[5:8]
        state = _state({"hands": {"Ann": hand, "Ben": ["15r"]}, "centre": centre, "deck": []})
        listed = {(a["card"], frozenset(frozenset(g) for g in a["groups"]))
                  for a in engine.legal_actions(state, "Ann") if a["type"] == "take"}
        brute = set()
        for card in hand:
            groups = [frozenset(s) for r in range(1, 6) for s in combinations(centre, r)
                      if sum(value_of(c) for c in s) == value_of(card)]
            for r in range(1, len(groups) + 1):
                for chosen in combinations(groups, r):
                    if sum(len(g) for g in chosen) == len(frozenset().union(*chosen)):
                        brute.add((card, frozenset(chosen)))
        assert listed == brute


def test_every_listed_action_is_legal_and_free_steps_are_listed():
    engine = get("numero")
    setup = {"hands": {"Ann": ["4b", "9r", "-2", "x3"], "Ben": ["15r"]},
             "centre": ["5g", "4o", "2b"], "deck": ["7g"]}
    state = _state(setup, {"wilds": ["subtract", "multiply"]})
    actions = engine.legal_actions(state, "Ann")
    kinds = {a["type"] for a in actions}
    assert kinds == {"wild", "discard_wild", "take", "build", "discard"}
    for a in actions:
        assert engine.is_legal(state, "Ann", a), a
    assert {"type": "take", "card": "9r", "groups": [["5g", "4o"]]} in actions
    assert {"type": "build", "card": "4b", "with": ["5g"]} in actions  # 9 with 9r in hand
    assert engine.legal_actions(state, "Ben") == []


# ----- the selection helper -------------------------------------------------------------------
def _view(hand, centre, options=None, player="Ann"):
    engine = get("numero")
    state = _state({"hands": {"Ann": hand, "Ben": ["15r"]}, "centre": centre, "deck": ["14b"]},
                   options)
    return engine, engine.view(state, player)


def test_selection_guides_a_multiple_take():
    engine, view = _view(["8b", "12r"], ["5g", "3o", "8r", "2b", "6g"])
    start = engine.selection(view, "8b", [])
    assert set(start["new_group"]) == {"5g", "3o", "8r", "2b", "6g"}
    one = engine.selection(view, "8b", [["5g"]])
    assert one["running_value"] == 5 and one["addable"] == ["3o"]
    assert one["take"] == {"valid": False, "code": "group_mismatch", "message": one["take"]["message"]}
    done = engine.selection(view, "8b", [["5g", "3o"]])
    assert done["take"]["valid"] and done["groups"][0]["complete"]
    assert set(done["new_group"]) == {"8r", "2b", "6g"} and done["addable"] == []
    two = engine.selection(view, "8b", [["5g", "3o"], ["2b"]])
    assert two["addable"] == ["6g"] and not two["take"]["valid"]
    three = engine.selection(view, "8b", [["5g", "3o"], ["2b", "6g"], ["8r"]])
    assert three["take"]["valid"] and three["new_group"] == []


def test_selection_only_offers_items_that_can_still_complete():
    engine, view = _view(["9b"], ["5g", "2o", "7r", "6g"])
    sel = engine.selection(view, "9b", [["5g"]])
    # 5 + 2 leaves 2 (nothing), 5 + 4? none: no item completes a 9 with the 5
    assert sel["addable"] == []
    sel = engine.selection(view, "9b", [["2o"]])
    assert sel["addable"] == ["7r"]


def test_selection_build_part():
    engine, view = _view(["4b", "12r"], ["5g", "3o", "9r"])
    sel = engine.selection(view, "4b", [["5g"]])
    assert sel["build"]["value"] == 9 and sel["build"]["code"] == "no_answer_card"
    assert sel["build"]["addable"] == ["3o"]  # 4 + 5 + 3 = 12, held
    sel = engine.selection(view, "4b", [["5g", "3o"]])
    assert sel["build"]["valid"] and sel["build"]["value"] == 12


def test_selection_reports_the_engines_codes():
    engine, view = _view(["8b", "-2"], ["5g", "3o"], {"wilds": ["subtract"]})
    assert engine.selection(view, "7r", [])["error"]["code"] == "not_in_hand"
    assert engine.selection(view, "-2", [])["error"]["code"] == "not_a_number_card"
    assert engine.selection(view, "8b", [["4r"]])["error"]["code"] == "unknown_item"
    assert engine.selection(view, "8b", [["5g"], ["5g"]])["error"]["code"] == "item_reused"
    assert engine.selection(view, "8b", "5g")["error"]["code"] == "bad_action"
    _engine, other = _view(["8b"], ["5g", "3o"], player="Ben")
    sel = engine.selection(other, "15r", [["5g"]])
    assert sel["take"]["code"] == "not_your_turn"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_selection_agrees_with_the_engine(seed):
    rng = random.Random(seed)
    engine = get("numero")
    cards = list(NUMBER_CODES[:44])
    rng.shuffle(cards)
    centre, hand = cards[:rng.randint(1, 6)], cards[10:13]
    state = _state({"hands": {"Ann": hand, "Ben": ["15r"]}, "centre": centre, "deck": []})
    view = engine.view(state, "Ann")
    card = rng.choice(hand)
    picked = [rng.sample(centre, rng.randint(1, min(3, len(centre))))]
    sel = engine.selection(view, card, picked)
    take = {"type": "take", "card": card, "groups": picked}
    assert sel["take"]["valid"] == engine.is_legal(state, "Ann", take)
    build = {"type": "build", "card": card, "with": picked[0]}
    assert sel["build"]["valid"] == engine.is_legal(state, "Ann", build)
    # an addable item really leads to some legal take that contains the picks
    search = TakeSearch([(value_of(c), item_facts([c], False)) for c in centre])
    for extra in sel["addable"]:
        wanted = set(picked[0]) | {extra}
        found = any(any(wanted <= {centre[i] for i in g} for g in groups)
                    for groups in search.iter_takes(value_of(card)))
        assert found, (centre, card, picked, extra)
    # the selection helper sees no more than the view: it never needs the state
    assert position(state, "Ann")["hand"] == hand


junk = st.none() | st.booleans() | st.integers() | st.text(max_size=4) | st.sampled_from(
    ["8b", "5g", "-2", "3o", "99"]) | st.lists(st.lists(st.sampled_from(["5g", "3o", "x"]), max_size=3), max_size=3)


@settings(max_examples=100, deadline=None)
@given(junk, junk)
def test_selection_never_raises_on_junk(card, picked):
    engine, view = _view(["8b", "-2"], ["5g", "3o"], {"wilds": ["subtract"]})
    sel = engine.selection(view, card, picked)
    for part in (sel["take"], sel["build"]):
        assert part["valid"] in (True, False)
        assert part["valid"] or part["code"]


# ----- the benchmark command ------------------------------------------------------------------
def test_bench_command_prints_json():
    result = subprocess.run([sys.executable, "-m", "games.engine.numero.bench", "--positions", "5"],
                            cwd=ROOT, capture_output=True, text=True, check=True)
    data = json.loads(result.stdout)
    assert data["positions"] == 5 and data["centre_items"] == 12 and data["wild_cards"] == 5
    assert data["ms"]["max"] >= data["ms"]["p99"] >= data["ms"]["p50"] > 0
