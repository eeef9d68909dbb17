"""Report numbers in words: cells ("missed 4 of 37"), the band a cell falls in (a word and a
symbol as well as a colour, so colour is never the only signal), and the encouraging sentences
of a student's own "My progress" page. Pure: no database.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.skills import FACT_RANGE, Measure

from .measures import describe, measure_by_id

# Fewer chances than this say nothing about a student: the cell reads "too few to tell".
MIN_CHANCES = 5


@dataclass(frozen=True)
class Band:
    key: str     # CSS class suffix: band-strong, band-fair, ...
    label: str   # the word shown next to the numbers
    symbol: str  # a shape that tells the bands apart without colour


BANDS = {
    "none": Band("none", "No games yet", "·"),
    "few": Band("few", "Too few to tell", "…"),
    "strong": Band("strong", "Strong", "✓"),
    "fair": Band("fair", "Getting there", "◐"),
    "practise": Band("practise", "Practise", "△"),
    "help": Band("help", "Needs help", "!"),
}


def band_for(misses: int, chances: int) -> Band:
    """Miss rate bands: ≤10 % strong, ≤25 % getting there, ≤50 % practise, above: needs help."""
    if chances == 0:
        return BANDS["none"]
    if chances < MIN_CHANCES:
        return BANDS["few"]
    rate = misses / chances
    if rate <= 0.10:
        return BANDS["strong"]
    if rate <= 0.25:
        return BANDS["fair"]
    if rate <= 0.50:
        return BANDS["practise"]
    return BANDS["help"]


def seconds(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.0f} s" if value >= 10 else f"{value:.1f} s"


@dataclass(frozen=True)
class Cell:
    """One measure for one student (or the class): the counts and how to say them."""

    measure: Measure
    misses: int = 0
    chances: int = 0
    median: float | None = None  # seconds, for all.think_time

    @property
    def band(self) -> Band:
        if not self.measure.has_misses:
            return BANDS["none"] if not self.chances else Band("info", "Median", "~")
        return band_for(self.misses, self.chances)

    @property
    def short(self) -> str:
        """What the table cell reads."""
        if not self.chances:
            return "no games yet"
        if not self.measure.has_misses:
            return f"{seconds(self.median)} per decision"
        return f"missed {self.misses} of {self.chances}"

    @property
    def words(self) -> str:
        """The full sentence, for screen readers, titles and exports."""
        if not self.measure.has_misses:
            return (f"Median thinking time: {seconds(self.median)} over {self.chances} "
                    f"{self.measure.chance_unit}")
        return describe(self.measure, self.misses, self.chances)

    @property
    def rate(self) -> float | None:
        return self.misses / self.chances if self.chances and self.measure.has_misses else None


# ----- a student's own words ----------------------------------------------------------------

def times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def student_sentence(measure: Measure | str, misses: int, chances: int, *, who: str = "You") -> str:
    """'You chose the operator that gives the fewest points 33 times out of 37.' (`who` is
    the student's name in a report for parents.) What getting it right means is the
    measure's `well_words`, which read right after "You" and after a name alike (so never
    "you", "your" or "their"); a measure without them says it in its title's words."""
    m = measure_by_id(measure) if isinstance(measure, str) else measure
    if m is None:
        raise KeyError(f"unknown measure: {measure!r}")
    well = m.well_words or f"did well at “{m.title}”"
    return f"{who} {well} {times(chances - misses)} out of {chances}."


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
