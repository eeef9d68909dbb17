"""The planted Smooth Operator player: it plays like the expert bot and is perfect on every
measure except its planted misses (games/engine/skills.py `Planted`; the quotas and rule
errors: devtools/planted.py).

It asks a measure's quota exactly at the decisions skills.py (beside this file) counts as a
chance of that measure, and a planted miss is a miss of that measure alone:
- so.lowest_operator, at a response where some card is worse than the expert's: a miss plays
  the card the expert rates next best among the worse ones (otherwise the expert's card);
- so.even_division, at a decision where ÷ could be tried (holding ÷ to answer, or Free Choice
  as the active player) on a pair that does not divide exactly: a miss tries ÷ first
  (refused), then plays as it would have;
- so.specials, at the first decision of an active turn where a clear mistake is possible
  (analyse.specials_verdict): a miss ends the turn keeping a Free Turn, or a Free Choice that
  would add a lot or win, or plays Free Choice with a weaker sign (or doubles 0); otherwise it
  plays the expert's choice (its Monte Carlo, seeded from this player's own dice), never
  one that the measure reads as a miss;
- so.mental_math, at every answer it gives with a move (it always gives one): one too high.
A planted operation ("so.mental_math:÷") has its own quota: only that operation's chances are
missed at its rate (so.even_division's chances are all ÷).
Deterministic given its seed. It sees only its own view.
"""

from __future__ import annotations

import random

from ..skills import Quotas, detail_quota
from . import ENGINE, rules, strategy
from .analyse import expert_odds, response_regrets, specials_verdict
from .bots import recycled_in_view
from .expert import ExpertBot


class PlantedSmoothOperator:
    def __init__(self, quotas: Quotas, seed: int = 0):
        self.quota = quotas
        self.rng = random.Random(f"planted-smooth-operator:{seed}")
        self._previous = None        # (decision kind, _turn_key) of the previous decision
        self._turn_taken = False     # whether this active turn's so.specials chance was taken

    def illegal(self, view: dict) -> dict:
        """A card the player does not hold (refused: not_in_hand)."""
        hand = view["hand"]
        if view["decision"] == rules.SPECIALS_PHASE:
            missing = [c for c in rules.SPECIALS if c not in hand]
            if missing:
                card = missing[0]
                return {"type": "special", "card": card, **({"sign": "+"} if card == "free_choice" else {})}
        return {"type": "play", "card": next(c for c in rules.ARITHMETIC if c not in hand)}

    def _answered(self, move: dict, sign: str, high: int, low: int) -> dict:
        answer = rules.result(sign, high, low)
        if detail_quota(self.quota, "so.mental_math", rules.SYMBOL[sign]).take():
            answer += 1
        return {**move, "answer": answer}

    def _division_quota(self):
        return detail_quota(self.quota, "so.even_division", rules.SYMBOL["/"])

    def attempts(self, view: dict) -> list[dict]:
        kind, hand, high, low = view["decision"], view["hand"], view["high"], view["low"]
        # One so.specials chance per active turn: its specials decisions come one after the
        # other, with nobody else deciding in between (a free turn is a new turn number).
        previous, self._previous = self._previous, (kind, self._turn_key(view))
        if self._previous != previous:
            self._turn_taken = False
        attempts = []
        if kind == rules.SPECIALS_PHASE:
            if "free_choice" in hand and high % low and self._division_quota().take():
                attempts.append({"type": "special", "card": "free_choice", "sign": "/"})  # refused
            return attempts + [self._specials(view)]
        if "/" in hand and high % low and self._division_quota().take():
            attempts.append({"type": "play", "card": "/"})  # refused: uneven_division
        odds = expert_odds(view)
        if kind == rules.PENALTY:
            return attempts + [{"type": "penalty", "discard": strategy.best_penalty_discard(hand, odds)}]
        regrets = response_regrets(hand, high, low, odds)
        card = strategy.best_response(hand, high, low, odds)
        worse = sorted((r, rules.CANONICAL[c], c) for c, r in regrets.items() if r > 0)
        if worse and self.quota("so.lowest_operator").take():
            card = worse[0][2]
        return attempts + [self._answered({"type": "play", "card": card}, card, high, low)]

    def _specials(self, view: dict) -> dict:
        hand, high, low = view["hand"], view["high"], view["low"]
        held = rules.specials_in(hand)
        points, doubles = view["turn_points"], view["doubles"]
        responders = len(view["turn_awards"])
        with_sign = {sign: rules.turn_points(rules.result(sign, high, low) * responders, doubles)
                     for sign in rules.free_choice_signs(high, low)}
        judge = dict(recycled=recycled_in_view(view), score=view["scores"][view["me"]], target=view["target"])

        def verdict(move):
            return specials_verdict(held, points, doubles, with_sign, move, **judge)

        if not self._turn_taken and verdict({"type": "end_turn"})[0]:
            self._turn_taken = True
            if self.quota("so.specials").take():
                return self._specials_miss(view, verdict)
        move = self._expert(view)
        if verdict(move)[1]:  # the expert's Monte Carlo, now and then, keeps a clear one
            move = self._best(view, verdict)
        if move.get("card") == "free_choice":
            return self._answered(move, move["sign"], high, low)
        return move

    @staticmethod
    def _turn_key(view: dict) -> tuple:
        """This decision's turn (nothing here changes while the active player plays specials)."""
        me = view["me"]
        return (view["turn"], view["high"], view["low"], view["deck_counts"]["high"],
                len(view["discards"]["high"]), tuple(sorted((p, s) for p, s in view["scores"].items() if p != me)))

    def _expert(self, view: dict) -> dict:
        return ExpertBot(ENGINE, seed=self.rng.randrange(2**31)).choose(view)

    @staticmethod
    def _best(view: dict, verdict) -> dict:
        """Instead of the expert's rare clear mistake (ending the turn with a large Free Choice
        or a win unplayed): the best Free Choice, else a Double, when the measure agrees."""
        recycled = recycled_in_view(view)
        for move in ({"type": "special", "card": "free_choice", "sign": rules.best_sign(view["high"], view["low"])},
                     {"type": "special", "card": "double"}):
            if move["card"] in view["hand"] and not (recycled and move["card"] == "double") \
                    and not verdict(move)[1]:
                return move
        return {"type": "end_turn"}

    def _specials_miss(self, view: dict, verdict) -> dict:
        """A clear mistake possible at this decision (verdict says which are)."""
        high, low = view["high"], view["low"]
        if verdict({"type": "end_turn"})[1]:
            return {"type": "end_turn"}
        if "free_choice" in view["hand"]:
            signs = rules.free_choice_signs(high, low)
            for sign in sorted(signs, key=lambda s: -rules.result(s, high, low)):
                move = {"type": "special", "card": "free_choice", "sign": sign}
                if verdict(move)[1]:
                    return self._answered(move, sign, high, low)
        move = {"type": "special", "card": "double"}
        if "double" in view["hand"] and verdict(move)[1]:
            return move
        raise AssertionError(f"so.specials: no miss possible at turn {view['turn']}")
