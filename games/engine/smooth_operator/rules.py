"""The cards and arithmetic of Smooth Operator, and the one legal-move generator.

Everything here is a pure function of data that the state and a player's view share (the
face-up pair, one hand, the turn's awards), so the engine's validation hints, the bots, the
views and the skill analysis all call the same code.
"""

from __future__ import annotations

from collections import Counter

from ..words import pgettext

ARITHMETIC = ("+", "-", "x", "/")
SPECIALS = ("free_turn", "double", "free_choice")
OPERATOR_CODES = ARITHMETIC + SPECIALS  # also the canonical order of a sorted hand
CANONICAL = {code: i for i, code in enumerate(OPERATOR_CODES)}
SPECIAL_SET = frozenset(SPECIALS)

HIGH_VALUES = tuple(range(11, 21))
LOW_VALUES = tuple(range(1, 11))
NUMBER_COPIES = 5
OPERATOR_COPIES = {"+": 15, "-": 15, "x": 15, "/": 15, "free_turn": 4, "double": 4, "free_choice": 4}
HAND_SIZE = 3
STUCK_PENALTY = 25

# Decision kinds (also the `kind` of an analysis, for think time by kind).
RESPONSE, PENALTY, SPECIALS_PHASE = "response", "penalty", "specials"

# How a sign reads in a sentence for children.
SYMBOL = {"+": "+", "-": "−", "x": "×", "/": "÷"}
CARD_NAME = {"+": "+", "-": "−", "x": "×", "/": "÷",
             "free_turn": pgettext("Smooth Operator card", "Free Turn"),
             "double": pgettext("Smooth Operator card", "Double"),
             "free_choice": pgettext("Smooth Operator card", "Free Choice")}


HIGH_PACK = tuple(v for v in HIGH_VALUES for _ in range(NUMBER_COPIES))
LOW_PACK = tuple(v for v in LOW_VALUES for _ in range(NUMBER_COPIES))
OPERATOR_PACK = tuple(code for code in OPERATOR_CODES for _ in range(OPERATOR_COPIES[code]))


# ----- focus options (house rules, docs/rules-smooth-operator.md) ---------------------------
# A focused operator pack: FOCUS_COPIES of each focused arithmetic sign (the cards of three
# packs), UNFOCUSED_COPIES of each other arithmetic sign, the 12 special cards as usual (one
# focused sign: 72 cards, as many as the standard operator deck).
FOCUS_COPIES = 45
UNFOCUSED_COPIES = 5


def is_focus_operators(value) -> bool:
    """1 to 3 different arithmetic signs, e.g. ["/", "-"]."""
    return (type(value) is list and 1 <= len(value) <= 3
            and all(type(v) is str and v in ARITHMETIC for v in value) and len(set(value)) == len(value))


def range_check(low: int, high: int):
    """A predicate for [a, b] with low <= a <= b <= high (whole numbers)."""
    def check(value) -> bool:
        return (type(value) is list and len(value) == 2 and all(type(v) is int for v in value)
                and low <= value[0] <= value[1] <= high)
    return check


def operator_copies(options: dict) -> dict[str, int]:
    """How many of each operator card the options' pack holds."""
    focus = options.get("focus_operators")
    if not focus:
        return dict(OPERATOR_COPIES)
    return {code: (FOCUS_COPIES if code in focus else UNFOCUSED_COPIES) if code in ARITHMETIC
            else OPERATOR_COPIES[code] for code in OPERATOR_CODES}


def operator_pack(options: dict) -> tuple[str, ...]:
    copies = operator_copies(options)
    return tuple(code for code in OPERATOR_CODES for _ in range(copies[code]))


def high_values(options: dict) -> tuple[int, ...]:
    low, high = options.get("high_range") or (HIGH_VALUES[0], HIGH_VALUES[-1])
    return tuple(range(low, high + 1))


def low_values(options: dict) -> tuple[int, ...]:
    low, high = options.get("low_range") or (LOW_VALUES[0], LOW_VALUES[-1])
    return tuple(range(low, high + 1))


def number_pack(values) -> list[int]:
    return [v for v in values for _ in range(NUMBER_COPIES)]


def high_components() -> list[int]:
    return list(HIGH_PACK)


def low_components() -> list[int]:
    return list(LOW_PACK)


def operator_components() -> list[str]:
    return list(OPERATOR_PACK)


def without(cards, removed) -> list:
    """`cards` minus the multiset `removed` (order kept; missing cards are ignored)."""
    if not removed:
        return list(cards)
    left = Counter(removed)
    kept = []
    for card in cards:
        if left[card]:
            left[card] -= 1
        else:
            kept.append(card)
    return kept


def sort_hand(hand: list[str]) -> list[str]:
    return sorted(hand, key=CANONICAL.__getitem__)


def result(sign: str, high: int, low: int) -> int | None:
    """h (sign) l, or None for a division that does not come out even."""
    if sign == "+":
        return high + low
    if sign == "-":
        return high - low
    if sign == "x":
        return high * low
    return high // low if high % low == 0 else None


def play_options(hand, high: int, low: int) -> dict[str, int]:
    """{card: award} for every arithmetic card of `hand` that may be played on the pair."""
    options = {}
    for card in ARITHMETIC:
        if card in hand:
            value = result(card, high, low)
            if value is not None:
                options[card] = value
    return options


def has_legal_play(hand, high: int, low: int) -> bool:
    for card in hand:
        if card in ("+", "-", "x") or (card == "/" and high % low == 0):
            return True
    return False


def has_special(hand) -> bool:
    for card in hand:
        if card in SPECIAL_SET:
            return True
    return False


def specials_in(hand) -> list[str]:
    """The distinct special cards of a hand, in canonical order."""
    return [card for card in SPECIALS if card in hand]


def free_choice_signs(high: int, low: int) -> list[str]:
    return [sign for sign in ARITHMETIC if result(sign, high, low) is not None]


def best_sign(high: int, low: int) -> str:
    """The sign giving the most points on the pair (x, unless l is 1 where + wins)."""
    return max(free_choice_signs(high, low), key=lambda s: result(s, high, low))


def turn_points(awards_total: int, doubles: int) -> int:
    return awards_total << doubles


def decision_kind(phase: str, me, active, responder, hand, high, low) -> str | None:
    """What `me` must decide now: RESPONSE, PENALTY, SPECIALS_PHASE, or None."""
    if me is None:
        return None
    if phase == "respond" and me == responder:
        return RESPONSE if has_legal_play(hand, high, low) else PENALTY
    if phase == "special" and me == active:
        return SPECIALS_PHASE
    return None


def legal_moves(kind: str | None, hand, high: int, low: int) -> list[dict]:
    """Every distinct legal action (without "player") for a decision of `kind`."""
    if kind == RESPONSE:
        return [{"type": "play", "card": card} for card in play_options(hand, high, low)]
    if kind == PENALTY:
        return [{"type": "penalty", "discard": card} for card in specials_in(hand)]
    if kind == SPECIALS_PHASE:
        moves = []
        for card in specials_in(hand):
            if card == "free_choice":
                moves.extend({"type": "special", "card": card, "sign": sign}
                             for sign in free_choice_signs(high, low))
            else:
                moves.append({"type": "special", "card": card})
        moves.append({"type": "end_turn"})
        return moves
    return []


def responders(order: list[str], active: str) -> list[str]:
    """The other players in play order, starting after the active one."""
    i = order.index(active)
    return order[i + 1:] + order[:i]
