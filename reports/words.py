"""The sentences of a student's own "My progress" page and of the parents' report: what went
well, how sure the numbers are for a child, the facts to practise, how it is going. Pure: no
database.
"""

from __future__ import annotations

from games.engine.skills import FACT_RANGE, Measure, well_sentence

from .cells import Total
from .measures import measure_by_id
from .uncertainty import MIN_CHANCES, wilson


def student_sentence(measure: Measure | str, misses: int, chances: int, *, who: str = "You") -> str:
    """'You chose the best card 33 times out of 37.' (`who` is the student's name in a report
    for parents.) The measure or its id; the sentence itself is `well_sentence`, which the
    end of a game says too (games/results.py)."""
    m = measure_by_id(measure) if isinstance(measure, str) else measure
    if m is None:
        raise KeyError(f"unknown measure: {measure!r}")
    return well_sentence(m, misses, chances, who=who)


def child_range_sentence(misses: int, chances: int) -> str:
    """How sure the numbers are, for a child: the 90 % range of getting it right, in tenths
    ("From 28 tries: you get it right about 6 to 8 times in 10."). Empty with too few tries
    to say (MIN_CHANCES)."""
    if chances < MIN_CHANCES:
        return ""
    low, high = wilson(misses, chances)
    most, least = round(10 * (1 - low)), round(10 * (1 - high))
    if most == least:
        return f"From {chances} tries: you get it right about {most} times in 10."
    return f"From {chances} tries: you get it right about {least} to {most} times in 10."


def child_totals_sentence(totals: list[Total]) -> str:
    """What better choices would have won, for a child (the strategy totals), or ""."""
    given = [t.short for t in totals if t.chances and t.value]
    if not given:
        return ""
    return ("Compared with the best play, here is what your choices cost in all your games: "
            f"{_listed(given, 'and')}. Every game is a chance to win them back!")


def table_ways(value: int) -> list[tuple[int, int]]:
    """Every way of making `value` in the times tables, smaller number first: 12 -> [(2, 6), (3, 4)]."""
    return [(a, value // a) for a in FACT_RANGE
            if value % a == 0 and a <= value // a and value // a in FACT_RANGE]


def _fact(fact: tuple[int, int]) -> str:
    return f"{fact[0]} × {fact[1]}"


def _listed(items: list[str], last: str) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


def fact_to_practise(card: int | None, said, *, who: str = "You") -> str:
    """A card whose fact was named wrong, as a child or a parent reads it: the fact the card
    needed and what was said, '12 is 2 × 6 or 3 × 4 (you said 4 × 1)'. `card` None: the move
    did not record the card, so only what is known is said ('You said 7 × 8 for a card that
    was not 56')."""
    said = [tuple(f) for f in said]
    named = _listed([_fact(f) for f in said], "and")
    if card is None:
        if len(said) > 1:
            return f"{who} said {named} for cards they do not make"
        return f"{who} said {named} for a card that was not {said[0][0] * said[0][1]}"
    subject = "you" if who == "You" else who
    ways = table_ways(card)
    if not ways:
        return f"the card {card} ({subject} said {named})"
    return f"{card} is {_listed([_fact(w) for w in ways], 'or')} ({subject} said {named})"


def growth_sentence(*, before: tuple[int, int], recent: tuple[int, int], who: str = "You") -> str:
    """Compares the last week played with the weeks before it, kindly. Pairs are
    (misses, chances); a side without enough chances says nothing."""
    (b_miss, b_chances), (r_miss, r_chances) = before, recent
    if b_chances < MIN_CHANCES or r_chances < MIN_CHANCES:
        return ""
    b_right, r_right = 1 - b_miss / b_chances, 1 - r_miss / r_chances
    you = who == "You"
    if r_right >= b_right + 0.05:
        return ((f"You're getting better!" if you else f"{who} is getting better!")
                + f" Before: {b_chances - b_miss} of {b_chances}."
                + f" In the last week played: {r_chances - r_miss} of {r_chances}.")
    if r_right >= b_right - 0.05:
        return ("You're" if you else f"{who} is") + " keeping it up, week after week."
    return "This one is worth a bit more practice. Every game helps!"


def measure_title(measure_id: str) -> str:
    m = measure_by_id(measure_id)
    return m.title if m else measure_id
