"""Helpers for the Numero tests: scenario builders and a brute-force oracle for takes.

The oracle shares nothing with games.engine.numero.search: it plays wild cards one at a
time on real centre items (every card, every item, every order), and at every reachable
centre tries every assignment of items to groups. It is exponential and only meant for
small positions.
"""

from __future__ import annotations

from itertools import product

from games.engine.numero.cards import apply_wild, is_number, value_of
from games.engine.numero.scoring import item_facts, take_breakdown
from games.engine.replay import run_scenario


def oracle_best(centre: list[list[str]], builds: list[bool], hand: list[str]) -> dict:
    """Largest take (cards) and best points over every way to play the hand's wild cards.

    centre: list of items as card lists (their value: the first card's value changed by the
    wild cards after it, in order); builds: whether each item is a build (value = sum)."""
    wilds = [c for c in hand if not is_number(c)]
    numbers = [c for c in hand if is_number(c)]
    values = [_value(cards, build) for cards, build in zip(centre, builds)]
    best = {"cards": 0, "points": 0}
    seen = set()

    def explore(items: tuple, left: tuple):
        key = (items, left)
        if key in seen:
            return
        seen.add(key)
        for card in numbers:
            _all_takes(items, card, best)
        for w in left:
            rest = tuple(x for x in left if x != w)
            for i, (cards, value, build) in enumerate(items):
                new = apply_wild(w, value)
                if new is not None:
                    changed = items[:i] + ((cards + (w,), new, build),) + items[i + 1:]
                    explore(changed, rest)

    explore(tuple((tuple(c), v, b) for c, v, b in zip(centre, values, builds)), tuple(wilds))
    return best


def _value(cards, build):
    if build:
        return sum(value_of(c) for c in cards if is_number(c))
    value = value_of(cards[0])
    for w in cards[1:]:
        value = apply_wild(w, value)
    return value


def _all_takes(items, card, best):
    t = value_of(card)
    n = len(items)
    # label each item: 0 = stays, 1..n = group number
    for labels in product(range(n + 1), repeat=n):
        used = sorted(set(labels) - {0})
        if not used or used != list(range(1, len(used) + 1)):
            continue
        groups = [[items[i] for i in range(n) if labels[i] == g] for g in used]
        if any(sum(v for _c, v, _b in g) != t for g in groups):
            continue
        facts = [[item_facts(list(c), b) for c, _v, b in g] for g in groups]
        clears = all(label for label in labels)
        bd = take_breakdown(card, facts, clears)
        best["cards"] = max(best["cards"], bd["cards"])
        best["points"] = max(best["points"], bd["total"])


# ----- scenarios -----------------------------------------------------------------------------
ALL_WILDS = ["subtract", "multiply", "divide", "fraction", "power"]


def scenario(setup=None, actions=(), options=None, players=("Ann", "Ben"), game="numero",
             seed=0) -> dict:
    out = {"game": game, "players": list(players), "seed": seed, "actions": list(actions)}
    if options is not None:
        out["options"] = options
    if setup is not None:
        out["setup"] = setup
    return out


def act(player: str, kind: str, **fields) -> dict:
    return {"player": player, "type": kind, **fields}


def run(setup=None, actions=(), options=None, players=("Ann", "Ben"), game="numero", seed=0):
    return run_scenario(scenario(setup, actions, options, players, game, seed))


def error_code(out) -> str | None:
    return (out[0]["error"] or {}).get("code")


def all_cards(state: dict) -> list[str]:
    """Every card the state holds anywhere (for conservation checks)."""
    cards = list(state["deck"]) + list(state["out"])
    for hand in state["hands"].values():
        cards += hand
    for pile in state["won"].values():
        cards += pile
    for item in state["centre"]:
        cards += item["cards"]
    return cards
