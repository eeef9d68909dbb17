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
"""

from __future__ import annotations

from math import comb

from .bots import NumeroBot, leaflet_discard, numbers_in, plan_steps, wilds_in
from .cards import apply_wild, is_number, pack, value_of
from .scoring import item_facts
from .search import TakeSearch, best_take
from .view import search_items

POINTS_PER_CARD = 1.5  # exposure is measured in cards; a card won is worth about this
CHALLENGE_BELOW = 0.06  # challenge when the builder could hardly hold the value (honest
# builds are the rule, so only a value the cards seen nearly rule out is worth the risk)
BLUFF_RATE = 0.1


class Knowledge:
    """What the viewer can infer about hidden cards."""

    def __init__(self, view: dict):
        seen = set(view["hand"]) | set(view["out"])
        for item in view["centre"]:
            seen.update(item["cards"])
        for cards in view["won"].values():
            seen.update(cards)
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


class ExpertBot(NumeroBot):
    level = "expert"

    def plan(self, view):
        self.objective = "points" if view["options"]["scoring"] else "cards"
        self.rate = POINTS_PER_CARD if self.objective == "points" else 1.0
        self.known = Knowledge(view)
        self._exposure: dict = {}
        challenge = self.challenge(view)
        if challenge is not None:
            return [challenge]
        return super().plan(view)

    # ----- challenges ----------------------------------------------------------------------
    def challenge(self, view):
        for name in view.get("challengeable", []):
            item = next(i for i in view["centre"] if name in i["cards"])
            size = view["hand_counts"].get(item["builder"], 0)
            if self.known.holds(item["claim"], size) < CHALLENGE_BELOW:
                return {"type": "challenge", "target": name}
        return None

    # ----- the opponent's chances -------------------------------------------------------------
    def exposure(self, items: list[tuple[int, tuple]]) -> float:
        """Expected best take (in objective units) the next player can make on `items`."""
        key = tuple((v, f[0]) for v, f in items)
        hit = self._exposure.get(key)
        if hit is not None:
            return hit
        gains = []
        if items:
            search = TakeSearch(items)
            for value in range(1, 16):
                p = self.known.holds(value, self.known.next_hand)
                if p <= 0:
                    continue
                plan = search.best(f"{value}g")
                if plan is not None:
                    gains.append((plan.cards * self.rate, p))
        gains.sort(reverse=True)
        expected, miss = 0.0, 1.0
        for gain, p in gains:
            expected += gain * p * miss
            miss *= 1 - p
        self._exposure[key] = expected
        return expected

    # ----- a normal turn -----------------------------------------------------------------------
    def turn(self, view):
        items = search_items(view["centre"])
        hand = view["hand"]
        options: list[tuple[float, list[dict]]] = []
        search = TakeSearch(items, tuple(wilds_in(hand)), self.objective)
        for card in sorted(set(numbers_in(hand))):
            plan = search.best(card)
            if plan is not None:
                left = [it for i, it in enumerate(items) if i not in set(plan.items)]
                options.append((plan.score - self.exposure(left), plan_steps(view, plan)))
        for card, indices in self.builds(view, limit=40):
            options.append((self.build_value(view, items, card, indices, honest=True),
                            [self.build_action(view, card, indices)]))
        advised = leaflet_discard(numbers_in(hand))
        for card in sorted(set(numbers_in(hand))):
            left = items + [(value_of(card), item_facts([card], False))]
            tie = 0.01 if card == advised else 0.0
            options.append((tie - self.exposure(left), [{"type": "discard", "card": card}]))
        best = max(options, key=lambda o: o[0])
        if view["options"].get("challenges") and self.rng.random() < BLUFF_RATE:
            bluffs = self.bluffs(view, items)
            if bluffs:
                bluff = max(bluffs, key=lambda o: o[0])
                if bluff[0] > best[0]:
                    best = bluff
        return best[1]

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
                # a value nobody could hold is sure to be called; otherwise assume even odds
                risk = 20 * (0.9 if self.known.count.get(total, 0) == 0 else 0.5)
                out.append((self.build_value(view, items, card, [i], honest=False) - risk,
                            [self.build_action(view, card, [i])]))
        return out

    # ----- when only a take may end the turn -------------------------------------------------
    def must_take(self, view):
        if not view["solitaire"]:
            return super().must_take(view)
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
            return super().must_take(view)
        return plan_steps(view, best)

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
