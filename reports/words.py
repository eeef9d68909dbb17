"""The sentences of a student's own "My progress" page and of the parents' report: what went
well, how sure the numbers are for a child, the facts to practise, how it is going. Pure: no
database.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.skills import FACT_RANGE, Measure, well_sentence

from .cells import Total
from .measures import measure_by_id
from .uncertainty import MIN_CHANCES, wilson


def student_sentence(measure: Measure | str, misses: int, chances: int, *, who: str | None = None) -> str:
    """'You chose the best card 33 times out of 37.' (`who` is the student's name in a report
    for parents; None: the child reads it.) The measure or its id; the sentence itself is
    `well_sentence`, which the end of a game says too (games/results.py)."""
    m = measure_by_id(measure) if isinstance(measure, str) else measure
    if m is None:
        raise KeyError(f"unknown measure: {measure!r}")
    return well_sentence(m, misses, chances) if who is None else well_sentence(m, misses, chances, who=who)


def child_range_sentence(misses: int, chances: int) -> str:
    """How sure the numbers are, for a child: the 90 % range of getting it right, in tenths
    ("From 28 tries: you get it right about 6 to 8 times in 10."). Empty with too few tries
    to say (MIN_CHANCES)."""
    if chances < MIN_CHANCES:
        return ""
    low, high = wilson(misses, chances)
    most, least = round(10 * (1 - low)), round(10 * (1 - high))
    if most == least:
        # Translators: for a child; "From 28 tries: you get it right about 7 times in 10."
        return _("From %(count)s tries: you get it right about %(most)s times in 10.") % {
            "count": chances, "most": most}
    # Translators: for a child; "From 28 tries: you get it right about 6 to 8 times in 10."
    return _("From %(count)s tries: you get it right about %(least)s to %(most)s times in 10.") % {
        "count": chances, "least": least, "most": most}


def child_totals_sentence(totals: list[Total]) -> str:
    """What better choices would have won, for a child (the strategy totals), or ""."""
    given = [t.short for t in totals if t.chances and t.value]
    if not given:
        return ""
    # Translators: for a child; amounts is a list such as "178 points given away and 3 cards left behind".
    return _("Compared with the best play, here is what your choices cost in all your games: "
             "%(amounts)s. Every game is a chance to win them back!") % {"amounts": listed(given)}


def table_ways(value: int) -> list[tuple[int, int]]:
    """Every way of making `value` in the times tables, smaller number first: 12 -> [(2, 6), (3, 4)]."""
    return [(a, value // a) for a in FACT_RANGE
            if value % a == 0 and a <= value // a and value // a in FACT_RANGE]


def _fact(fact: tuple[int, int]) -> str:
    return f"{fact[0]} × {fact[1]}"


def listed(items: list[str], *, either: bool = False) -> str:
    """'a, b and c' ('a, b or c' with `either`), in the reader's language."""
    if len(items) == 1:
        return items[0]
    values = {"items": ", ".join(items[:-1]), "last": items[-1]}
    if either:
        # Translators: the end of a list of choices, "2 × 6 or 3 × 4".
        return _("%(items)s or %(last)s") % values
    # Translators: the end of a list, "4 × 1, 5 × 2 and 6 × 3".
    return _("%(items)s and %(last)s") % values


def fact_to_practise(card: int | None, said, *, who: str | None = None) -> str:
    """A card whose fact was named wrong, as a child (`who` None) or a parent reads it: the
    fact the card needed and what was said, '12 is 2 × 6 or 3 × 4 (you said 4 × 1)'. `card`
    None: the move did not record the card, so only what is known is said ('You said 7 × 8
    for a card that was not 56')."""
    said = [tuple(f) for f in said]
    values = {"name": who, "said": listed([_fact(f) for f in said]), "card": card}
    if card is None:
        values["product"] = said[0][0] * said[0][1]
        if len(said) > 1:
            if who is None:
                return _("You said %(said)s for cards they do not make") % values
            # Translators: name is a child's name; said a list of facts ("7 × 8 and 6 × 9").
            return _("%(name)s said %(said)s for cards they do not make") % values
        if who is None:
            return _("You said %(said)s for a card that was not %(product)s") % values
        return _("%(name)s said %(said)s for a card that was not %(product)s") % values
    ways = table_ways(card)
    if not ways:
        if who is None:
            return _("the card %(card)s (you said %(said)s)") % values
        return _("the card %(card)s (%(name)s said %(said)s)") % values
    values["ways"] = listed([_fact(w) for w in ways], either=True)
    if who is None:
        # Translators: "12 is 2 × 6 or 3 × 4 (you said 4 × 1)".
        return _("%(card)s is %(ways)s (you said %(said)s)") % values
    return _("%(card)s is %(ways)s (%(name)s said %(said)s)") % values


def growth_sentence(*, before: tuple[int, int], recent: tuple[int, int], who: str | None = None) -> str:
    """Compares the last week played with the weeks before it, kindly. Pairs are
    (misses, chances); a side without enough chances says nothing. `who` None: the child."""
    (b_miss, b_chances), (r_miss, r_chances) = before, recent
    if b_chances < MIN_CHANCES or r_chances < MIN_CHANCES:
        return ""
    b_right, r_right = 1 - b_miss / b_chances, 1 - r_miss / r_chances
    values = {"name": who, "before": b_chances - b_miss, "before_count": b_chances,
              "recent": r_chances - r_miss, "recent_count": r_chances}
    if r_right >= b_right + 0.05:
        if who is None:
            return _("You're getting better! Before: %(before)s of %(before_count)s. In the last "
                     "week played: %(recent)s of %(recent_count)s.") % values
        return _("%(name)s is getting better! Before: %(before)s of %(before_count)s. In the last "
                 "week played: %(recent)s of %(recent_count)s.") % values
    if r_right >= b_right - 0.05:
        if who is None:
            return _("You're keeping it up, week after week.")
        return _("%(name)s is keeping it up, week after week.") % values
    return _("This one is worth a bit more practice. Every game helps!")


def measure_title(measure_id: str) -> str:
    m = measure_by_id(measure_id)
    return m.title if m else measure_id
