"""The one search for takes over centre items, with wild cards applied in any order.

Everything that needs to know about takes goes through here: the engine (is any take
possible, for final turns and the end of Solitaire), the bots (the best take), the skill
analysis (the largest take, the most operations in one take), the UI's selection helper
(can this selection still be completed) and the list of legal takes.

The model
- Wild cards: `item_options(value, wilds)` lists, for one centre item, every (wild cards
  used, value) reachable by applying distinct wild cards one after another, each step giving
  a whole number >= 1 (the spec's condition), with one witness order per pair. Pairs are
  deduplicated, so five wild cards give at most 32 x (a few values) options per item.
- A group (one take) is a set of items, each with one option, whose values add up to the
  taking card's value, the items' wild cards being disjoint. `TakeSearch.groups` enumerates
  groups depth first (subset sum over items sorted by value, options that no longer fit are
  skipped, a suffix sum of the largest fitting values cuts a branch that cannot reach the
  target).
- A multiple take is several disjoint groups. `TakeSearch.best` finds the best one by a
  depth-first dynamic programme over (items used, wild cards used, what the open group still
  needs, the open group's last item): a new group always starts with the lowest free item
  (or that item is left in the centre), which makes every set of groups appear once. It is
  memoised and pruned branch-and-bound style with an upper bound (cards of the free items
  that could still be taken + wild cards that some free item could still use) and a
  transposition table that remembers whether a value is exact or only a bound.
- Symmetry: items with the same value and facts, and wild cards with the same effect (and,
  for points, the same operations and printed points), are interchangeable; the search
  uses them in a fixed order, which cuts the work by a large factor in crowded centres.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .cards import apply_wild, colour_of, is_number, printed_points, value_of, wild_effect, wild_ops
from .scoring import CLEAR_BONUS, card_points

NEG = -(10 ** 9)
GROUP_MAX = 21  # a take point + size 5 + operations 10 + colours 5
_OPS_BIT = {"+": 1, "-": 2, "x": 4, "/": 8}
_COLOUR_BIT = {"g": 1, "o": 2, "b": 4, "r": 8}
_POP = [bin(i).count("1") for i in range(1 << 10)]


def popcount(x: int) -> int:
    return bin(x).count("1")


@lru_cache(maxsize=65536)
def item_options(value: int, wilds: tuple[str, ...]) -> tuple[tuple[int, int, tuple], ...]:
    """Every (mask of wilds used, resulting value, one witness order) for one item."""
    found: dict[tuple[int, int], tuple[str, ...]] = {}

    def visit(v: int, mask: int, seq: tuple[str, ...]) -> None:
        if (mask, v) in found:  # what can follow depends only on (value, cards left)
            return
        found[(mask, v)] = seq
        for i, w in enumerate(wilds):
            if not mask >> i & 1:
                nv = apply_wild(w, v)
                if nv is not None:
                    visit(nv, mask | 1 << i, seq + (w,))

    visit(value, 0, ())
    return tuple((mask, v, seq) for (mask, v), seq in found.items())


class _CanonicalWilds(dict):
    """mask -> whether, within each class of interchangeable wild cards, the used ones are
    the first ones (so that the search tries one of several equivalent assignments)."""

    def __init__(self, classes: list[int]):
        super().__init__()
        self.classes = classes

    def __missing__(self, mask: int) -> bool:
        ok = True
        for cm in self.classes:
            x = mask & cm
            low = cm & -cm
            if x != cm & ((low << popcount(x)) - low):
                ok = False
                break
        self[mask] = ok
        return ok


@dataclass
class TakePlan:
    """A take the hand can make: wild steps (per item, in order) then the take itself."""

    card: str
    groups: list[list[tuple[int, tuple[str, ...]]]]  # per group: (item index, wilds on it)
    cards: int = 0  # cards won, the taking card included
    score: int = 0  # the objective that chose it (cards or points)

    @property
    def items(self) -> list[int]:
        return [i for g in self.groups for i, _ in g]

    @property
    def wild_steps(self) -> list[tuple[str, int]]:
        """(wild card, item index) in an order that can be played."""
        return [(w, k) for g in self.groups for k, seq in g for w in seq]


class TakeSearch:
    """Takes on one centre for one hand's wild cards.

    `items`: list of (value, facts) with facts from scoring.item_facts (index = centre order).
    `wilds`: wild cards that may still be applied (empty: the centre as it is now).
    `objective`: "cards" (cards won) or "points" (the scoring rules).
    """

    def __init__(self, items, wilds=(), objective: str = "cards"):
        self.objective = objective
        self.m = len(items)
        # Wild cards ordered so that interchangeable ones sit together.
        key = (lambda w: (repr(wild_effect(w)), w)) if objective == "cards" else \
              (lambda w: (repr(wild_effect(w)), tuple(sorted(wild_ops(w))), printed_points(w), w))
        self.wilds = tuple(sorted(wilds, key=key))
        classes: dict = {}
        for i, w in enumerate(self.wilds):
            classes.setdefault(key(w)[:-1], []).append(i)
        self._canonical = _CanonicalWilds(
            [sum(1 << i for i in c) for c in classes.values() if len(c) > 1])
        # Items ordered by value (largest first) so groups close quickly; same class adjacent.
        # Items that only differ in what the objective ignores are interchangeable: for cards,
        # the value and the number of cards; for points, everything scoring looks at.
        def klass_of(item):
            value, facts = item
            return (value, facts[0]) if objective == "cards" else (value, facts)

        self.order = sorted(range(self.m), key=lambda i: (-items[i][0], repr(klass_of(items[i])), i))
        self.values = [items[i][0] for i in self.order]
        self.facts = [items[i][1] for i in self.order]
        klass = [klass_of(items[i]) for i in self.order]
        self.same_as_prev = [k > 0 and klass[k] == klass[k - 1] for k in range(self.m)]
        # the item and the interchangeable ones after it (a class is a run in this order)
        self.class_rest = [0] * self.m
        for k in range(self.m - 1, -1, -1):
            self.class_rest[k] = 1 << k | (self.class_rest[k + 1] if k + 1 < self.m
                                           and self.same_as_prev[k + 1] else 0)
        self.options = [item_options(v, self.wilds) for v in self.values]

    # ----- single groups ---------------------------------------------------------------------
    def groups(self, target: int, used: int = 0, wused: int = 0, symmetric: bool = False,
               start: int = 0):
        """Yield (group, items mask, wilds mask) for every group adding up to target, made of
        free items at sorted index >= start.

        A group is a list of (sorted index, option). Masks are over sorted indices.
        `symmetric=True` skips groups that only swap interchangeable items or wild cards
        (enough for "is there one"); otherwise every distinct set of items is produced.
        """
        m = self.m
        opts = [[o for o in options if o[1] <= target] for options in self.options]
        best_fit = [max((o[1] for o in os), default=0) for os in opts]
        suffix = [0] * (m + 1)
        for k in range(m - 1, -1, -1):
            suffix[k] = suffix[k + 1] + best_fit[k]
        same = self.same_as_prev
        canonical = self._canonical

        def extend(j: int, rem: int, used: int, wused: int, chosen: list):
            if rem == 0:
                yield list(chosen), used, wused
                return
            for k in range(j, m):
                if rem > suffix[k]:
                    return
                if used >> k & 1:
                    continue
                if symmetric and same[k] and k > j and not used >> (k - 1) & 1:
                    continue
                for option in opts[k]:
                    mask, v = option[0], option[1]
                    if v > rem or mask & wused:
                        continue
                    if symmetric and mask and not canonical[wused | mask]:
                        continue
                    chosen.append((k, option))
                    yield from extend(k + 1, rem - v, used | 1 << k, wused | mask, chosen)
                    chosen.pop()

        return extend(start, target, used, wused, [])

    def has_group(self, target: int) -> bool:
        return next(self.groups(target, symmetric=True), None) is not None

    def can_fill(self, deficits: list[int], used: int = 0) -> bool:
        """Can disjoint sets of free items add up to each deficit? (used: sorted-index mask)"""
        if not deficits:
            return True
        head, rest = deficits[0], deficits[1:]
        if head < 0:
            return False
        if head == 0:
            return self.can_fill(rest, used)
        return any(self.can_fill(rest, u) for _g, u, _w in self.groups(head, used))

    # ----- the best multiple take ---------------------------------------------------------------
    def best(self, card: str, better_than: int | None = None) -> TakePlan | None:
        """The best take with `card` by the objective, or None if no take is possible (or,
        with `better_than`, none scores more than that: the search then prunes harder)."""
        t = value_of(card)
        m, nw = self.m, len(self.wilds)
        points = self.objective == "points"
        opts = self._fitting_options(t)
        ok = self._canonical
        same, class_rest = self.same_as_prev, self.class_rest
        wall, full = (1 << nw) - 1, (1 << m) - 1
        bound = self._bound_function(opts, t)
        card_colour = _COLOUR_BIT[colour_of(card)]
        # key layout: used | wilds used | still needed | open group's last item | skipped |
        # open group's (cards capped at 5, operations, colours)
        s_w, s_r = m, m + nw
        s_j = s_r + 4
        s_s = s_j + max(1, m.bit_length())
        s_d = s_s + 1
        memo: dict[int, tuple] = {}

        def close(n: int, ops: int, colours: int) -> int:
            """Points a group adds beyond its items' own: the take and its bonuses."""
            total = n + 1  # n is capped at 5: the bonuses do not look further
            extra = 6 if total >= 6 else 3 if total == 5 else 1
            kinds = _POP[ops]
            extra += 10 if kinds >= 4 else 5 if kinds == 3 else 0
            if total >= 5:
                c = _POP[colours | card_colour]
                extra += 5 if c == 4 or c == 1 else 0
            return extra

        def solve(used, wused, rem, j, skip, n, ops, cols, alpha):
            key = used | wused << s_w | rem << s_r | j << s_j | skip << s_s | \
                (n | ops << 3 | cols << 7) << s_d
            hit = memo.get(key)
            if hit is not None and (hit[1] or hit[0] <= alpha):
                return hit[0]
            limit = bound(used, wused) + (GROUP_MAX if points and rem else 0)
            if limit <= alpha:
                return limit
            best, move = NEG, None
            if rem == 0:
                free = full & ~used
                if not free:
                    value = CLEAR_BONUS if points and not skip else 0
                    memo[key] = (value, True, None)
                    return value
                low = free & -free
                p = low.bit_length() - 1
                candidates, need, plus = (p,), t, 0
            else:
                candidates = [k for k in range(j + 1, m) if not used >> k & 1 and not
                              (same[k] and k - 1 > j and not used >> (k - 1) & 1)]
                need, plus = rem, 1
            for k in candidates:
                bit = 1 << k
                for index, o in enumerate(opts[k]):
                    v = o[1]
                    if v > need:
                        continue
                    mask = o[0]
                    if mask & wused or not ok[wused | mask]:
                        continue
                    gain = o[2]
                    a = (best if best > alpha else alpha) - gain
                    left = need - v
                    if points:
                        n2 = n + o[6]
                        n2 = 5 if n2 > 5 else n2
                        ops2, cols2 = ops | o[4] | plus, cols | o[5]
                        if left:
                            r = solve(used | bit, wused | mask, left, k, skip, n2, ops2, cols2, a)
                        else:
                            extra = close(n2, ops2, cols2)
                            r = solve(used | bit, wused | mask, 0, 0, skip, 0, 0, 0, a - extra)
                            r += extra
                    else:
                        r = solve(used | bit, wused | mask, left, k if left else 0, 0, 0, 0, 0, a)
                    if r <= NEG:
                        continue
                    r += gain
                    if r > best:
                        best, move = r, (k, index)
                        if best >= limit:  # as good as the bound: nothing can beat it
                            break
                if best >= limit:
                    break
            if rem == 0 and best < limit:  # or leave the lowest free item in the centre
                a = best if best > alpha else alpha
                # Taken items of a class come before left ones (any take can be relabelled so),
                # so leaving this item leaves the rest of its class too.
                r = solve(used | (class_rest[p] & free), wused, 0, 0, 1 if points else 0,
                          0, 0, 0, a)
                if r > best:
                    best, move = r, (p, None)
            exact = best > alpha or best <= NEG
            if hit is None or exact or not hit[1]:
                memo[key] = (best, exact, move)
            return best

        def walk() -> list[list[tuple[int, tuple]]]:
            """Follow the remembered best moves from the start to rebuild the groups."""
            used = wused = rem = j = skip = n = ops = cols = 0
            groups, current = [], []
            while True:
                key = used | wused << s_w | rem << s_r | j << s_j | skip << s_s | \
                    (n | ops << 3 | cols << 7) << s_d
                entry = memo.get(key)
                if entry is None or entry[2] is None:
                    return groups
                k, index = entry[2]
                if index is None:  # the item (and the rest of its class) stays in the centre
                    used |= self.class_rest[k] & ~used
                    skip = 1 if points else 0
                    continue
                used |= 1 << k
                o = opts[k][index]
                need, plus = (t, 0) if rem == 0 else (rem, 1)
                current.append((self.order[k], o[3]))
                wused |= o[0]
                rem = need - o[1]
                if points:
                    n, ops, cols = min(5, n + o[6]), ops | o[4] | plus, cols | o[5]
                if rem == 0:
                    groups.append(current)
                    current, j, n, ops, cols = [], 0, 0, 0, 0
                else:
                    j = k

        const = card_points(card) if points else 1
        alpha = 0 if better_than is None else max(0, better_than - const)
        total = solve(0, 0, 0, 0, 0, 0, 0, 0, alpha)
        if total <= alpha:
            return None
        groups = walk()
        if not groups:
            return None
        return self._plan(card, groups, total + const)

    def _bound_function(self, opts, t: int):
        """bound(used, wild mask): the most the free items and wild cards can still add (the
        open group's own take point and bonuses excluded; `best` adds them).

        Cards: every free item that could be taken, plus every spare wild card that some such
        item could use. Points adds their printed points, and per group that could still be
        formed (at most one per item, at most the reachable total / t) its take point, at
        most 10 for size and colours (a group needs 4 cards for those) and at most 10 for
        operations (a group needs a wild card's operations for those)."""
        m, nw = self.m, len(self.wilds)
        points = self.objective == "points"
        full, wall = (1 << m) - 1, (1 << nw) - 1
        # per item: worth, wild cards it could use, counts as one, largest fitting value,
        # its own cards, whether it already carries an operation
        stats = []
        for k in range(m):
            if not opts[k]:
                stats.append(None)
                continue
            n, printed, _colours, ops, build = self.facts[k]
            usable = 0
            for o in opts[k]:
                usable |= o[0]
            stats.append((n + (printed if points else 0), usable,
                          max(o[1] for o in opts[k]), n, 1 if ops or build else 0))
        wild_worth = [1 + (printed_points(w) if points else 0) for w in self.wilds]

        def measure(free: int) -> tuple:
            """(worth, reach, count, reachable, cards, carriers) of a set of free items."""
            worth = reach = count = reachable = cards = carriers = 0
            while free:
                low = free & -free
                free ^= low
                st = stats[low.bit_length() - 1]
                if st is not None:
                    worth += st[0]
                    reach |= st[1]
                    count += 1
                    reachable += st[2]
                    cards += st[3]
                    carriers += st[4]
            return worth, reach, count, reachable, cards, carriers

        def spare_value(spare: int) -> tuple[int, int]:
            worth = n = 0
            while spare:
                low = spare & -spare
                spare ^= low
                worth += wild_worth[low.bit_length() - 1]
                n += 1
            return worth, n

        def combine(measured: tuple, wused: int) -> int:
            worth, reach, count, reachable, cards, carriers = measured
            extra, nspare = spare_value(wall & ~wused & reach)
            b = worth + extra
            if points:
                groups = min(count, reachable // t)
                b += groups + CLEAR_BONUS
                b += 10 * min(groups, (cards + nspare) // 4)
                b += 10 * min(groups, carriers + nspare)
            return b

        cache: dict[int, int] = {}
        measured_cache: dict[int, tuple] = {}

        def bound(used: int, wused: int) -> int:
            key = used | wused << m
            b = cache.get(key)
            if b is None:
                free = full & ~used
                measured = measured_cache.get(free)
                if measured is None:
                    measured = measured_cache[free] = measure(free)
                b = cache[key] = combine(measured, wused)
            return b

        return bound

    def _fitting_options(self, t: int) -> list[list[tuple]]:
        """Per sorted item: (mask, value, gain, seq, ops bits, colour bits, cards) with
        value <= t, the most gain first (good solutions early make the bound bite)."""
        points = self.objective == "points"
        rows = []
        for k in range(self.m):
            n, printed, colours, ops, build = self.facts[k]
            colour_bits = sum(_COLOUR_BIT[c] for c in colours)
            base_ops = sum(_OPS_BIT[o] for o in ops) | (1 if build else 0)
            row = []
            for mask, v, seq in self.options[k]:
                if v > t:
                    continue
                gain = n + len(seq)
                op_bits = base_ops
                if points:
                    gain += printed + sum(printed_points(w) for w in seq)
                    for w in seq:
                        for o in wild_ops(w):
                            op_bits |= _OPS_BIT[o]
                row.append((mask, v, gain, seq, op_bits, colour_bits, n + len(seq)))
            row.sort(key=lambda o: -o[2])
            rows.append(row)
        return rows

    def _plan(self, card: str, groups, score: int) -> TakePlan:
        by_index = {self.order[k]: k for k in range(self.m)}
        cards = 1 + sum(self.facts[by_index[i]][0] + len(seq) for g in groups for i, seq in g)
        ordered = [sorted(g) for g in groups]
        ordered.sort()
        return TakePlan(card, ordered, cards, score)

    # ----- enumerations over the centre as it is (no wild cards) --------------------------------
    def iter_takes(self, target: int):
        """Every set of disjoint groups for target, each set once, as lists of centre indices.

        Groups are produced in a canonical order (by their lowest sorted index)."""
        order = self.order

        def collections(p: int, used: int):
            for group, u, _w in self.groups(target, used, start=p):
                first = group[0][0]
                indices = sorted(order[k] for k, _ in group)
                yield [indices]
                for rest in collections(first + 1, u):
                    yield [indices] + rest

        return collections(0, 0)


# ----- convenience over a hand -------------------------------------------------------------------
def number_cards(hand) -> list[str]:
    return [c for c in hand if is_number(c)]


def wild_cards(hand) -> tuple[str, ...]:
    return tuple(c for c in hand if not is_number(c))


def distinct_takers(hand, objective: str) -> list[str]:
    """One taking card per distinct outcome: per value (cards), per value and colour (points)."""
    seen, out = set(), []
    for card in sorted(number_cards(hand), key=lambda c: (value_of(c), c)):
        key = value_of(card) if objective == "cards" else (value_of(card), colour_of(card))
        if key not in seen:
            seen.add(key)
            out.append(card)
    return out


def any_take(items, hand, use_wilds: bool = True) -> bool:
    """Is any take possible, counting every way the hand's wild cards could be applied?"""
    values = sorted({value_of(c) for c in number_cards(hand)})
    if not values or not items:
        return False
    search = TakeSearch(items, wild_cards(hand) if use_wilds else ())
    return any(search.has_group(t) for t in values)


def best_take(items, hand, objective: str = "cards", use_wilds: bool = True) -> TakePlan | None:
    """The best take over every taking card in hand (ties: the lower card), or None."""
    if not items:
        return None
    search = TakeSearch(items, wild_cards(hand) if use_wilds else (), objective)
    cards = distinct_takers(hand, objective)
    rank = {card: i for i, card in enumerate(cards)}
    best = None
    # Bigger cards usually take more, so try them first: later cards then only need to be
    # searched for something better (a tie goes to the lower card).
    for card in sorted(cards, key=lambda c: -value_of(c)):
        if best is None:
            plan = search.best(card)
        else:
            plan = search.best(card, best.score - (1 if rank[card] < rank[best.card] else 0))
        if plan is not None and (best is None or plan.score > best.score or (
                plan.score == best.score and rank[card] < rank[best.card])):
            best = plan
    return best
