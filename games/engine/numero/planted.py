"""The planted Numero player (Numero and Numero Solitaire): perfect on every measure except its
planted misses (games/engine/skills.py `Planted`; the quotas and rule errors: devtools/planted.py).

It decides from its own view only. A turn is planned once, at its start, like the bots do:
wild steps (free), then the turn-ending step, with the attempts it expects to be refused in
front of that step. The plan is followed while the views match what it expects (otherwise it
plans again).

Perfect means perfect by the report's definitions (skills.py beside this file, from the
engine's analysis of the position *before the turn-ending step*, so after the turn's wild
steps):
- nu.missed_take: whenever a take is possible (wild cards counted) it takes.
- nu.best_take: its take wins as many cards as the largest take.
- nu.operations: with a wild card in hand (or played this turn), its take does not use
  exactly one operation when a take using more is possible.
- nu.valid_build: it only builds with the answer card in hand.
Among the moves that are perfect it plays what the expert bot would (the expert's own
choice when that is perfect, else the perfect one the expert's evaluation ranks best).

Planted misses, each a miss by the report's definition (each candidate take is judged on the
position its wild steps leave, exactly as the analysis will judge it):
- nu.missed_take: the expert's best build or discard instead of a possible take (a chance
  in every turn with a possible take; a last turn or Solitaire cannot miss it).
- nu.best_take: a take that leaves cards behind (a smaller plan, a plan minus one group);
  a chance at every take, missable when such a take exists.
- nu.operations: a take using exactly one operation while one using more was possible (a
  chance at every take while holding a wild card).
- nu.valid_build: a refused build without the answer card (`no_answer_card`), then the
  honest build it meant to make; a chance at every build. With `challenges` on a build
  without the answer is not refused but a bluff that is a miss only if an opponent
  challenges it, which the player cannot decide: then it is never missed on purpose.
A take with one operation while more were possible nearly always leaves cards behind too
(the largest take uses the wild cards, and with them more operations), and can be played in
only about 1 take in 7 with a wild card: so operations decides first, and a miss it needs
that leaves cards behind is also counted against the nu.best_take quota (which then misses
less on its own). Should no perfect take exist, the miss it makes is counted the same way.
"""

from __future__ import annotations

from ..errors import IllegalMove
from ..skills import Quotas
from . import rules
from .analyse import group_operations, max_operations
from .bots import after_wild, numbers_in, plan_steps, signature
from .cards import WILD_CODES, apply_wild, in_pack, value_of
from .engine import NumeroEngine
from .expert import ExpertBot
from .search import TakePlan, TakeSearch, best_take, distinct_takers, wild_cards
from .view import search_items

GROUPS_PER_CARD = 12  # single groups looked at per taking card (for operations variants)


class PlantedNumero:
    """The planted player of Numero and Numero Solitaire (`Planted.player`). Its planner is
    made at its first Numero decision (the expert it asks is not cheap to make)."""

    def __init__(self, quotas: Quotas, seed: int = 0):
        self.quota, self.seed = quotas, seed
        self._planner: NumeroPlanner | None = None

    def attempts(self, view: dict) -> list[dict]:
        self._planner = self._planner or NumeroPlanner(self.quota, self.seed)
        return self._planner.attempts(view)

    @staticmethod
    def illegal(view: dict) -> dict:
        """A free step with a wild card the player does not hold (refused: not_in_hand, or
        wild_not_in_pack). A free step is no chance at any Numero measure but the rule one."""
        hand = set(view["hand"] or ())
        missing = [w for w in WILD_CODES if w not in hand]
        held = [w for w in missing if in_pack(w, view["options"])]
        return {"type": "discard_wild", "card": (held or missing)[0]}


class Candidate:
    """One way to end the turn with a take, judged as the analysis will judge it."""

    def __init__(self, view: dict, plan: TakePlan, wild_before: bool):
        self.plan = plan
        self.steps = plan_steps(view, plan)
        hand = list(view["hand"])
        centre = [dict(item, cards=list(item["cards"])) for item in view["centre"]]
        for w, k in plan.wild_steps:
            centre[k]["value"] = apply_wild(w, centre[k]["value"])
            centre[k]["cards"].append(w)
            hand.remove(w)
        pos = dict(view, hand=hand, centre=centre)
        groups = rules.check_take(pos, self.steps[-1])  # a bad candidate is a bug: raise
        items = search_items(centre)
        largest = best_take(items, hand, "cards")
        self.cards = 1 + sum(len(centre[i]["cards"]) for g in groups for i in g)
        self.behind = max(0, largest.cards - self.cards)
        self.operations = max(group_operations([items[i][1] for i in g]) for g in groups)
        self.holding_wild = bool(wild_cards(hand)) or wild_before or bool(plan.wild_steps)
        self.one_op = self.holding_wild and self.operations == 1 and max_operations(items, hand) > 1
        self.taken = {i for g in groups for i in g}
        self.rest = hand
        self.rest.remove(plan.card)


def _wild_this_turn(view: dict) -> bool:
    """Has the player applied a wild card since its turn began (as the analysis asks)?"""
    for event in reversed(view.get("log") or ()):
        if event.get("type") == "turn":
            return False
        if event.get("type") == "wild" and event.get("player") == view["me"]:
            return True
    return False


class NumeroPlanner:
    """Plans one player's Numero turns; `quota(label)` is the student's quota."""

    def __init__(self, quota: Quotas, seed: int = 0):
        self.quota = quota
        # Numero's expert for Solitaire too: it only reads the view (`engine` is unused by
        # its planning), and the planted player of both games is one and the same.
        self.expert = ExpertBot(NumeroEngine(), seed)
        self._pending: list[list[dict]] = []
        self._expect: tuple | None = None

    # ----- following the plan ---------------------------------------------------------------
    def attempts(self, view: dict) -> list[dict]:
        if not (self._pending and self._expect == signature(view["hand"], view["centre"])):
            self._pending = self.plan(view)
        step = self._pending.pop(0)
        last = step[-1]
        if last["type"] == "wild" and self._pending:
            self._expect = after_wild(view, last)
        else:
            self._pending, self._expect = [], None
        return step

    # ----- planning a turn -------------------------------------------------------------------
    def plan(self, view: dict) -> list[list[dict]]:
        """The turn's steps, each a list of attempts (the last one the legal move)."""
        expert_steps = self.expert.plan(view)  # also primes the expert's evaluation
        if not numbers_in(view["hand"]) or expert_steps[0]["type"] == "challenge":
            return [[expert_steps[0]]]  # a free step that no Numero measure looks at
        must_take = view["final_turn"] or view["solitaire"]
        takes = self._take_candidates(view, expert_steps)
        if takes and not must_take:
            # a turn with a possible take: building or discarding instead is the miss
            if self.quota("nu.missed_take").take():
                return self._build_or_discard(view, self._others(view))
        elif takes:
            self.quota("nu.missed_take").take(missable=False)
        if takes:
            return [[s] for s in self._choose_take(view, takes, expert_steps)]
        if must_take:  # cannot happen: the engine skips a last turn without a take
            return [[expert_steps[0]]]
        if expert_steps[-1]["type"] == "build" and not self._honest(view, expert_steps[-1]):
            return self._build_or_discard(view, self._others(view))  # never bluff
        return self._build_or_discard(view, [(0.0, expert_steps)])

    def _build_or_discard(self, view: dict, options: list[tuple[float, list[dict]]]) -> list[list[dict]]:
        steps = max(options, key=lambda o: o[0])[1]
        end = steps[-1]
        if end["type"] != "build":
            return [[s] for s in steps]
        refused = self._refused_build(view, end)
        missable = refused is not None and not view["options"].get("challenges")
        if self.quota("nu.valid_build").take(missable=missable):
            return [[s] for s in steps[:-1]] + [[refused, end]]
        return [[s] for s in steps]

    # ----- builds ------------------------------------------------------------------------------
    @staticmethod
    def _honest(view: dict, build: dict) -> bool:
        centre = view["centre"]
        total = value_of(build["card"]) + sum(
            centre[rules.item_index(centre, c)]["value"] for c in build["with"])
        return rules.has_answer(view["hand"], build["card"], total)

    @staticmethod
    def _refused_build(view: dict, honest: dict) -> dict | None:
        """A build the engine refuses as no_answer_card: the same card on other centre items
        first (one item, then all of them), then the other number cards."""
        names = [item["cards"][0] for item in view["centre"]]
        cards = [honest["card"]] + [c for c in sorted(set(numbers_in(view["hand"]))) if c != honest["card"]]
        for card in cards:
            for with_ in [[n] for n in names] + [names]:
                action = {"type": "build", "card": card, "with": with_}
                try:
                    rules.check_build(view, action)
                except IllegalMove as exc:
                    if exc.code == "no_answer_card":
                        return action
        return None

    def _others(self, view: dict) -> list[tuple[float, list[dict]]]:
        """The expert's builds (with the answer) and discards, valued as the expert does."""
        return self.expert.builds_and_discards(view, search_items(view["centre"]))

    # ----- takes ---------------------------------------------------------------------------------
    def _take_candidates(self, view: dict, expert_steps: list[dict]) -> list[Candidate]:
        items = search_items(view["centre"])
        hand = view["hand"]
        if best_take(items, hand, "cards") is None:
            return []
        wilds = wild_cards(hand)
        takers = distinct_takers(hand, "cards")
        plans: list[TakePlan] = []
        for use in ((wilds, ()) if wilds else ((),)):
            search = TakeSearch(items, use, "cards")
            for card in takers:
                plan = search.best(card)
                if plan is None:
                    continue
                plans.append(plan)
                if len(plan.groups) > 1:  # the same take less one group: leaves cards behind
                    plans += [TakePlan(card, plan.groups[:k] + plan.groups[k + 1:])
                              for k in range(len(plan.groups))]
        # Single groups with their operations (with the most cards the rest can add), so that
        # takes using several operations, or exactly one, are among the candidates.
        search = TakeSearch(items, wilds, "points")
        for card in takers:
            for n, (group, _used, wused) in enumerate(search.groups(value_of(card), symmetric=True)):
                if n >= GROUPS_PER_CARD:
                    break
                first = [(search.order[k], option[2]) for k, option in group]
                plans.append(TakePlan(card, [first]))
                plans.append(self._completed(items, wilds, card, first, search, wused))
        seen, out = set(), []
        wild_before = _wild_this_turn(view)
        for plan in plans:
            key = (plan.card, tuple(sorted(tuple(sorted(g)) for g in plan.groups)))
            if key not in seen:
                seen.add(key)
                out.append(Candidate(view, plan, wild_before))
        return out

    @staticmethod
    def _completed(items, wilds, card, first, search: TakeSearch, wused: int) -> TakePlan:
        """`first` plus the biggest take the card can make on the items and wild cards left."""
        taken = {i for i, _seq in first}
        left = [i for i in range(len(items)) if i not in taken]
        spare = tuple(w for k, w in enumerate(search.wilds) if not wused >> k & 1)
        plan = TakeSearch([items[i] for i in left], spare, "cards").best(card)
        more = [] if plan is None else [[(left[i], seq) for i, seq in g] for g in plan.groups]
        return TakePlan(card, [first] + more)

    def _choose_take(self, view: dict, takes: list[Candidate], expert_steps: list[dict]) -> list[dict]:
        # Operations first: a take with one operation while more were possible is rare (and
        # nearly always smaller than the largest take), so it decides when it can be missed.
        pool, miss_ops = takes, False
        if takes[0].holding_wild:  # it holds a wild card: a chance at operations
            miss_ops = self.quota("nu.operations").take(missable=any(c.one_op for c in takes))
            pool = [c for c in takes if c.one_op == miss_ops] or takes
        best_q = self.quota("nu.best_take")
        miss_best = best_q.take(missable=any(c.behind for c in pool))
        pool = [c for c in pool if bool(c.behind) == miss_best] or pool
        chosen = self._expert_pick(view, pool, expert_steps)
        if chosen.behind and not miss_best:  # the planted operations miss left cards behind
            best_q.missed_anyway()
        if chosen.one_op and not miss_ops:  # every take used one operation: a miss anyway
            self.quota("nu.operations").missed_anyway()
        return chosen.steps

    def _expert_pick(self, view: dict, pool: list[Candidate], expert_steps: list[dict]) -> Candidate:
        """The expert's own take if it is in the pool, else the one its evaluation likes best."""
        for c in pool:
            if c.steps == expert_steps:
                return c
        expert = self.expert
        items = search_items(view["centre"])

        def value(c: Candidate) -> float:
            left = [it for i, it in enumerate(items) if i not in c.taken]
            return c.cards * expert.take_rate - expert.exposure(left) + expert.follow_up(left, c.rest)

        return max(pool, key=value)
