"""Facts about one Numero decision for the skill reports (docs/reports.md, "The principles";
the definitions: docs/reports.md).

Computed on the state before the action, never raising (a refused attempt is analysed too).
The strategy measures compare the student's choice with the EXPERT BOT's own judgement of the
same position (expert.py `ExpertBot.judge`, from the student's view, with no dice), made once
per decision and only for an accepted take, build or discard (the moves that end a turn):
- `expert`: what the expert would do here ("take", "build", "discard", or "wild" when it
  would first play a wild card, then take) and `expert_take`, the take it values most
  (cards, card, groups, wild steps), whether or not it would take.
- nu.missed_take: `take_chance` (the expert would end this turn with a take, and a build or
  discard was allowed) and `missed_take` (a build or discard instead).
- nu.best_take (a take): `chosen` (cards, groups, points), `smallest_take` (the fewest cards
  a take could win right now), `best_take_chance` (a take smaller than the expert's was
  possible right now) and `cards_left_behind` (the expert's take minus the chosen one, >= 0).
- nu.valid_build (a build): `build_value`, `answer_held` / `bluff`, and
  `wrong_build_possible` (some build without its answer card could be tried; a refused
  `no_answer_card` attempt proves it).
- all.rule_errors / all.think_time: `legal`, `code`, `kind`.
`smallest_take` and `build_without_answer` are shared with the planted player (planted.py),
so it asks its quotas exactly where these facts make a chance.
"""

from __future__ import annotations

from ..errors import IllegalMove
from . import rules
from .cards import is_number, sort_cards, value_of
from .expert import ExpertBot, Judgement
from .scoring import item_facts, take_breakdown
from .search import number_cards
from .view import position, search_items

BUILD_OPERATION = "+"  # a build adds its card to the centre items it joins: its operation

TURN_ENDING = ("take", "build", "discard")


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
    out.update({"on_turn": player in engine.waiting_for(state),
                "final_turn": pos["final_turn"], "solitaire": pos["solitaire"]})
    if kind == "build":
        out.update(_chosen_build(pos, action))
        out["wrong_build_possible"] = out["code"] == "no_answer_card" or (
            out["legal"] and build_without_answer(pos) is not None)
    if not (out["legal"] and kind in TURN_ENDING and out["on_turn"]):
        return out
    judged = judge(engine, state, player)
    out.update(judgement_facts(pos, judged))
    if kind in ("build", "discard"):
        out["missed_take"] = out["take_chance"]
    if kind == "take":
        chosen = _chosen_take(pos, action)
        out["chosen"] = chosen
        smallest = smallest_take(search_items(pos["centre"]), pos["hand"])
        out["smallest_take"] = None if smallest is None else smallest[0]
        expert_cards = None if judged.take is None else judged.take.cards
        out["best_take_chance"] = bool(expert_cards and smallest and smallest[0] < expert_cards)
        if chosen is not None and expert_cards is not None:
            out["cards_left_behind"] = max(0, expert_cards - chosen["cards"])
    return out


def judge(engine, state: dict, player: str) -> Judgement:
    """The expert's judgement of the player's position, from what the player's own view shows
    (the parts of `view(state, player)` it reads, shared with the state, not copied: the
    judgement only reads them)."""
    pos = position(state, player)
    seen = {
        "me": player, "hand": sort_cards(pos["hand"]), "centre": pos["centre"],
        "options": pos["options"], "solitaire": pos["solitaire"],
        "final_turn": pos["final_turn"], "previous_turn": pos["previous_turn"],
        "players": state["players"], "out": state["out"], "won": state["won"],
        "hand_counts": {p: len(h) for p, h in state["hands"].items()},
        "challengeable": [],  # the judgement of a turn-ending decision leaves challenges aside
    }
    return ExpertBot(engine, 0).judge(seen)


def judgement_facts(pos: dict, judged: Judgement) -> dict:
    """What the analysis records of the expert's judgement (the planted player reads the
    same facts of its own view)."""
    first = judged.steps[0]["type"]
    return {
        "expert": "wild" if first == "wild" and judged.takes else first,
        "expert_take": None if judged.take is None else _describe_plan(pos, judged.take),
        "take_chance": judged.takes and not (pos["final_turn"] or pos["solitaire"]),
    }


def smallest_take(items, hand) -> tuple[int, str, list[int]] | None:
    """The take winning the fewest cards with the centre as it is (no more wild cards):
    (cards, taking card, centre indices of its one group), or None when no take is possible.
    The fewest cards per sum of items is a small knapsack (sums are at most the biggest card)."""
    cards = sorted({value_of(c): c for c in sorted(number_cards(hand), reverse=True)}.items())
    if not cards or not items:
        return None
    top = cards[-1][0]
    # fewest[s] = (cards, indices) of the items adding up to s with the fewest cards
    fewest: list[tuple[int, tuple[int, ...]] | None] = [(0, ())] + [None] * top
    for i, (value, facts) in enumerate(items):
        if not 1 <= value <= top:
            continue
        for s in range(top, value - 1, -1):
            below = fewest[s - value]
            if below is not None and (fewest[s] is None or below[0] + facts[0] < fewest[s][0]):
                fewest[s] = (below[0] + facts[0], below[1] + (i,))
    found = [(fewest[v][0] + 1, card, list(fewest[v][1])) for v, card in cards
             if fewest[v] is not None]
    return min(found, key=lambda f: (f[0], value_of(f[1]))) if found else None


def build_without_answer(pos: dict, first: str | None = None) -> dict | None:
    """A build that does not keep its answer card: without challenges the engine refuses it
    (`no_answer_card`); with challenges it is a bluff (no bigger than the biggest card).
    Tries the card `first` first, each card on one centre item, then on more; None when every
    build keeps its answer."""
    if pos["solitaire"] or pos["final_turn"]:
        return None
    top = pos["options"]["max_number"] if pos["options"].get("challenges") else None
    centre, hand = pos["centre"], pos["hand"]
    names = [item["cards"][0] for item in centre]
    cards = sorted({c for c in hand if is_number(c)}, key=lambda c: (c != first, value_of(c), c))
    # sums of centre items: one item each, then any set (first found per sum)
    sums: dict[int, tuple[int, ...]] = {}
    for i, item in enumerate(centre):
        for s, indices in list(sums.items()):
            sums.setdefault(s + item["value"], indices + (i,))
        sums.setdefault(item["value"], (i,))
    singles = [(item["value"], (i,)) for i, item in enumerate(centre)]
    for card in cards:
        for s, indices in singles + sorted(sums.items()):
            total = value_of(card) + s
            if (top is None or total <= top) and not rules.has_answer(hand, card, total):
                return {"type": "build", "card": card, "with": [names[i] for i in indices]}
    return None


def _describe_plan(pos: dict, plan) -> dict:
    name = [item["cards"][0] for item in pos["centre"]]
    return {"cards": plan.cards, "card": plan.card,
            "groups": [[name[i] for i, _ in g] for g in plan.groups],
            "wild_steps": [{"card": w, "target": name[k]} for w, k in plan.wild_steps]}


def _chosen_take(pos: dict, action: dict) -> dict | None:
    try:
        groups = rules.check_take(pos, action)
    except (IllegalMove, KeyError, TypeError):
        return None
    centre = pos["centre"]
    facts = [[item_facts(centre[i]["cards"], centre[i]["build"]) for i in g] for g in groups]
    taken = {i for g in groups for i in g}
    breakdown = take_breakdown(action["card"], facts, len(taken) == len(centre))
    return {"cards": breakdown["cards"], "groups": len(groups), "points": breakdown["total"]}


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
