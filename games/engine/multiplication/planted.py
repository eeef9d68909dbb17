"""The planted Multiplication Game player: it plays the expert bot's own move except where its
planted quotas say to miss (games/engine/skills.py `Planted`; the quotas and rule errors:
devtools/planted.py). It decides from its own view only, with the expert's evaluation
(analyse.expert_judgement), so it asks its quotas exactly at the decisions skills.py counts
as chances, and each planted miss is a miss of that measure alone:
- mg.missed_play: at every turn in which a card could be discarded; a miss is a draw (then
  the turn is no chance of mg.squares or mg.facts: nothing was discarded);
- mg.squares: at a turn it discards while the expert would play a square and a card that
  is not a square is legal too; a miss is the expert's best discard that is not a square;
- mg.facts: at every discard of a number card; a miss is first a false declaration for that
  very card (refused: bad_declaration), one that analyse.needed_fact blames on the fact the
  card needs, then the true one. A fact planted on its own ("mg.facts:7x8") has its own
  quota; it comes up when the expert plays its card (the player never bends its play to it).
Deterministic: no randomness of its own (the dice are the quotas').
"""

from __future__ import annotations

from ..skills import Quotas, detail_quota
from . import rules
from .analyse import expert_judgement, fact_label, needed_fact

FACTS = "mg.facts"
PLAY = "mg.missed_play"
SQUARES = "mg.squares"


def wrong_declaration(card, fact: tuple[int, int], open_multipliers) -> list[int]:
    """A false declaration for `card` that is blamed on `fact` (analyse.needed_fact): one
    multiplier kept (the open card's, if it is one of them), the other a little off."""
    x, y = fact
    here = set(open_multipliers)
    keep_first = [(x, y), (y, x)] if x in here or y not in here else [(y, x), (x, y)]
    for step in (1, -1, 2, -2, 3, -3):
        for kept, other in keep_first:
            said = (kept, other + step)
            if 1 <= said[1] <= 10 and kept * said[1] != card and needed_fact(card, said, here) == fact:
                return list(said)
    for a in rules.MULTIPLIERS:  # never needed in practice: any false fact blamed right
        for b in rules.MULTIPLIERS:
            if a * b != card and needed_fact(card, (a, b), here) == fact:
                return [a, b]
    raise AssertionError(f"no false declaration of {card} is blamed on {fact}")


class PlantedMultiplication:
    def __init__(self, quotas: Quotas, seed: int = 0):
        self.quota = quotas

    def illegal(self, view: dict) -> dict:
        """A card the player does not hold (refused: not_in_hand)."""
        card = next(c for c in rules.PRODUCTS if c not in view["hand"])
        return {"type": "discard", "card": card, "declare": [1, card] if card <= 10 else [2, 2]}

    def attempts(self, view: dict) -> list[dict]:
        judged = expert_judgement(view)
        if judged["choice"] is None or self.quota(PLAY).take():
            return [{"type": "draw"}]
        card, a, b = judged["choice"]
        if judged["square_chance"] and self.quota(SQUARES).take():
            best = None
            for c, x, y, value in judged["options"]:
                if not rules.is_square(x * y) and (best is None or value > best[3]):
                    best = (c, x, y, value)
            card, a, b = best[:3]
        attempts = []
        if card != rules.FREE:
            fact = fact_label((a, b))
            q = detail_quota(self.quota, FACTS, fact)
            if q.take():
                multipliers = view["open"]["multipliers"]
                attempts.append({"type": "discard", "card": card,
                                 "declare": wrong_declaration(card, (a, b), multipliers)})
        return attempts + [{"type": "discard", "card": card, "declare": [a, b]}]
