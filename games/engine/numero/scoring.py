"""Numero's points (with the `scoring` option): one take step, and the end adjustments.

A take step with card c and groups G1..Gk scores
  k (one per take) + every card won (c once) + their printed points
  + per group (n = its cards + c): size 2 (n = 5) or 5 (n >= 6); operations 5 (three kinds)
    or 10 (all four); and when n >= 5, 5 for all four colours, 5 for one colour only
  + 5 when the take leaves the centre empty.
The same functions score the engine's takes and the search's candidate takes, so the bots
and the skill analysis measure exactly what the engine awards.
"""

from __future__ import annotations

from .cards import colour_of, is_number, printed_points, wild_ops

CLEAR_BONUS = 5
MOST_CARDS_BONUS = 10


class Facts(tuple):
    """What scoring needs to know about a centre item: (cards, printed, colours, ops, build)."""

    __slots__ = ()

    @property
    def cards(self) -> int:
        return self[0]


def item_facts(cards: list[str], build: bool) -> Facts:
    colours = frozenset(colour_of(c) for c in cards if is_number(c))
    ops = frozenset().union(*(wild_ops(c) for c in cards if not is_number(c)))
    return Facts((len(cards), sum(printed_points(c) for c in cards), colours, ops, build))


def with_wilds(facts: Facts, wilds: tuple[str, ...]) -> Facts:
    """The facts of an item after the wild cards `wilds` have been applied to it."""
    if not wilds:
        return facts
    n, printed, colours, ops, build = facts
    extra = frozenset().union(*(wild_ops(w) for w in wilds))
    return Facts((n + len(wilds), printed + sum(printed_points(w) for w in wilds), colours,
                  ops | extra, build))


def group_detail(card: str, group: list[Facts]) -> dict:
    """Points of one group (one take) of a take step, c's own card and points excluded."""
    n = 1 + sum(f[0] for f in group)
    ops = set().union(*(f[3] for f in group))
    if len(group) >= 2 or any(f[4] for f in group):
        ops.add("+")
    colours = set().union(*(f[2] for f in group)) | {colour_of(card)}
    size = 5 if n >= 6 else 2 if n == 5 else 0
    op_bonus = 10 if len(ops) >= 4 else 5 if len(ops) == 3 else 0
    colour_bonus = 0
    if n >= 5:
        colour_bonus = 5 * ((len(colours) == 4) + (len(colours) == 1))
    won = n - 1
    printed = sum(f[1] for f in group)
    return {"cards": n, "operations": sorted(ops, key="+-x/".index), "size_bonus": size,
            "operation_bonus": op_bonus, "colour_bonus": colour_bonus,
            "points": 1 + won + printed + size + op_bonus + colour_bonus,
            "won": won, "printed": printed}


def group_points(card: str, group: list[Facts]) -> int:
    return group_detail(card, group)["points"]


def card_points(card: str) -> int:
    """What the taking card itself adds to a take step: one card plus its printed points."""
    return 1 + printed_points(card)


def take_breakdown(card: str, groups: list[list[Facts]], clears: bool) -> dict:
    details = [group_detail(card, g) for g in groups]
    breakdown = {
        "takes": len(groups),
        "cards": 1 + sum(d["won"] for d in details),
        "printed": printed_points(card) + sum(d["printed"] for d in details),
        "size": sum(d["size_bonus"] for d in details),
        "operations": sum(d["operation_bonus"] for d in details),
        "colours": sum(d["colour_bonus"] for d in details),
        "clear": CLEAR_BONUS if clears else 0,
    }
    breakdown["total"] = sum(breakdown.values())
    breakdown["groups"] = details
    return breakdown


def leftover_points(cards: list[str]) -> int:
    """End-of-game value of leftover cards: one point per card plus its printed points."""
    return len(cards) + sum(printed_points(c) for c in cards)
