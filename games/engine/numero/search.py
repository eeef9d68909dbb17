"""The one search for takes over centre items, with wild cards applied in any order.

Everything that needs to know about takes goes through here: the engine (is any take
possible, for final turns and the end of Solitaire), the bots (the best take), the skill
analysis (the largest take, the most operations) and the UI's selection helper (can this
selection still be completed).

How it works
- Wild cards: for each centre item, `item_options` lists every (wild cards used, value)
  reachable by applying distinct wild cards from the hand one after another, each step
  giving a whole number >= 1 (the spec's condition). (used, value) pairs are deduplicated,
  so a hand of five wild cards gives at most 32 x (a few values) options per item, with one
  witness order of the cards for each.
- A group (one take) is a subset of items, each with one option, whose values add up to the
  taking card's value; items are distinct and the wild cards of the group's items are
  disjoint. `_subsets` enumerates them depth first with subset-sum pruning: options are
  only kept when their value fits, and a suffix sum of each remaining item's largest fitting
  value stops a branch as soon as the rest cannot reach the target.
- A multiple take is several disjoint groups for the same card. Groups are generated in a
  canonical order (by their lowest item index), so each set of groups is seen once, and the
  best total is a dynamic programme over (next index, items used, wild cards used) with
  memoisation. The objective is additive over groups (cards won, or points), plus a bonus
  when every item is taken (clearing the centre).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from .cards import apply_wild, colour_of, is_number, value_of
from .scoring import CLEAR_BONUS, card_points, group_points, with_wilds

Option = tuple  # (wild mask, value, wild codes in the order they are applied)


@lru_cache(maxsize=65536)
def item_options(value: int, wilds: tuple[str, ...]) -> tuple[Option, ...]:
    """Every (mask of wilds used, resulting value, one witness order) for one item."""
    found: dict[tuple[int, int], tuple[str, ...]] = {}

    def visit(v: int, mask: int, seq: tuple[str, ...]) -> None:
        if (mask, v) in found:  # what follows depends only on (value, cards left)
            return
        found[(mask, v)] = seq
        for i, w in enumerate(wilds):
            if not mask >> i & 1:
                nv = apply_wild(w, v)
                if nv is not None:
                    visit(nv, mask | 1 << i, seq + (w,))

    visit(value, 0, ())
    return tuple((mask, v, seq) for (mask, v), seq in found.items())


@dataclass
class TakePlan:
    """A take the hand can make: wild steps (per item, in order) then the take itself."""

    card: str
    groups: list[list[tuple[int, tuple[str, ...]]]]  # per group: (item index, wilds on it)
    cards: int = 0  # cards won, the taking card included
    score: int = 0  # the objective that chose it (cards or points)
    wild_steps: list[tuple[str, int]] = field(default_factory=list)  # (wild, item index)

    @property
    def items(self) -> list[int]:
        return [i for g in self.groups for i, _ in g]


class CentreSearch:
    """Searches takes on one centre for one hand's wild cards.

    `items` is a list of (value, facts) (facts from scoring.item_facts); `wilds` the wild
    cards that may still be applied (a tuple of codes; empty for "as the centre is now").
    """

    def __init__(self, items: list[tuple[int, tuple]], wilds: tuple[str, ...] = ()):
        self.values = [v for v, _ in items]
        self.facts = [f for _, f in items]
        self.wilds = tuple(wilds)
        self.m = len(items)
        self.all_items = (1 << self.m) - 1
        self._options = [item_options(v, self.wilds) for v in self.values]
        self._tables: dict[int, tuple] = {}

    # ----- the enumeration every question shares ---------------------------------------
    def _table(self, limit: int):
        """Options with value <= limit (largest first) and suffix sums of the largest."""
        table = self._tables.get(limit)
        if table is None:
            opts = [sorted((o for o in options if o[1] <= limit), key=lambda o: -o[1])
                    for options in self._options]
            suffix = [0] * (self.m + 1)
            for i in range(self.m - 1, -1, -1):
                suffix[i] = suffix[i + 1] + (opts[i][0][1] if opts[i] else 0)
            table = self._tables[limit] = (opts, suffix)
        return table

    def _subsets(self, limit: int, start: int, rem: int, used: int, wused: int):
        """Yield ([(index, option)], items mask, wilds mask): free items >= start, each with
        one option whose wilds are free and disjoint, values adding up to exactly rem."""
        opts, suffix = self._table(limit)
        m = self.m

        def extend(j: int, rem: int, used: int, wused: int, chosen: list):
            if rem == 0:
                yield list(chosen), used, wused
                return
            if rem > suffix[j]:
                return
            for k in range(j, m):
                if used >> k & 1:
                    continue
                if rem > suffix[k]:
                    return
                bit = 1 << k
                for option in opts[k]:
                    mask, v = option[0], option[1]
                    if v > rem or mask & wused:
                        continue
                    chosen.append((k, option))
                    yield from extend(k + 1, rem - v, used | bit, wused | mask, chosen)
                    chosen.pop()

        return extend(start, rem, used, wused, [])

    def groups_from(self, target: int, first: int, used: int = 0, wused: int = 0):
        """Every group for `target` whose lowest item is `first`."""
        if used >> first & 1:
            return
        opts, _ = self._table(target)
        for option in opts[first]:
            if option[0] & wused:
                continue
            rest = target - option[1]
            for chosen, u, w in self._subsets(target, first + 1, rest, used | 1 << first,
                                              wused | option[0]):
                yield [(first, option)] + chosen, u, w

    def groups(self, target: int, used: int = 0, wused: int = 0):
        for first in range(self.m):
            yield from self.groups_from(target, first, used, wused)

    # ----- questions ----------------------------------------------------------------------
    def has_group(self, target: int) -> bool:
        return next(self.groups(target), None) is not None

    def can_fill(self, deficits: list[int], used: int) -> bool:
        """Can disjoint subsets of the free items add up to each deficit (no wilds)?"""
        if not deficits:
            return True
        head, rest = deficits[0], deficits[1:]
        if head <= 0:
            return head == 0 and self.can_fill(rest, used)
        for _chosen, u, _w in self._subsets(max(head, 1), 0, head, used, 0):
            if self.can_fill(rest, u):
                return True
        return False

    def best(self, card: str, objective: str = "cards", max_groups: int | None = None):
        """The best take with `card` by `objective` ("cards" or "points"), or None.

        `max_groups` caps how many groups (takes) the step may hold (None: no cap)."""
        target = value_of(card)
        facts = self.facts
        full = self.all_items
        m = self.m
        groups_from = self.groups_from
        memo: dict[tuple, tuple[int, tuple]] = {}

        def group_value(group) -> int:
            if objective == "cards":
                return sum(facts[k][0] + len(o[2]) for k, o in group)
            return group_points(card, [with_wilds(facts[k], o[2]) for k, o in group])

        def solve(p: int, used: int, wused: int, left: int) -> tuple[int, tuple]:
            key = (p, used, wused, left)
            hit = memo.get(key)
            if hit is not None:
                return hit
            result = (CLEAR_BONUS if objective == "points" and used == full else 0, ())
            if left != 0:
                for first in range(p, m):
                    if used >> first & 1:
                        continue
                    for group, u, w in groups_from(target, first, used, wused):
                        value, rest = solve(first + 1, u, w, left - 1 if left > 0 else left)
                        value += group_value(group)
                        if value > result[0]:
                            result = (value, (group,) + rest)
            memo[key] = result
            return result

        value, groups = solve(0, 0, 0, -1 if max_groups is None else max_groups)
        if not groups:
            return None
        const = 1 if objective == "cards" else card_points(card)
        return self._plan(card, groups, value + const)

    def _plan(self, card: str, groups, score: int) -> TakePlan:
        plan_groups = [[(k, o[2]) for k, o in g] for g in groups]
        cards = 1 + sum(self.facts[k][0] + len(seq) for g in plan_groups for k, seq in g)
        steps = [(w, k) for g in plan_groups for k, seq in g for w in seq]
        return TakePlan(card, plan_groups, cards, score, steps)

    def iter_takes(self, target: int):
        """Every set of disjoint groups for `target` (no wilds), each set once."""

        def collections(p: int, used: int):
            for first in range(p, self.m):
                for group, u, _w in self.groups_from(target, first, used, 0):
                    indices = [k for k, _ in group]
                    yield [indices]
                    for rest in collections(first + 1, u):
                        yield [indices] + rest

        return collections(0, 0)


# ----- convenience over a hand -------------------------------------------------------------
def number_cards(hand: list[str]) -> list[str]:
    return [c for c in hand if is_number(c)]


def wild_cards(hand: list[str]) -> tuple[str, ...]:
    return tuple(c for c in hand if not is_number(c))


def distinct_takers(hand: list[str], objective: str) -> list[str]:
    """One taking card per distinct outcome: per value (cards), per value and colour (points)."""
    seen, out = set(), []
    for card in sorted(number_cards(hand), key=lambda c: (value_of(c), c)):
        key = value_of(card) if objective == "cards" else (value_of(card), colour_of(card))
        if key not in seen:
            seen.add(key)
            out.append(card)
    return out


def any_take(items, hand: list[str], use_wilds: bool = True) -> bool:
    """Is any take possible now, counting every way the hand's wild cards could be applied?"""
    cards = number_cards(hand)
    if not cards or not items:
        return False
    search = CentreSearch(items, wild_cards(hand) if use_wilds else ())
    return any(search.has_group(t) for t in sorted({value_of(c) for c in cards}))


def best_take(items, hand: list[str], objective: str = "cards", use_wilds: bool = True):
    """The best take plan over every taking card in hand, or None when no take is possible."""
    cards = number_cards(hand)
    if not cards or not items:
        return None
    search = CentreSearch(items, wild_cards(hand) if use_wilds else ())
    best = None
    for card in distinct_takers(hand, objective):
        plan = search.best(card, objective)
        if plan is not None and (best is None or plan.score > best.score):
            best = plan
    return best
