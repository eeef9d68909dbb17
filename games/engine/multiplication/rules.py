"""The 1-10 multiplication table as the Multiplication Game uses it.

Multiplier sets are kept as bit masks (bit m set for multiplier m) inside the hot paths;
the state and views hold sorted lists. `playable(hand, multipliers)` is the one legal-move
generator: the engine, the bots (on their view) and the skill analysis all call it.
"""

from __future__ import annotations

from functools import lru_cache

FREE = "free"
MULTIPLIERS = range(1, 11)
PRODUCTS = tuple(sorted({a * b for a in MULTIPLIERS for b in MULTIPLIERS}))
PRODUCT_SET = frozenset(PRODUCTS)
SQUARES = frozenset(m * m for m in MULTIPLIERS)
# value -> every (a, b) with a <= b, both 1..10, a * b == value
FACTS = {v: tuple((a, v // a) for a in MULTIPLIERS if v % a == 0 and a <= v // a <= 10)
         for v in PRODUCTS}
ALL_FACTS = tuple(fact for v in PRODUCTS for fact in FACTS[v])


def is_card(value) -> bool:
    """A card code of this game: a product (int, never bool) or "free"."""
    return value == FREE if type(value) is str else (type(value) is int and value in PRODUCT_SET)


def sort_key(card):
    """Canonical order: ascending values, free cards last."""
    return (1, 0) if card == FREE else (0, card)


def sorted_cards(cards) -> list:
    """`sorted(cards, key=sort_key)`, without a Python-level key (this runs every turn)."""
    numbers = [c for c in cards if c != FREE]
    free = len(cards) - len(numbers)
    numbers.sort()
    return numbers + [FREE] * free


def opening_multipliers(value: int) -> list[int]:
    """Every number that appears in some way of writing `value` as a table product."""
    return sorted({m for fact in FACTS[value] for m in fact})


def mask_of(multipliers) -> int:
    mask = 0
    for m in multipliers:
        mask |= 1 << m
    return mask


def is_square(value: int) -> bool:
    return value in SQUARES


def check_declaration(card, declare) -> bool:
    """True if `declare` is a correct table fact for the card (any fact for a free card)."""
    a, b = declare
    if not (1 <= a <= 10 and 1 <= b <= 10):
        return False
    return card == FREE or a * b == card


@lru_cache(maxsize=None)
def declarations(card, mask: int) -> tuple:
    """Legal declarations (a <= b) for discarding `card` on open multipliers `mask`.

    The reversed order [b, a] is equally legal and means the same; listing one keeps
    the generator to one entry per outcome."""
    facts = ALL_FACTS if card == FREE else FACTS[card]
    return tuple(f for f in facts if mask >> f[0] & 1 or mask >> f[1] & 1)


def playable(hand, mask: int) -> list[tuple]:
    """[(card, declarations)] for each different hand card that can be discarded now."""
    found = []
    for card in sorted_cards(set(hand)):
        facts = declarations(card, mask)
        if facts:
            found.append((card, facts))
    return found


def legal_actions(hand, mask: int) -> list[dict]:
    """Every legal action as action dicts: each discard, then the draw (always legal)."""
    actions = [{"type": "discard", "card": card, "declare": [a, b]}
               for card, facts in playable(hand, mask) for a, b in facts]
    actions.append({"type": "draw"})
    return actions


def can_discard_square(hand, mask: int) -> bool:
    return any(is_square(a * b) for _, facts in playable(hand, mask) for a, b in facts)


def all_cards(free_cards: int) -> list:
    return list(PRODUCTS) + [FREE] * free_cards
