"""Report numbers in words: cells ("missed 4 of 37"), the band a cell falls in (a word and a
symbol as well as a colour, so colour is never the only signal), and the encouraging sentences
of a student's own "My progress" page. Pure: no database.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil, floor, sqrt

from games.engine.skills import FACT_RANGE, OPERATIONS, Measure

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


# The 90 % Wilson score interval (two-sided): z of the normal distribution's 95th percentile.
WILSON_Z = 1.6449
STRONG_MAX, FAIR_MAX, PRACTISE_MAX = 0.10, 0.25, 0.50
_ORDER = ("strong", "fair", "practise", "help")


def wilson(misses: int, chances: int, z: float = WILSON_Z) -> tuple[float, float]:
    """The 90 % Wilson score interval of the miss rate misses / chances, as (low, high)
    fractions; (0.0, 1.0) when there are no chances. Unlike "rate ± 1.64 standard errors"
    it never leaves 0..1 and is not zero-wide at 0 of n: 0 of 20 is (0, 0.119)."""
    if chances <= 0:
        return 0.0, 1.0
    p = misses / chances
    z2 = z * z
    centre = (p + z2 / (2 * chances)) / (1 + z2 / chances)
    half = z * sqrt(p * (1 - p) / chances + z2 / (4 * chances * chances)) / (1 + z2 / chances)
    return max(0.0, centre - half), min(1.0, centre + half)


def _band_of_rate(rate: float) -> str:
    if rate <= STRONG_MAX:
        return "strong"
    if rate <= FAIR_MAX:
        return "fair"
    if rate <= PRACTISE_MAX:
        return "practise"
    return "help"


def band_for(misses: int, chances: int) -> Band:
    """The band of a miss rate, judged with its 90 % Wilson interval (`wilson`).

    Cut-offs of the rate: ≤10 % Strong, ≤25 % Getting there, ≤50 % Practise, above: Needs
    help. The rule (Revision 2 of shared/spec/skills.md, "uncertainty is shown"):

    1. Fewer than MIN_CHANCES chances: "Too few to tell" (none at all: "No games yet").
    2. The interval reaches both Strong (low end ≤ 10 %) and Needs help (high end > 50 %):
       the numbers cannot tell a strong student from one who needs help, so "Too few to
       tell" as well (1 of 5 is "about 5-60 %").
    3. Otherwise the band of the rate itself (misses / chances), capped by the interval's
       low end: at most one band worse than the band the low end falls in. So "Needs help"
       only when the low end is above 25 %, "Practise" only when it is above 10 %: a student
       whose interval reaches Strong is at worst "Getting there" (3 of 20 = 15 % is
       "Getting there", never "Needs help"; 3 of 5 = 60 % has a low end of 27 %: "Needs
       help").
    """
    if chances == 0:
        return BANDS["none"]
    if chances < MIN_CHANCES:
        return BANDS["few"]
    low, high = wilson(misses, chances)
    if low <= STRONG_MAX and high > PRACTISE_MAX:
        return BANDS["few"]
    by_rate = _ORDER.index(_band_of_rate(misses / chances))
    cap = _ORDER.index(_band_of_rate(low)) + 1
    return BANDS[_ORDER[min(by_rate, cap)]]


def _percent_range(misses: int, chances: int) -> tuple[int, int]:
    """The interval in whole percents a teacher reads: to the nearest 5 when it is 10 points
    wide or more ("about 10-35 %"), else to the nearest 1 ("about 0-7 %")."""
    low, high = (100 * v for v in wilson(misses, chances))
    step = 5 if high - low >= 10 else 1
    lo = floor(low / step + 0.5) * step
    hi = ceil(high / step - 0.5) * step
    if hi <= lo:  # rounding closed it up: keep it a range
        lo, hi = floor(low / step) * step, ceil(high / step) * step
    return max(0, lo), min(100, hi)


def range_short(misses: int, chances: int) -> str:
    """'about 10-35 %': the likely miss rate, for a table cell."""
    lo, hi = _percent_range(misses, chances)
    return f"about {lo}-{hi} %"


def range_words(misses: int, chances: int) -> str:
    """'about 10-35 %, from 41 chances': the 90 % Wilson interval of the miss rate, as a
    teacher reads it next to the counts (sentences, titles, exports)."""
    return f"{range_short(misses, chances)}, from {chances} chance{'s' if chances != 1 else ''}"


# ----- families ----------------------------------------------------------------------

@dataclass(frozen=True)
class Family:
    key: str
    title: str   # the heading of a group of measures
    about: str   # one line in plain words, for the teacher
    child: str   # the heading a student reads on "My progress"


FAMILIES = {
    "arithmetic": Family("arithmetic", "Arithmetic",
                         "Working sums out right and knowing the facts: a wrong answer, a "
                         "times-table fact said wrong, a division that does not go exactly.",
                         "Working it out"),
    "strategy": Family("strategy", "Strategy",
                       "How good each choice was, compared with the best play in the same "
                       "position (what our strongest computer player would do there). A move "
                       "it would make itself is never a miss.",
                       "Clever choices"),
    "rules": Family("rules", "Rules", "Moves the game did not allow, tried anyway.",
                    "Playing by the rules"),
    "time": Family("time", "Thinking time", "How long a decision takes: not right or wrong.",
                   "Thinking time"),
}


def family_of(measure: Measure) -> Family:
    return FAMILIES.get(getattr(measure, "family", ""), FAMILIES["strategy"])


def by_family(measures) -> list:
    """Measures in family order (arithmetic, strategy, rules, time), keeping their order
    within a family."""
    order = list(FAMILIES)
    return sorted(measures, key=lambda m: order.index(family_of(m).key))


def family_groups(measures) -> list[tuple[Family, list]]:
    """[(family, its measures)] in family order, families without measures left out."""
    groups: list[tuple[Family, list]] = []
    for m in by_family(measures):
        fam = family_of(m)
        if groups and groups[-1][0] is fam:
            groups[-1][1].append(m)
        else:
            groups.append((fam, [m]))
    return groups


# ----- per operation ----------------------------------------------------------------------

# Another spelling of an operation in a detail, read as the report's own sign.
_OPERATION_SPELLINGS = {"+": "+", "−": "−", "-": "−", "×": "×", "x": "×", "*": "×",
                        "÷": "÷", "/": "÷", ":": "÷"}
# (teacher's name, what a child did) per operation
OPERATION_WORDS = {"+": ("Adding", "adding"), "−": ("Taking away", "taking away"),
                   "×": ("Multiplying", "multiplying"), "÷": ("Dividing", "dividing")}


def operation_of(detail: str) -> str | None:
    """A per-operation detail as one of OPERATIONS ("+", "−", "×", "÷"), or None."""
    return _OPERATION_SPELLINGS.get((detail or "").strip())


def operation_details() -> list[str]:
    """Every detail spelling that is an operation (for a database filter)."""
    return list(_OPERATION_SPELLINGS)


@dataclass(frozen=True)
class OpCell:
    """Accuracy at one operation, summed over the measures whose details are operations."""

    op: str
    misses: int = 0
    chances: int = 0
    measure_ids: tuple[str, ...] = ()  # the measures with chances at it

    @property
    def name(self) -> str:
        return f"{OPERATION_WORDS[self.op][0]} ({self.op})"

    @property
    def right(self) -> int:
        return self.chances - self.misses

    @property
    def band(self) -> Band:
        return band_for(self.misses, self.chances)

    @property
    def short(self) -> str:
        return f"missed {self.misses} of {self.chances}" if self.chances else "not tried yet"

    @property
    def range(self) -> str:
        return range_short(self.misses, self.chances) if self.chances else ""

    @property
    def words(self) -> str:
        if not self.chances:
            return f"{self.name}: not tried yet"
        return (f"{self.name}: wrong {self.misses} of {self.chances} times "
                f"({range_words(self.misses, self.chances)})")

    @property
    def rate(self) -> float | None:
        return self.misses / self.chances if self.chances else None

    def child_sentence(self) -> str:
        """'Adding (+): you got 12 of 14 right.'"""
        return f"{self.name}: you got {self.right} of {self.chances} right."

    def sentence_about(self, who: str) -> str:
        return f"{OPERATION_WORDS[self.op][0]} ({self.op}): {who} got {self.right} of {self.chances} right."


# ----- totals: what choices gave away -----------------------------------------------------

@dataclass(frozen=True)
class Total:
    """The sum of the amounts of the measures that share an `amount_words` (points given
    away, cards left behind), for one student or the class."""

    words: tuple[str, str]   # (one, many), e.g. ("point given away", "points given away")
    amount: float = 0.0
    chances: int = 0
    students: int = 0  # for the class: how many students it is the sum of

    @property
    def title(self) -> str:
        return self.words[1][:1].upper() + self.words[1][1:]

    @property
    def value(self) -> int | float:
        """Whole numbers from 10 up ("178 points", not "177.6": the regrets behind it are the
        expert's estimates); one decimal below, where it still says something ("0.4 points")."""
        if abs(self.amount) >= 10 or abs(self.amount - round(self.amount)) < 0.05:
            return int(round(self.amount))
        return round(self.amount, 1)

    @property
    def short(self) -> str:
        if not self.chances:
            return "–"
        return f"{self.value} {self.words[0] if self.value == 1 else self.words[1]}"

    @property
    def per_student(self) -> float | None:
        return self.amount / self.students if self.students else None

    @property
    def words_full(self) -> str:
        if not self.chances:
            return f"{self.title}: no games yet"
        text = f"{self.title}: {self.value} in {self.chances} chances"
        if self.students:
            text += f" (about {self.per_student:.0f} a student)"
        return text


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
    amount: float = 0.0  # the sum of the rows' amounts (points given away, cards left behind)

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
    def range(self) -> str:
        """The likely miss rate, concise: 'about 10-35 %' ('' without misses to count)."""
        if not self.chances or not self.measure.has_misses:
            return ""
        return range_short(self.misses, self.chances)

    @property
    def range_words(self) -> str:
        """'about 10-35 %, from 41 chances'."""
        if not self.chances or not self.measure.has_misses:
            return ""
        return range_words(self.misses, self.chances)

    @property
    def words(self) -> str:
        """The full sentence, for screen readers, titles and exports: the counts, then the
        likely miss rate ('...: 8 of 41 turns (about 10-35 %, from 41 chances)')."""
        if not self.measure.has_misses:
            return (f"Median thinking time: {seconds(self.median)} over {self.chances} "
                    f"{self.measure.chance_unit}")
        text = describe(self.measure, self.misses, self.chances)
        if self.chances:
            text += f" ({self.range_words})"
        return text

    @property
    def family(self) -> Family:
        return family_of(self.measure)

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
