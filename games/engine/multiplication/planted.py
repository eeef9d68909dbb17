"""The planted Multiplication Game player: perfect on every measure except its planted misses
(games/engine/skills.py `Planted`; the quotas and rule errors: devtools/planted.py).

Perfect, by the measures' definitions (skills.py beside this file): it discards whenever it
can, plays a square when one would skip a rival, and names every fact right. Planted misses:
- mg.missed_play: a draw while a card could be played (also a mg.squares miss when a square
  could have been played: counted against that quota too);
- mg.squares: another card while a square could be played;
- mg.facts: a wrong card for the fact it names, tried first (refused: bad_declaration). A
  fact planted on its own ("mg.facts:7x8") has its own quota, and is preferred when it can be
  played, so that it comes up.
Pure and deterministic: no randomness at all.
"""

from __future__ import annotations

from ..skills import Quotas
from . import rules

FACTS = "mg.facts"


class PlantedMultiplication:
    def __init__(self, quotas: Quotas, seed: int = 0):
        self.quota = quotas
        self.fact_plants = quotas.details(FACTS)

    def illegal(self, view: dict) -> dict:
        """A card the player does not hold (refused: not_in_hand)."""
        card = next(c for c in rules.PRODUCTS if c not in view["hand"])
        return {"type": "discard", "card": card, "declare": [1, card] if card <= 10 else [2, 2]}

    def attempts(self, view: dict) -> list[dict]:
        hand = view["hand"]
        options = rules.playable(hand, rules.mask_of(view["open"]["multipliers"]))
        if not options:
            return [{"type": "draw"}]
        discards = [(card, (a, b)) for card, decls in options for a, b in decls]
        discards += [(card, (b, a)) for card, (a, b) in discards if a != b]
        squares = [d for d in discards if rules.is_square(d[1][0] * d[1][1])]
        play_q, square_q = self.quota("mg.missed_play"), self.quota("mg.squares")
        if play_q.take():
            if squares and not square_q.take():
                square_q.missed_anyway()
            return [{"type": "draw"}]
        pool = squares or discards
        if squares and square_q.take():
            pool = [d for d in discards if d not in squares]
            if not pool:  # nothing else to discard: the miss is a draw
                play_q.missed_anyway()
                return [{"type": "draw"}]
        # Prefer a planted fact (so that it comes up), then a number card over a free card.
        pool.sort(key=lambda d: (f"{d[1][0]}x{d[1][1]}" not in self.fact_plants, d[0] == rules.FREE,
                                 d[1][0] > d[1][1]))
        card, (a, b) = pool[0]
        attempts = []
        if card != rules.FREE:
            fact = f"{a}x{b}"
            wrong = [c for c in hand if c != rules.FREE and c != a * b]
            q = self.quota(f"{FACTS}:{fact}" if fact in self.fact_plants else FACTS)
            if q.take(missable=bool(wrong)):
                attempts.append({"type": "discard", "card": wrong[0], "declare": [a, b]})
        return attempts + [{"type": "discard", "card": card, "declare": [a, b]}]
