"""Facts about one Numero decision for the skill reports (shared/spec/skills.md).

Computed on the state before the action, never raising (a refused attempt is analysed too):
- nu.missed_take: `take_possible` (counting the wild cards still in hand) and `missed_take`
  (a build or discard while a take was possible).
- nu.best_take: `largest_take` (cards, and one way to get them) and, for a take,
  `chosen.cards` and `cards_left_behind`.
- nu.valid_build: for a build, `answer_held` / `bluff` (the code says whether it was refused).
- nu.operations: `holding_wild` (a wild card in hand, or played earlier this turn),
  `max_operations` (the most operations one take could use) and `chosen.operations`.
- all.rule_errors / all.think_time: `legal`, `code`, `kind`.
Every question about takes goes to the one search (search.py).
"""

from __future__ import annotations

from ..errors import IllegalMove
from . import rules
from .cards import is_number, value_of
from .scoring import item_facts, take_breakdown, with_wilds
from .search import TakeSearch, any_take, best_take, number_cards, wild_cards
from .view import position, search_items

GROUP_LIMIT = 20000  # groups looked at for the operations question in a huge position


def analyse(engine, state: dict, player, action) -> dict:
    kind = action.get("type") if type(action) is dict else None
    kind = kind if type(kind) is str and kind in engine.ACTIONS else "invalid"
    out = {"kind": kind, "legal": True, "code": None, "message": None}
    try:
        engine.apply(state, player, action)
    except IllegalMove as exc:
        out.update(legal=False, code=exc.code, message=exc.message)
    if player not in state["players"] or state["finished"]:
        return out
    pos = position(state, player)
    hand = pos["hand"]
    items = search_items(pos["centre"])
    largest = best_take(items, hand, "cards")
    out.update({
        "on_turn": player in engine.waiting_for(state),
        "final_turn": pos["final_turn"], "solitaire": pos["solitaire"],
        "take_possible": largest is not None,
        "take_possible_now": any_take(items, hand, use_wilds=False),
        "largest_take": None if largest is None else _describe_plan(pos, largest),
        "holding_wild": bool(wild_cards(hand)) or _wild_this_turn(state, player),
    })
    if out["holding_wild"] and largest is not None:
        out["max_operations"] = max_operations(items, hand)
    if kind in ("build", "discard"):
        out["missed_take"] = out["take_possible"]
    if kind == "take":
        out["chosen"] = _chosen_take(pos, action)
        if out["chosen"] is not None and largest is not None:
            out["cards_left_behind"] = max(0, largest.cards - out["chosen"]["cards"])
    elif kind == "build":
        out.update(_chosen_build(pos, action))
    elif kind == "wild" and out["legal"]:
        after, _events = engine.apply(state, player, action)
        if not after["finished"] and player in engine.waiting_for(after):
            later = best_take(search_items(after["centre"]), after["hands"][player], "cards")
            out["largest_take_after"] = 0 if later is None else later.cards
    return out


def _describe_plan(pos: dict, plan) -> dict:
    name = [item["cards"][0] for item in pos["centre"]]
    return {"cards": plan.cards, "card": plan.card,
            "groups": [[name[i] for i, _ in g] for g in plan.groups],
            "wild_steps": [{"card": w, "target": name[k]} for w, k in plan.wild_steps]}


def _wild_this_turn(state: dict, player: str) -> bool:
    for event in reversed(state["log"]):
        if event["type"] == "turn":
            return False
        if event["type"] == "wild" and event.get("player") == player:
            return True
    return False


def group_operations(facts: list[tuple]) -> int:
    ops = set().union(*(f[3] for f in facts))
    if len(facts) >= 2 or any(f[4] for f in facts):
        ops.add("+")
    return len(ops)


def max_operations(items, hand) -> int:
    """The most different operations one group (one take) could use, wild cards included."""
    # "points" keeps items apart whenever their operations differ (symmetry must not hide one)
    search = TakeSearch(items, wild_cards(hand), "points")
    best, seen = 0, 0
    for t in sorted({value_of(c) for c in number_cards(hand)}):
        for group, _u, _w in search.groups(t, symmetric=True):
            facts = [with_wilds(search.facts[k], option[2]) for k, option in group]
            best = max(best, group_operations(facts))
            seen += 1
            if best == 4 or seen >= GROUP_LIMIT:
                return best
    return best


def _chosen_take(pos: dict, action: dict) -> dict | None:
    try:
        groups = rules.check_take(pos, action)
    except (IllegalMove, KeyError, TypeError):
        return None
    centre = pos["centre"]
    facts = [[item_facts(centre[i]["cards"], centre[i]["build"]) for i in g] for g in groups]
    taken = {i for g in groups for i in g}
    breakdown = take_breakdown(action["card"], facts, len(taken) == len(centre))
    return {"cards": breakdown["cards"], "groups": len(groups), "points": breakdown["total"],
            "operations": max(group_operations(f) for f in facts)}


def _chosen_build(pos: dict, action: dict) -> dict:
    card = action.get("card")
    if not (type(card) is str and card in pos["hand"] and is_number(card)):
        return {}
    centre = pos["centre"]
    names = action.get("with") if type(action.get("with")) is list else []
    indices = {rules.item_index(centre, c) for c in names if type(c) is str} - {None}
    value = value_of(card) + sum(centre[i]["value"] for i in indices)
    held = rules.has_answer(pos["hand"], card, value)
    return {"build_value": value, "answer_held": held, "bluff": not held}
