"""Checking one Numero action against a *position*: the data a player can see.

A position is a dict with `hand` (the acting player's cards), `centre`, `options`,
`solitaire`, `final_turn` (this turn may only end with a take) and, for challenges, `me`,
`previous_turn` ({name: number of that player's previous turn}). The engine builds it from
the state (`position(state, player)`) and a player's view holds the same keys, so the
engine's validation, the bots and the UI's selection helper all use these functions.

Precedence of the game's codes (after the core's bad_action, unknown_player, game_over,
not_your_turn):
  wild_not_in_pack   the card is a wild card of a family this game leaves out (checked
                     before not_in_hand: nobody can hold such a card, so it would otherwise
                     never be reported)
  not_in_hand
  not_a_number_card / not_a_wild_card
  builds_not_allowed, discards_not_allowed (Solitaire), challenge_not_allowed (option off),
  must_take (a final turn)            - the kind of move is not allowed at all
  unknown_item, item_reused           - the named centre items
  group_mismatch, build_too_big, no_answer_card, wild_result_invalid,
  challenge_not_allowed (that item cannot be challenged)  - the arithmetic and the target
"""

from __future__ import annotations

from collections import Counter

from .cards import apply_wild, family_of, in_pack, is_number, is_wild, symbol, value_of, words
from ..errors import IllegalMove
from ..words import _


def fail(code: str, message: str):
    raise IllegalMove(code, message)


def item_index(centre: list[dict], code: str) -> int | None:
    """The centre item holding the card `code` (any of its cards names it)."""
    for i, item in enumerate(centre):
        if code in item["cards"]:
            return i
    return None


def _card_in_hand(pos: dict, code: str) -> None:
    if is_wild(code) and not in_pack(code, pos["options"]):
        fail("wild_not_in_pack", _("The %(card)s is not in the pack in this game.", card=words(code)))
    if code not in pos["hand"]:
        fail("not_in_hand", _("You don't have the %(card)s in your hand.", card=words(code)))


def number_card(pos: dict, code: str) -> int:
    _card_in_hand(pos, code)
    if not is_number(code):
        fail("not_a_number_card",
             _("The %(card)s is not a number card: play it on a centre card first, "
               "then use a number card.", card=words(code)))
    return value_of(code)


def named_items(pos: dict, codes: list[str], seen: set[int]) -> list[int]:
    """Centre indices for codes; every code must name an item, every item only once."""
    centre = pos["centre"]
    indices = []
    for code in codes:
        index = item_index(centre, code)
        if index is None:
            fail("unknown_item", _("There is no %(card)s in the centre.", card=words(code)))
        indices.append(index)
    for index in indices:
        if index in seen:
            fail("item_reused", _("You used the same centre card twice. Each card can only be used once."))
        seen.add(index)
    return indices


def check_wild(pos: dict, action: dict) -> tuple[int, int]:
    """-> (item index, new value)"""
    code = action["card"]
    _card_in_hand(pos, code)
    if not is_wild(code):
        fail("not_a_wild_card", _("Your %(card)s is a number card, not a wild card.", card=words(code)))
    index = item_index(pos["centre"], action["target"])
    if index is None:
        fail("unknown_item", _("There is no %(card)s in the centre.", card=words(action["target"])))
    before = pos["centre"][index]["value"]
    after = apply_wild(code, before)
    if after is None:
        fail("wild_result_invalid", _wild_refusal(code, before))
    return index, after


def _wild_refusal(code: str, value: int) -> str:
    family = family_of(code)
    if family == "subtract":
        return _("%(value)s − %(minus)s would be less than 1, so you can't play the %(card)s here.",
                 value=value, minus=code[1:], card=words(code))
    if family == "power":
        if code == "sqrt":
            return _("%(value)s is not a perfect square, so its root is not a whole number.", value=value)
        return _("%(value)s is not a perfect cube, so its root is not a whole number.", value=value)
    return _("%(card)s on %(value)s does not give a whole number, so you can't play it here.",
             card=symbol(code), value=value)


def check_discard_wild(pos: dict, action: dict) -> None:
    code = action["card"]
    _card_in_hand(pos, code)
    if not is_wild(code):
        fail("not_a_wild_card", _("Your %(card)s is a number card, not a wild card.", card=words(code)))
    if pos["solitaire"]:
        fail("discards_not_allowed", _("In Solitaire you can't throw cards away."))


def challengeable(pos: dict, item: dict) -> bool:
    """Can the player on turn (`me`) challenge this item now?"""
    return bool(item["build"]) and item["builder"] != pos["me"] and not item["challenged"] \
        and item["turn"] > pos["previous_turn"].get(pos["me"], 0)


def check_challenge(pos: dict, action: dict) -> int:
    if pos["solitaire"] or not pos["options"].get("challenges"):
        fail("challenge_not_allowed", _("Challenges are not part of this game."))
    index = item_index(pos["centre"], action["target"])
    if index is None:
        fail("unknown_item", _("There is no %(card)s in the centre.", card=words(action["target"])))
    item = pos["centre"][index]
    if not item["build"]:
        fail("challenge_not_allowed", _("You can only challenge a build."))
    if item["builder"] == pos["me"]:
        fail("challenge_not_allowed", _("You can't challenge your own build."))
    if item["challenged"]:
        fail("challenge_not_allowed", _("That build has already been challenged."))
    if not challengeable(pos, item):
        fail("challenge_not_allowed",
             _("You can only challenge a build made since your last turn."))
    return index


def check_take(pos: dict, action: dict) -> list[list[int]]:
    """-> groups of centre indices"""
    value = number_card(pos, action["card"])
    seen: set[int] = set()
    groups = [named_items(pos, group, seen) for group in action["groups"]]
    centre = pos["centre"]
    for group in groups:
        total = sum(centre[i]["value"] for i in group)
        if total != value:
            if len(group) == 1:
                fail("group_mismatch", _("That centre card is worth %(total)s, not %(value)s, so your "
                                         "%(card)s can't take it.", total=total, value=value,
                                         card=words(action["card"])))
            sentence = " + ".join(str(centre[i]["value"]) for i in group)
            fail("group_mismatch", _("%(sum)s = %(total)s, not %(value)s, so your %(card)s can't "
                                     "take those cards.", sum=sentence, total=total, value=value,
                                     card=words(action["card"])))
    return groups


def check_build(pos: dict, action: dict) -> tuple[list[int], int]:
    """-> (centre indices, build value)"""
    code = action["card"]
    value = number_card(pos, code)
    if pos["solitaire"]:
        fail("builds_not_allowed", _("In Solitaire you can only take, not build."))
    if pos["final_turn"]:
        fail("must_take", _("This is your last turn: you can only take."))
    indices = named_items(pos, action["with"], set())
    centre = pos["centre"]
    total = value + sum(centre[i]["value"] for i in indices)
    top = pos["options"]["max_number"]
    if pos["options"].get("challenges"):
        if total > top:
            fail("build_too_big", _("A build of %(total)s is bigger than %(top)s, the biggest card.", total=total, top=top))
    elif not has_answer(pos["hand"], code, total):
        fail("no_answer_card", _("To build %(total)s you must keep a %(total)s card in your hand.", total=total))
    return indices, total


def has_answer(hand: list[str], played: str, total: int) -> bool:
    """Does the hand still hold a number card of value `total` after playing `played`?"""
    left = Counter(hand)
    left[played] -= 1
    return any(n > 0 and is_number(c) and value_of(c) == total for c, n in left.items())


def check_discard(pos: dict, action: dict) -> None:
    number_card(pos, action["card"])
    if pos["solitaire"]:
        fail("discards_not_allowed", _("In Solitaire you can only take, not discard."))
    if pos["final_turn"]:
        fail("must_take", _("This is your last turn: you can only take."))


CHECKS = {
    "wild": check_wild,
    "discard_wild": check_discard_wild,
    "challenge": check_challenge,
    "take": check_take,
    "build": check_build,
    "discard": check_discard,
}


def check(pos: dict, action: dict):
    """Raise IllegalMove if the (well-shaped) action is not allowed; else return what the
    check resolved (indices, values) for the engine to apply."""
    return CHECKS[action["type"]](pos, action)
