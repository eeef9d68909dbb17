"""Numero's cards: codes, values, colours, printed points, wild-card effects, canonical order.

Number cards are `"<value><colour>"` (`"7g"`, `"15r"`), values 1-15, colours g o b r.
Wild cards change one centre value v; every effect is exact integer/Fraction arithmetic and
`apply_wild` returns None unless the result is a whole number of at least 1 (the spec's only
condition on a wild card). Roots exist only for perfect squares and perfect cubes.
"""

from __future__ import annotations

from fractions import Fraction
from math import isqrt

from ..words import _, names_in_words, pgettext

COLOURS = ("g", "o", "b", "r")
MAX_VALUE = 15
WILD_FAMILIES = ("subtract", "multiply", "divide", "fraction", "power")
OPERATIONS = ("+", "-", "x", "/")

# code -> (family, effect kind, parameter, operations it counts as, printed points)
_WILDS: dict[str, tuple] = {}


def _wild(code, family, kind, param, ops, points):
    _WILDS[code] = (family, kind, param, frozenset(ops), points)


for _k in (2, 3, 4, 5):
    _wild(f"-{_k}", "subtract", "sub", _k, "-", 1)
for _k in (2, 3, 4, 5):
    _wild(f"x{_k}", "multiply", "mul", Fraction(_k), "x", 2)
for _k in (2, 3, 4, 5):
    _wild(f"/{_k}", "divide", "mul", Fraction(1, _k), "/", 2)
for _code, _frac in (("1/2", Fraction(1, 2)), ("1/3", Fraction(1, 3)), ("1/4", Fraction(1, 4)),
                     ("2/3", Fraction(2, 3)), ("3/4", Fraction(3, 4)), ("0.5", Fraction(1, 2)),
                     ("0.25", Fraction(1, 4)), ("0.1", Fraction(1, 10)), ("1.5", Fraction(3, 2)),
                     ("2.5", Fraction(5, 2)), ("50%", Fraction(1, 2)), ("25%", Fraction(1, 4)),
                     ("10%", Fraction(1, 10))):
    # A unit fraction only divides; any other fraction multiplies and divides.
    _wild(_code, "fraction", "mul", _frac, "/" if _frac.numerator == 1 else "x/", 3)
_wild("sq", "power", "pow", 2, "x", 3)
_wild("cube", "power", "pow", 3, "x", 3)
_wild("sqrt", "power", "root", 2, "/", 3)
_wild("cbrt", "power", "root", 3, "/", 3)

WILD_CODES: tuple[str, ...] = tuple(_WILDS)
NUMBER_CODES: tuple[str, ...] = tuple(f"{v}{c}" for v in range(1, MAX_VALUE + 1) for c in COLOURS)
ALL_CODES: tuple[str, ...] = NUMBER_CODES + WILD_CODES
_ORDER = {code: i for i, code in enumerate(ALL_CODES)}
_NUMBER_VALUE = {code: int(code[:-1]) for code in NUMBER_CODES}


def is_code(value) -> bool:
    return type(value) is str and value in _ORDER


def is_number(code: str) -> bool:
    return code in _NUMBER_VALUE


def is_wild(code: str) -> bool:
    return code in _WILDS


def value_of(code: str) -> int:
    """The value of a number card."""
    return _NUMBER_VALUE[code]


def colour_of(code: str) -> str:
    return code[-1]


def family_of(code: str) -> str:
    return _WILDS[code][0]


def wild_ops(code: str) -> frozenset:
    return _WILDS[code][3]


def wild_effect(code: str) -> tuple:
    """(kind, parameter): wild cards with the same effect change values the same way."""
    return _WILDS[code][1], _WILDS[code][2]


def printed_points(code: str) -> int:
    if code in _WILDS:
        return _WILDS[code][4]
    return 2 if _NUMBER_VALUE[code] in (1, 15) else 0


def sort_key(code: str) -> int:
    return _ORDER[code]


def sort_cards(cards) -> list[str]:
    return sorted(cards, key=_ORDER.__getitem__)


def pack(options: dict) -> list[str]:
    """Every card the options put in the pack, in canonical order."""
    top = options["max_number"]
    families = set(options["wilds"])
    numbers = [c for c in NUMBER_CODES if _NUMBER_VALUE[c] <= top]
    return numbers + [c for c in WILD_CODES if _WILDS[c][0] in families]


def in_pack(code: str, options: dict) -> bool:
    if code in _NUMBER_VALUE:
        return _NUMBER_VALUE[code] <= options["max_number"]
    return code in _WILDS and _WILDS[code][0] in options["wilds"]


def _icbrt(n: int) -> int:
    root = round(n ** (1 / 3))
    for r in (root - 1, root, root + 1):
        if r >= 0 and r * r * r == n:
            return r
    return -1


def apply_wild(code: str, value: int) -> int | None:
    """The new whole value of a centre item, or None if the card may not be applied."""
    _family, kind, param, _ops, _pts = _WILDS[code]
    if kind == "sub":
        result = value - param
    elif kind == "mul":
        top = value * param.numerator
        if top % param.denominator:
            return None
        result = top // param.denominator
    elif kind == "pow":
        result = value ** param
    else:
        result = isqrt(value) if param == 2 else _icbrt(value)
        if result ** param != value:
            return None
    return result if result >= 1 else None


# ----- cards in words, for every sentence a child reads ------------------------------------
COLOUR_NAMES = {"g": pgettext("Numero card colour", "green"), "o": pgettext("Numero card colour", "orange"),
                "b": pgettext("Numero card colour", "blue"), "r": pgettext("Numero card colour", "red")}
_POWER_SYMBOLS = {"sq": "x²", "cube": "x³", "sqrt": "√", "cbrt": "∛"}


def symbol(code: str) -> str:
    """A card's big printed text: "7" for a number card, "÷2", "−3", "×0.5", "1/2", "√" for a
    wild card."""
    if code in _NUMBER_VALUE:
        return str(_NUMBER_VALUE[code])
    if code in _POWER_SYMBOLS:
        return _POWER_SYMBOLS[code]
    if code.startswith("-"):
        return f"−{code[1:]}"
    if code.startswith("x"):
        return f"×{code[1:]}"
    if code.startswith("/"):
        return f"÷{code[1:]}"
    if code.endswith("%") or "/" in code:
        return code
    return f"×{code}"


def words(code: str) -> str:
    """A card as a sentence names it: "orange 10", "green 3", "wild card ÷2". Never the code."""
    if code in _NUMBER_VALUE:
        # Translators: a Numero number card in a sentence: "green 7" (%(colour)s is the colour word).
        return pgettext("Numero card", "%(colour)s %(value)s", colour=COLOUR_NAMES[code[-1]],
                        value=_NUMBER_VALUE[code])
    return pgettext("Numero card", "wild card %(symbol)s", symbol=symbol(code))


def words_list(codes) -> str:
    """Cards in a sentence: "green 3, red 7 and wild card ÷2"."""
    return names_in_words([words(c) for c in codes])


_SYMBOL = {"sub": "−", "mul": "×"}


def describe_wild(code: str, before: int, after: int) -> str:
    """A number sentence for a wild card, e.g. "10 − 2 = 8", "½ of 10 = 5", "√9 = 3"."""
    _family, kind, param, _ops, _pts = _WILDS[code]
    if kind == "sub":
        return f"{before} − {param} = {after}"
    if kind == "pow":
        return f"{before}{'²' if param == 2 else '³'} = {after}"
    if kind == "root":
        return f"{'√' if param == 2 else '∛'}{before} = {after}"
    if code.startswith("x"):
        return f"{before} × {code[1:]} = {after}"
    if code.startswith("/"):
        return f"{before} ÷ {code[1:]} = {after}"
    if code.endswith("%") or "/" in code:
        # Translators: a fraction or percentage of a number: "1/2 of 10 = 5".
        return _("%(part)s of %(before)s = %(after)s", part=code, before=before, after=after)
    return f"{before} × {code} = {after}"
