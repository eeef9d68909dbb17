"""The expert bot: maximises points (or cards) with one step of lookahead.

It only reads its view. What it cannot see is modelled from what it has seen: the unseen
cards are the pack minus its hand, the centre, every winning pile and the wild cards out of
play; the next player's hand is a random draw of `hand_counts` cards from them.

For every way to end the turn (the best take for each taking card, wild cards included,
found by the one search; every build it can prove; every discard; at the challenges level
an occasional bluff) it scores
    what the move wins now
  + for a build, what taking it next turn would win, times the chance the opponent cannot
    take it first
  - the opponent's expected best take on the centre the move leaves behind ("exposure").
At the challenges level it also challenges builds it judges likely bluffs: when the cards
it has seen leave few or no cards of the build's value for the builder to hold.
In Solitaire it takes what maximises this take plus half of the best take its remaining hand
could make on the remaining centre.

`judge(view)` gives the same evaluation as a `Judgement` (what it would play to end the turn,
the take it values most, its builds and discards with their values), without dice: the skill
analysis measures a student's decision against it and the planted Numero player follows it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from math import comb

from .bot_base import NumeroBot, leaflet_discard, numbers_in, plan_steps, wilds_in
from .cards import apply_wild, is_number, pack, value_of
from .scoring import Facts, item_facts
from .search import TakePlan, TakeSearch, best_take
from .view import search_items

POINTS_PER_CARD = 1.5  # exposure is measured in cards; a card won is worth about this
POINTS_SEARCH_LIMIT = 16  # centre items + 2 x wild cards in hand (see plan())
FOLLOW_WEIGHT = 0.5  # my next take is far from sure: the opponent moves first
BLUFF_PRIOR = 0.05  # how often a builder is assumed to build whatever they hold
CHALLENGE_ABOVE = 1 / 3  # a challenge wins 20 or loses 10: worth it above 1/3 bluff odds
BLUFF_RATE = 0.3
BLUFF_SLACK = 2.0  # a bluff may look this much worse than the discard it replaces


class LargestTakes(dict):
    """value -> cards won by the largest take (no wild cards) with a card of that value (0: no
    take), on one centre, filled as asked. A centre's takes depend on nothing else, so they
    are remembered across positions (`largest_takes`): the same centre is judged again and
    again (the analysis judges the position a student's bot or planted player has just
    judged)."""

    def __init__(self, centre: tuple[tuple[int, int], ...]):
        super().__init__()
        self.search = TakeSearch([(v, Facts((n, 0, frozenset(), frozenset(), False)))
                                  for v, n in centre])

    def __missing__(self, value: int) -> int:
        plan = self.search.best(f"{value}g")
        self[value] = cards = 0 if plan is None else plan.cards
        return cards


@lru_cache(maxsize=4096)
def largest_takes(centre: tuple[tuple[int, int], ...]) -> LargestTakes:
    """The largest takes on a centre of (value, cards) items, sorted (see LargestTakes).
    One decision weighs the centres its builds and discards would leave, and a game's
    positions come back to the same centres: about 5,000 distinct ones in 130 games. At 256
    most were thrown away before they came back (1 look-up in 5 missed, and the expert's
    thinking was a third longer); 4,096 keep nearly all, for about 17 MB."""
    return LargestTakes(centre)


class Knowledge:
    """What the viewer can infer about hidden cards."""

    def __init__(self, view: dict):
        public = set(view["out"])
        for item in view["centre"]:
            public.update(item["cards"])
        for cards in view["won"].values():
            public.update(cards)
        self.seen_publicly = public
        seen = public | set(view["hand"])
        self.unseen = [c for c in pack(view["options"]) if c not in seen]
        self.count = {}
        for c in self.unseen:
            if is_number(c):
                self.count[value_of(c)] = self.count.get(value_of(c), 0) + 1
        players = view["players"]
        me = view["me"]
        nxt = players[(players.index(me) + 1) % len(players)]
        self.next_hand = view["hand_counts"].get(nxt, 0)

    def holds(self, value: int, hand_size: int) -> float:
        """Chance that a hand of hand_size unseen cards holds at least one card of value."""
        total, k = len(self.unseen), self.count.get(value, 0)
        if k == 0 or hand_size <= 0 or total == 0:
            return 0.0
        hand_size = min(hand_size, total)
        return 1.0 - comb(total - k, hand_size) / comb(total, hand_size)

    @staticmethod
    def bluff_odds(p_hold: float) -> float:
        """Chance a build is a bluff, given the chance p_hold that the builder's hand holds
        the value at all: honest builders only build when holding it, a few build anyway."""
        bluff = BLUFF_PRIOR * (1 - p_hold)
        return bluff / (bluff + p_hold) if bluff + p_hold else 1.0


@dataclass
class Judgement:
    """The expert's own judgement of the decision that ends a turn, in one position: what the
    skill analysis (analyse.py) measures a student's choice against, and what the planted
    Numero player (planted.py) follows.

    - `steps`: what it would play from here to end the turn (wild steps first, then the take,
      build or discard), challenges left aside;
    - `take`: the take it values most (with its wild steps: `take_steps`), whether or not it
      would take, or None when no take is possible;
    - `others`: every honest build and discard with its value (empty when only a take may end
      the turn);
    - `challenge`: the challenge it would make first, if any.
    """

    steps: list[dict]
    take: TakePlan | None = None
    take_steps: list[dict] | None = None
    others: list[tuple[float, list[dict]]] = field(default_factory=list)
    challenge: dict | None = None

    @property
    def takes(self) -> bool:
        """Does it end the turn with a take?"""
        return self.steps[-1]["type"] == "take"


class ExpertBot(NumeroBot):
    level = "expert"

    def plan(self, view):
        self._prime(view)
        challenge = self.challenge(view)
        if challenge is not None:
            return [challenge]
        return super().plan(view)

    def judge(self, view) -> Judgement:
        """Its judgement of this position (see `Judgement`). Deterministic: no dice (its only
        random choice, an occasional bluff instead of a discard, is not part of it); the
        same position gives the same judgement, and `plan` plays `steps` (or a challenge, or
        a bluff in place of a discard)."""
        self._prime(view)
        challenge = self.challenge(view) if view.get("challengeable") else None
        if not numbers_in(view["hand"]):
            return Judgement([self.wild_only_step(view)], challenge=challenge)
        if view["final_turn"] or view["solitaire"]:
            plan = self.must_take_plan(view)
            if plan is None:
                return Judgement([self.fallback(view)], challenge=challenge)
            steps = plan_steps(view, plan)
            return Judgement(steps, plan, steps, challenge=challenge)
        items = search_items(view["centre"])
        takes = self.take_options(view, items)
        others = self.builds_and_discards(view, items)
        best = max([(value, steps) for value, steps, _plan in takes] + others, key=lambda o: o[0])
        top = max(takes, key=lambda o: o[0]) if takes else None
        return Judgement(best[1], top[2] if top else None, top[1] if top else None, others,
                         challenge)

    def _prime(self, view) -> None:
        scoring = view["options"]["scoring"]
        self.rate = POINTS_PER_CARD if scoring else 1.0
        # The points search costs much more than the cards search in a crowded centre with
        # many wild cards; there the expert ranks takes by cards (worth `rate` points each)
        # to keep its thinking time low.
        crowded = len(view["centre"]) + 2 * len(wilds_in(view["hand"])) > POINTS_SEARCH_LIMIT
        self.objective = "points" if scoring and not crowded else "cards"
        self.take_rate = self.rate if scoring and crowded else 1.0
        self.known = Knowledge(view)
        self._exposure: dict = {}

    # ----- challenges ----------------------------------------------------------------------
    def challenge(self, view):
        for name in view.get("challengeable", []):
            item = next(i for i in view["centre"] if name in i["cards"])
            size = view["hand_counts"].get(item["builder"], 0)
            if self.known.bluff_odds(self.known.holds(item["claim"], size)) > CHALLENGE_ABOVE:
                return {"type": "challenge", "target": name}
        return None

    # ----- the opponent's chances -------------------------------------------------------------
    def exposure(self, items: list[tuple[int, tuple]]) -> float:
        """Expected best take (in objective units) the next player can make on `items`."""
        key = tuple(sorted((v, f[0]) for v, f in items))
        hit = self._exposure.get(key)
        if hit is not None:
            return hit
        gains = []
        largest = largest_takes(key) if items else ()
        for value in range(1, 16) if items else ():
            p = self.known.holds(value, self.known.next_hand)
            if p <= 0:
                continue
            cards = largest[value]
            if cards:
                gains.append((cards * self.rate, p))
        gains.sort(reverse=True)
        expected, miss = 0.0, 1.0
        for gain, p in gains:
            expected += gain * p * miss
            miss *= 1 - p
        self._exposure[key] = expected
        return expected

    # ----- a normal turn -----------------------------------------------------------------------
    def builds_and_discards(self, view, items) -> list[tuple[float, list[dict]]]:
        """Every honest build and every discard, valued as `turn` values them (the planted
        Numero player of the reports ranks its non-take moves with this too)."""
        hand = view["hand"]
        options = [(self.build_value(view, items, card, indices, honest=True),
                    [self.build_action(view, card, indices)])
                   for card, indices in self.builds(view, limit=40)]
        advised = leaflet_discard(numbers_in(hand))
        for card in sorted(set(numbers_in(hand))):
            left = items + [(value_of(card), item_facts([card], False))]
            rest = list(hand)
            rest.remove(card)
            tie = 0.01 if card == advised else 0.0
            options.append((tie - self.exposure(left) + self.follow_up(left, rest),
                            [{"type": "discard", "card": card}]))
        return options

    def take_options(self, view, items) -> list[tuple[float, list[dict], TakePlan]]:
        """The best take of each taking card (wild cards included), valued as `turn` values
        it: (value, steps, plan)."""
        hand = view["hand"]
        options = []
        search = TakeSearch(items, tuple(wilds_in(hand)), self.objective)
        for card in sorted(set(numbers_in(hand))):
            plan = search.best(card)
            if plan is not None:
                left = [it for i, it in enumerate(items) if i not in set(plan.items)]
                rest = list(hand)
                for used in [card] + [w for w, _k in plan.wild_steps]:
                    rest.remove(used)
                options.append((plan.score * self.take_rate - self.exposure(left)
                                + self.follow_up(left, rest), plan_steps(view, plan), plan))
        return options

    def turn(self, view):
        items = search_items(view["centre"])
        options = [(value, steps) for value, steps, _plan in self.take_options(view, items)]
        options += self.builds_and_discards(view, items)
        best = max(options, key=lambda o: o[0])
        # Sometimes, when it would only discard, bluff instead if that is about as good.
        if view["options"].get("challenges") and best[1][0]["type"] == "discard" \
                and self.rng.random() < BLUFF_RATE:
            bluffs = self.bluffs(view, items)
            if bluffs:
                bluff = max(bluffs, key=lambda o: o[0])
                if bluff[0] >= best[0] - BLUFF_SLACK:
                    best = bluff
        return best[1]

    def follow_up(self, items, rest) -> float:
        """What my remaining hand could take next turn on the centre I leave (if the
        opponent leaves it), counted at FOLLOW_WEIGHT."""
        values = {value_of(c) for c in rest if is_number(c)}
        if not (items and values):
            return 0.0
        # = best_take(items, rest, "cards", use_wilds=False).cards, remembered per centre
        largest = largest_takes(tuple(sorted((v, f[0]) for v, f in items)))
        cards = max(largest[v] for v in values)
        return FOLLOW_WEIGHT * cards * self.rate if cards else 0.0

    def build_value(self, view, items, card, indices, honest: bool) -> float:
        centre = view["centre"]
        total = value_of(card) + sum(centre[i]["value"] for i in indices)
        cards = [c for i in indices for c in centre[i]["cards"]] + [card]
        left = [it for i, it in enumerate(items) if i not in set(indices)]
        left.append((total, item_facts(cards, True)))
        future = (len(cards) + 1) * self.rate if honest else 0.0
        opponent_first = self.known.holds(total, self.known.next_hand)
        return future * (1 - opponent_first) - self.exposure(left)

    def bluffs(self, view, items):
        """Builds without the answer (challenges level): values the opponent is unlikely to
        hold, so the centre cards they join are harder to take; a challenge costs 20."""
        centre = view["centre"]
        top = view["options"]["max_number"]
        out = []
        for card in sorted(set(numbers_in(view["hand"]))):
            for i, item in enumerate(centre):
                total = value_of(card) + item["value"]
                if total > top or any(value_of(c) == total for c in numbers_in(view["hand"])):
                    continue
                risk = 20 * (0.9 if self.opponent_would_call(view, total) else 0.1)
                out.append((self.build_value(view, items, card, [i], honest=False) - risk,
                            [self.build_action(view, card, [i])]))
        return out

    def opponent_would_call(self, view, value: int) -> bool:
        """Would a player reasoning like this bot challenge my build of `value`? They see
        the public cards only: for them my hand is part of the unseen cards."""
        public = sum(1 for c in self.known.seen_publicly if is_number(c) and value_of(c) == value)
        unseen = len(self.known.unseen) + len(view["hand"])
        k = max(0, 4 - public)
        size = min(len(view["hand"]), unseen)
        p_hold = 1.0 - comb(unseen - k, size) / comb(unseen, size) if k and size else 0.0
        return self.known.bluff_odds(p_hold) > CHALLENGE_ABOVE

    # ----- when only a take may end the turn -------------------------------------------------
    def must_take(self, view):
        plan = self.must_take_plan(view)
        if plan is None:  # cannot happen: the engine skips a player with no take
            return [self.fallback(view)]
        return plan_steps(view, plan)

    def must_take_plan(self, view) -> TakePlan | None:
        """The take it makes when only a take may end the turn (None: no take possible)."""
        if not view["solitaire"]:
            return best_take(search_items(view["centre"]), view["hand"], self.objective)
        items = search_items(view["centre"])
        hand = view["hand"]
        best, best_value = None, None
        for use_wilds in (True, False):
            search = TakeSearch(items, tuple(wilds_in(hand)) if use_wilds else (), self.objective)
            for card in sorted(set(numbers_in(hand))):
                plan = search.best(card)
                if plan is None:
                    continue
                taken = set(plan.items)
                left = [it for i, it in enumerate(items) if i not in taken]
                used = {w for w, _k in plan.wild_steps} | {card}
                rest = [c for c in hand if c not in used]
                follow = best_take(left, rest, self.objective)
                value = plan.score + 0.5 * (follow.score if follow else 0)
                if best_value is None or value > best_value:
                    best, best_value = plan, value
        if best is None:
            return best_take(items, hand, self.objective)
        return best

    def wild_only_step(self, view):
        """Only wild cards in hand: play one where it makes the centre safer, else drop it."""
        items = search_items(view["centre"])
        base = self.exposure(items)
        best = None
        for w in sorted(set(view["hand"])):
            for i, item in enumerate(view["centre"]):
                after = apply_wild(w, item["value"])
                if after is None:
                    continue
                changed = list(items)
                changed[i] = (after, item_facts(item["cards"] + [w], item["build"]))
                gain = base - self.exposure(changed)
                if gain > 0.5 and (best is None or gain > best[0]):
                    best = (gain, {"type": "wild", "card": w, "target": item["cards"][0]})
        if best is not None:
            return best[1]
        return super().wild_only_step(view)
