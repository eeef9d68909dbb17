"""What every Numero bot shares (bots.py names the levels; expert.py is the expert).

A bot's turn is a *plan*: wild steps (free) followed by the turn-ending step. `NumeroBot`
plays the first step, remembers the rest and what the view should look like after that step,
and goes on with the plan when the next view matches (otherwise it plans again). The
leaflet's discard advice is here too: the player and the expert both follow it.
"""

from __future__ import annotations

from itertools import islice

from ..bots import Bot
from .cards import is_number, sort_cards, value_of
from .legal import build_sets
from .rules import has_answer
from .search import TakePlan, TakeSearch, best_take
from .view import search_items


def numbers_in(hand) -> list[str]:
    return [c for c in hand if is_number(c)]


def wilds_in(hand) -> list[str]:
    return [c for c in hand if not is_number(c)]


def name_of(view: dict, index: int) -> str:
    return view["centre"][index]["cards"][0]


def plan_steps(view: dict, plan: TakePlan) -> list[dict]:
    """The actions of a take plan: its wild steps in order, then the take."""
    steps = [{"type": "wild", "card": w, "target": name_of(view, k)} for w, k in plan.wild_steps]
    steps.append({"type": "take", "card": plan.card,
                  "groups": [[name_of(view, i) for i, _ in g] for g in plan.groups]})
    return steps


def signature(hand, centre) -> tuple:
    return tuple(sort_cards(hand)), tuple(tuple(item["cards"]) for item in centre)


def after_wild(view: dict, step: dict) -> tuple:
    """The (hand, centre) signature a view will have after a wild step."""
    hand = list(view["hand"])
    hand.remove(step["card"])
    centre = [dict(item, cards=list(item["cards"])) for item in view["centre"]]
    for item in centre:
        if step["target"] in item["cards"]:
            item["cards"].append(step["card"])
    return signature(hand, centre)


class NumeroBot(Bot):
    objective = "cards"

    def __init__(self, engine, seed: int = 0):
        super().__init__(engine, seed)
        self._pending: list[dict] = []
        self._expect: tuple | None = None

    def choose(self, view: dict) -> dict:
        if self._pending and self._expect == signature(view["hand"], view["centre"]):
            return self._next(view)
        self._pending = self.plan(view)
        return self._next(view)

    def _next(self, view: dict) -> dict:
        step = self._pending.pop(0)
        self._expect = after_wild(view, step) if step["type"] == "wild" and self._pending else None
        if self._expect is None:
            self._pending = []
        return step

    # ----- planning -----------------------------------------------------------------------
    def plan(self, view: dict) -> list[dict]:
        hand = view["hand"]
        if not numbers_in(hand):
            return [self.wild_only_step(view)]
        if view["final_turn"] or view["solitaire"]:
            return self.must_take(view)
        return self.turn(view)

    def must_take(self, view: dict) -> list[dict]:
        plan = best_take(search_items(view["centre"]), view["hand"], self.objective)
        if plan is None:  # cannot happen: the engine skips a player with no take
            return [self.fallback(view)]
        return plan_steps(view, plan)

    def wild_only_step(self, view: dict) -> dict:
        """No number card in hand: every wild card must be played or put out of play."""
        return {"type": "discard_wild", "card": sort_cards(view["hand"])[0]}

    def turn(self, view: dict) -> list[dict]:
        raise NotImplementedError

    def fallback(self, view: dict) -> dict:
        card = min(numbers_in(view["hand"]), key=lambda c: (value_of(c), c))
        return {"type": "discard", "card": card}

    # ----- shared helpers -------------------------------------------------------------------
    def takes_now(self, view: dict, limit: int = 200) -> list[dict]:
        """Takes with the centre as it is (no wild cards), up to `limit` of them."""
        search = TakeSearch(search_items(view["centre"]))
        takes = []
        for card in sorted(set(numbers_in(view["hand"]))):
            for groups in islice(search.iter_takes(value_of(card)), limit):
                takes.append({"type": "take", "card": card,
                              "groups": [[name_of(view, i) for i in g] for g in groups]})
        return takes

    def builds(self, view: dict, limit: int = 200) -> list[tuple[str, list[int]]]:
        """Builds with the answer card in hand (bluffs are the expert's own business)."""
        out = []
        centre = view["centre"]
        for card in sorted(set(numbers_in(view["hand"]))):
            honest = (s for s in build_sets(view, card) if has_answer(
                view["hand"], card, value_of(card) + sum(centre[i]["value"] for i in s)))
            out.extend((card, s) for s in islice(honest, limit))
        return out

    def build_action(self, view: dict, card: str, indices: list[int]) -> dict:
        return {"type": "build", "card": card, "with": [name_of(view, i) for i in indices]}


def leaflet_discard(numbers: list[str]) -> str:
    """The leaflet's discard advice: one card of a pair; else the higher card of a number
    sentence a + b = c held in hand; else a low card."""
    by_value: dict[int, list[str]] = {}
    for c in sorted(numbers, key=lambda c: (value_of(c), c)):
        by_value.setdefault(value_of(c), []).append(c)
    pairs = [cards for cards in by_value.values() if len(cards) >= 2]
    if pairs:
        return min(pairs, key=lambda cards: value_of(cards[0]))[0]
    values = sorted(by_value)
    sentences = [(a, b) for i, a in enumerate(values) for b in values[i + 1:] if a + b in by_value]
    if sentences:
        a, b = min(sentences, key=lambda s: (s[0] + s[1], s))
        return by_value[b][0]
    return by_value[values[0]][0]
