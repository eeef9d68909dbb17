"""The UI's incremental selection helper: `selection(view, card, picked)`.

A player picks a number card from the hand, then centre items group by group. After every
click the UI asks what the selection allows now. This is a pure function of a view (the
player's own view is enough) and answers:

- `groups`: each picked group with its values, total, and whether it is complete;
- `addable`: items that may be added to the current (last) group so that the selection can
  still be completed into a valid take (checked by the search, not just "not too big");
- `new_group`: items that may start a new group (once the current group is complete);
- `take`: whether the selection is a valid take now, else the engine's error code and
  sentence (exactly what the engine would answer);
- `build`: the build value c + everything picked (groups ignored), whether it is a valid
  build now and why not, and `addable` items that keep a valid build within reach.

`picked` is a list of groups, each a list of item names (any card code of an item).
"""

from __future__ import annotations

from ..errors import IllegalMove
from ..words import _
from . import rules
from .cards import is_code
from .search import TakeSearch
from .view import search_items


def _verdict(check, pos: dict, action: dict) -> dict:
    if pos.get("finished"):
        return {"valid": False, "code": "game_over", "message": _("The game is over.")}
    if pos.get("turn") != pos.get("me"):
        return {"valid": False, "code": "not_your_turn", "message": _("It is not your turn yet.")}
    try:
        check(pos, action)
    except IllegalMove as exc:
        return {"valid": False, "code": exc.code, "message": exc.message}
    return {"valid": True, "code": None, "message": None}


def selection(view: dict, card, picked) -> dict:
    pos = dict(view)
    pos["hand"] = view.get("hand") or []
    out = {"card": card, "value": None, "error": None, "groups": [], "running_value": 0,
           "addable": [], "new_group": [],
           "take": {"valid": False, "code": None, "message": None},
           "build": {"value": None, "valid": False, "code": None, "message": None,
                     "addable": []}}
    bad = _malformed(card, picked)
    if bad:
        return _refused(out, "bad_action", bad)
    groups_named = [list(g) for g in picked]
    flat = [code for g in groups_named for code in g]
    try:  # the card itself, then the picked items (engine order and messages)
        t = rules.number_card(pos, card)
        seen: set[int] = set()
        groups = [rules.named_items(pos, g, seen) for g in groups_named]
    except IllegalMove as exc:
        return _refused(out, exc.code, exc.message)
    centre = pos["centre"]
    out["value"] = t
    for g in groups:
        total = sum(centre[i]["value"] for i in g)
        out["groups"].append({"items": [centre[i]["cards"][0] for i in g],
                              "values": [centre[i]["value"] for i in g],
                              "total": total, "complete": total == t})
    out["running_value"] = out["groups"][-1]["total"] if out["groups"] else 0

    search = TakeSearch(search_items(centre))
    sorted_of = {c: k for k, c in enumerate(search.order)}
    used = {i for g in groups for i in g}
    free = [i for i in range(len(centre)) if i not in used]
    deficits = [t - g["total"] for g in out["groups"]]

    def completable(extra_deficits: list[int], taken: set[int]) -> bool:
        mask = sum(1 << sorted_of[i] for i in taken)
        return all(d >= 0 for d in extra_deficits) and search.can_fill(
            [d for d in extra_deficits if d > 0], mask)

    if groups_named and deficits and deficits[-1] > 0:
        for i in free:
            trial = deficits[:-1] + [deficits[-1] - centre[i]["value"]]
            if completable(trial, used | {i}):
                out["addable"].append(centre[i]["cards"][0])
    if not groups_named or all(d == 0 for d in deficits):
        for i in free:
            if completable(deficits + [t - centre[i]["value"]], used | {i}):
                out["new_group"].append(centre[i]["cards"][0])

    if flat:
        out["take"] = _verdict(rules.check_take, pos, {"type": "take", "card": card,
                                                       "groups": [g for g in groups_named if g]})
    else:
        out["take"] = {"valid": False, "code": "bad_action",
                       "message": _("Pick the centre cards your card should take.")}
    out["build"] = _build_part(pos, card, t, flat, used, free)
    return out


def _build_part(pos: dict, card: str, t: int, flat: list[str], used: set[int], free: list[int]):
    centre = pos["centre"]
    value = t + sum(centre[i]["value"] for i in used)
    part = {"value": value, "addable": []}
    if flat:
        part.update(_verdict(rules.check_build, pos, {"type": "build", "card": card, "with": flat}))
    else:
        part.update({"valid": False, "code": "bad_action",
                     "message": _("Pick the centre cards to build on.")})
    top = pos["options"]["max_number"]
    if pos["options"].get("challenges"):
        targets = set(range(1, top + 1))
    else:
        targets = {v for v in range(1, top + 1) if rules.has_answer(pos["hand"], card, v)}
    for i in free:
        start = value + centre[i]["value"]
        rest = [centre[j]["value"] for j in free if j != i]
        reach = 1  # bit s set: some subset of the rest adds up to s
        for v in rest:
            reach |= reach << v
        if any(target >= start and reach >> (target - start) & 1 for target in targets):
            part["addable"].append(centre[i]["cards"][0])
    return part


def _malformed(card, picked) -> str | None:
    if not is_code(card):
        return _("Choose a card from your hand first.")
    if type(picked) is not list or not all(
            type(g) is list and all(is_code(c) for c in g) for g in picked):
        return _("The picked cards are not written the right way.")
    return None  # a wild card is reported by the rules (not_a_number_card)


def _refused(out: dict, code: str, message: str) -> dict:
    out["error"] = {"code": code, "message": message}
    out["take"] = {"valid": False, "code": code, "message": message}
    out["build"].update({"valid": False, "code": code, "message": message})
    return out
