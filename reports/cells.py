"""What a report shows for one measure, one operation or one kind of amount, of one student
or the class: the counts, and how to say them ("missed 4 of 37", "about 10-35 %", "178 points
given away"). Pure: no database.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.skills import Measure

from .families import Family, family_of
from .measures import describe
from .operations import OPERATION_WORDS
from .uncertainty import BANDS, Band, band_for, range_short, range_words


def seconds(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.0f} s" if value >= 10 else f"{value:.1f} s"


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
