"""The list of legal actions in a position (a view works as well as the state's position).

Free steps are listed in full (every wild card on every item it fits, discarding a wild card,
challenging a build). Turn-ending steps: every take as the centre is now (each set of
disjoint groups once, items named by their first card), every build (each set of items once)
and every discard. A crowded centre can have very many takes and builds, so this is a
generator and `legal_actions` takes a `limit`; the UI uses selection.py instead, and the
bots use the search directly.
"""

from __future__ import annotations

from itertools import islice

from . import rules
from .cards import apply_wild, is_number, sort_cards, value_of
from .search import TakeSearch
from .view import search_items


def iter_legal_actions(pos: dict):
    if pos.get("finished") or pos.get("turn") not in (None, pos["me"]):
        return
    hand = sort_cards(set(pos["hand"]))
    centre = pos["centre"]
    wilds = [c for c in hand if not is_number(c)]
    numbers = [c for c in hand if is_number(c)]
    for w in wilds:
        for item in centre:
            if apply_wild(w, item["value"]) is not None:
                yield {"type": "wild", "card": w, "target": item["cards"][0]}
    if not pos["solitaire"]:
        for w in wilds:
            yield {"type": "discard_wild", "card": w}
    if pos["options"].get("challenges") and not pos["solitaire"]:
        for item in centre:
            if rules.challengeable(pos, item):
                yield {"type": "challenge", "target": item["cards"][0]}
    if not numbers:
        return
    search = TakeSearch(search_items(centre))
    names = [item["cards"][0] for item in centre]
    for card in numbers:
        for groups in search.iter_takes(value_of(card)):
            yield {"type": "take", "card": card, "groups": [[names[i] for i in g] for g in groups]}
    if pos["solitaire"] or pos["final_turn"]:
        return
    for card in numbers:
        for indices in build_sets(pos, card):
            yield {"type": "build", "card": card, "with": [names[i] for i in indices]}
    for card in numbers:
        yield {"type": "discard", "card": card}


def build_sets(pos: dict, card: str):
    """Sets of centre items that make a legal build with `card` (depth first, small first)."""
    centre = pos["centre"]
    top = pos["options"]["max_number"]
    start = value_of(card)
    bluffs = bool(pos["options"].get("challenges"))

    def extend(i: int, total: int, chosen: list[int]):
        if chosen and (total <= top if bluffs else rules.has_answer(pos["hand"], card, total)):
            yield list(chosen)
        for j in range(i, len(centre)):
            value = total + centre[j]["value"]
            if value <= top:
                chosen.append(j)
                yield from extend(j + 1, value, chosen)
                chosen.pop()

    return extend(0, start, [])


def legal_actions(pos: dict, limit: int | None = None) -> list[dict]:
    return list(islice(iter_legal_actions(pos), limit))
