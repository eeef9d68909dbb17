"""The 1-10 multiplication table as the Multiplication Game uses it.

Multiplier sets are kept as bit masks (bit m set for multiplier m) inside the hot paths;
the state and views hold sorted lists. `playable(hand, multipliers)` is the one legal-move
generator: the engine, the bots (on their view) and the skill analysis all call it.
"""

from __future__ import annotations

import re
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


# ----- focus options (house rules, docs/rules-multiplication.md) -----------------------------
# A focused pack holds every product card once, like the standard pack, and FOCUS_COPIES
# copies of each focused card (a teacher takes those from two more packs); focused cards are
# dealt first.
FOCUS_COPIES = 3
_FACT_LABEL = re.compile(r"^(10|[1-9])x(10|[1-9])$")


def parse_fact(label) -> tuple[int, int] | None:
    """(a, b) for a fact label "AxB" with 1 <= a <= b <= 10, else None."""
    match = _FACT_LABEL.match(label) if type(label) is str else None
    if not match:
        return None
    a, b = int(match.group(1)), int(match.group(2))
    return (a, b) if a <= b else None


def is_focus_facts(value) -> bool:
    """1 to 10 different facts written "AxB" (1 <= A <= B <= 10), e.g. ["7x8", "6x9"]."""
    return (type(value) is list and 1 <= len(value) <= 10 and len(set(map(repr, value))) == len(value)
            and all(parse_fact(v) for v in value))


def is_focus_tables(value) -> bool:
    """1 to 3 different tables (whole numbers 1-10), e.g. [7, 8]."""
    return (type(value) is list and 1 <= len(value) <= 3 and len(set(map(repr, value))) == len(value)
            and all(type(t) is int and 1 <= t <= 10 for t in value))


def focus_cards(options: dict) -> list[int]:
    """The product cards the focus options weight (sorted): the product of each focused fact
    and every product of each focused table (t x 1 ... t x 10)."""
    cards = {a * b for a, b in map(parse_fact, options.get("focus_facts") or ())}
    cards |= {t * k for t in options.get("focus_tables") or () for k in MULTIPLIERS}
    return sorted(cards)


def focus_facts(options: dict) -> frozenset[str]:
    """The fact labels ("AxB", a <= b) a focused game is meant to practise."""
    facts = {f"{a}x{b}" for a, b in map(parse_fact, options.get("focus_facts") or ())}
    facts |= {f"{min(t, k)}x{max(t, k)}" for t in options.get("focus_tables") or () for k in MULTIPLIERS}
    return frozenset(facts)


def pack(options: dict) -> list:
    """Every card of the game's pack (canonical order): the standard pack, plus
    FOCUS_COPIES - 1 more copies of each focused card."""
    extra = [c for c in focus_cards(options) for _ in range(FOCUS_COPIES - 1)]
    return sorted_cards(all_cards(options["free_cards"]) + extra)
