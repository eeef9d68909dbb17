"""Deterministic shuffling whose only memory is data inside the state.

A game never holds a live `random.Random`: the state keeps its `seed` and how many
shuffles it has made (`shuffles`). Shuffle number k uses a private generator seeded with
the string "<seed>:<k>", so a saved state (plain JSON) continues exactly as the
original would have, and the resulting deck orders are themselves stored in the state,
so replaying recorded actions never needs the generator at all.
"""

import random


def shuffled(state: dict, cards: list) -> list:
    """Return a new shuffled list of `cards`, advancing the state's shuffle counter."""
    count = state.get("shuffles", 0)
    rng = random.Random(f"{state['seed']}:{count}")
    state["shuffles"] = count + 1
    deck = list(cards)
    rng.shuffle(deck)
    return deck
