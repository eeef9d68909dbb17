"""The planted Add or Multiply? player: the expert bot, except its planted misses
(games/engine/skills.py `Planted`; the quotas and rule errors: devtools/planted.py).

At every play it asks the analysis' own evaluation of the position (analyse.py
`operation_evaluation`, computed from its view only). Where that is a chance of am.operation
(both operations held, one clearly worth more), it counts the chance with
`quota("am.operation").take()` and picks the better operation, or the worse one when the quota
says miss; elsewhere it picks the expert's operation. Its sends are always the expert's for the
operation it picked. So its am.operation misses are exactly the planted ones, at exactly the
chances the measure counts, and no other measure of the game sees them.
Deterministic given its seed: each play's expert is seeded from the player's own dice.
"""

from __future__ import annotations

import random

from ..skills import Quotas
from . import rules
from .analyse import operation_evaluation
from .bots import ExpertBot


class PlantedAddOrMultiply:
    def __init__(self, quotas: Quotas, seed: int = 0):
        self.quota = quotas
        self.rng = random.Random(f"planted-add-or-multiply:{seed}")

    def illegal(self, view: dict) -> dict:
        """Two cards of a value it holds once at most (a 6 in a standard hand): refused as
        not_in_hand."""
        first, second = rules.opponents(view["players"], view["me"])
        numbers = view["hand"]["numbers"]
        value = next(v for v in reversed(rules.NUMBER_VALUES) if numbers.count(v) < 2)
        return {"type": "play", "on": {first: value, second: value},
                "operation": view["hand"]["operations"][0]}

    def attempts(self, view: dict) -> list[dict]:
        expert = ExpertBot(None, seed=self.rng.randrange(2**31))
        evaluation = operation_evaluation(view)
        if evaluation is None or not evaluation["chance"]:
            return [expert.choose(view)]
        miss = self.quota("am.operation").take()
        return [expert.choose(view, operation=evaluation["worse" if miss else "better"])]
