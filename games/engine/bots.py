"""Bot base class. A bot is given only `view(state, seat)` and must never read the state.

Bots are deterministic for a seed: each owns a private `random.Random(seed)`.
"""

import random


class Bot:
    level = "beginner"

    def __init__(self, engine, seed: int = 0):
        self.engine = engine
        self.rng = random.Random(seed)

    def choose(self, view: dict) -> dict:
        """Return one legal action for the viewer (`view["me"]`)."""
        raise NotImplementedError
