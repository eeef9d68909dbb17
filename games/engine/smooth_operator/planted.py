"""The planted Smooth Operator player: perfect on every measure except its planted misses
(games/engine/skills.py `Planted`; the quotas and rule errors: devtools/planted.py).

Perfect, by the measures' definitions (skills.py beside this file): it responds with the
operator that gives the fewest points (÷ first among the lowest), plays a raising free choice
and never doubles 0, and works out every answer. Planted misses:
- so.lowest_operator: a higher operator when two values differ;
- so.even_division: an uneven ÷ it tries first (refused), or an exact ÷ left unplayed for a
  higher operator (also a so.lowest_operator miss: counted against that quota too);
- so.specials: ending the turn with a raising free choice unplayed, or doubling 0;
- so.mental_math: an answer one too high.
Pure and deterministic: no randomness at all.
"""

from __future__ import annotations

from ..skills import Quotas
from . import rules


class PlantedSmoothOperator:
    def __init__(self, quotas: Quotas, seed: int = 0):
        self.quota = quotas
        self._specials_turn = None   # the turn whose specials chance is decided
        self._specials_miss = False  # ... and whether it is to be missed

    def illegal(self, view: dict) -> dict:
        """A card the player does not hold (refused: not_in_hand)."""
        hand = view["hand"]
        if view["decision"] == rules.SPECIALS_PHASE:
            missing = [c for c in rules.SPECIALS if c not in hand]
            if missing:
                card = missing[0]
                return {"type": "special", "card": card, **({"sign": "+"} if card == "free_choice" else {})}
        return {"type": "play", "card": next(c for c in rules.ARITHMETIC if c not in hand)}

    def attempts(self, view: dict) -> list[dict]:
        kind, hand, high, low = view["decision"], view["hand"], view["high"], view["low"]
        if kind == rules.PENALTY:
            return [next(a for a in view["legal_actions"])]
        if kind == rules.SPECIALS_PHASE:
            return [self._specials(view)]
        options = rules.play_options(hand, high, low)
        lowest = min(options.values())
        by_value = sorted(options, key=lambda c: (options[c], c != "/"))
        card = by_value[0]  # the lowest, ÷ first when it is one of the lowest
        attempts = []
        lowest_q = self.quota("so.lowest_operator")
        higher = [c for c in by_value if options[c] > lowest]
        lowest_chance = len(set(options.values())) >= 2
        if lowest_chance and lowest_q.take():
            card = higher[0]
        if "/" in hand:
            uneven = "/" not in options
            skip_exact = "/" in options and options["/"] == lowest and bool(higher)
            if self.quota("so.even_division").take(missable=uneven or skip_exact):
                if uneven:
                    attempts.append({"type": "play", "card": "/"})
                elif card == "/":
                    card = higher[0]
                    if lowest_chance:
                        lowest_q.missed_anyway()
        answer = rules.result(card, high, low)
        if self.quota("so.mental_math").take():
            answer += 1
        return attempts + [{"type": "play", "card": card, "answer": answer}]

    def _specials(self, view: dict) -> dict:
        hand, high, low = view["hand"], view["high"], view["low"]
        held = rules.specials_in(hand)
        points, doubles = view["turn_points"], view["doubles"]
        responders = len(view["turn_awards"])
        best = rules.best_sign(high, low)
        raising = "free_choice" in held and \
            rules.turn_points(rules.result(best, high, low) * responders, doubles) > points
        double_on_zero = "double" in held and points == 0
        if held and view["turn"] != self._specials_turn:
            self._specials_turn = view["turn"]
            self._specials_miss = self.quota("so.specials").take(missable=raising or double_on_zero)
        if self._specials_miss and (raising or double_on_zero):
            self._specials_miss = False
            return {"type": "end_turn"} if raising else {"type": "special", "card": "double"}
        if raising:
            answer = rules.result(best, high, low)
            if self.quota("so.mental_math").take():
                answer += 1
            return {"type": "special", "card": "free_choice", "sign": best, "answer": answer}
        if "double" in held and points > 0:
            return {"type": "special", "card": "double"}
        return {"type": "end_turn"}
