"""What a report shows for one measure, one operation or one kind of amount, of one student
or the class: the counts, and how to say them ("missed 4 of 37", "about 10-35 %", "178 points
given away"). Pure: no database.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from accounts.numbers import format_number
from games.engine.skills import Measure, Unit

from .families import Family, family_of
from .measures import describe
from .operations import OPERATION_WORDS
from .uncertainty import BANDS, Band, band_for, range_short, range_words


def decimal(text: str) -> str:
    """A number already written with a dot ("4.2"), with the reader's decimal sign ("4,2"):
    the digits after the sign are kept as they are ("4.0" stays "4,0"; accounts.numbers, which
    knows the reader's convention, drops a trailing 0, so only its sign is taken from it)."""
    return text.replace(".", format_number(1.5, digits=1)[1])


def seconds(value: float | None) -> str:
    if value is None:
        return "–"
    # Translators: a number of seconds, e.g. "4.2 s".
    return _("%(seconds)s s") % {"seconds": decimal(f"{value:.0f}" if value >= 10 else f"{value:.1f}")}


# Thinking time has no misses: its cell reads its median, with this band.
MEDIAN_BAND = Band("info", pgettext_lazy("skill band", "Median"), "~")


def missed_of(misses: int, chances: int) -> str:
    """What a table cell reads: 'missed 4 of 37'."""
    # Translators: in a table cell, "missed 4 of 37" (misses of chances).
    return _("missed %(misses)s of %(count)s") % {"misses": misses, "count": chances}


@dataclass(frozen=True)
class OpCell:
    """Accuracy at one operation, summed over the measures whose details are operations."""

    op: str
    misses: int = 0
    chances: int = 0
    measure_ids: tuple[str, ...] = ()  # the measures with chances at it

    @property
    def name(self) -> str:
        return f"{OPERATION_WORDS[self.op][0]} ({self.op})"  # "Adding (+)": no words to translate here

    @property
    def right(self) -> int:
        return self.chances - self.misses

    @property
    def band(self) -> Band:
        return band_for(self.misses, self.chances)

    @property
    def short(self) -> str:
        return missed_of(self.misses, self.chances) if self.chances else _("not tried yet")

    @property
    def range(self) -> str:
        return range_short(self.misses, self.chances) if self.chances else ""

    @property
    def words(self) -> str:
        if not self.chances:
            # Translators: an operation ("Adding (+)") nobody has tried yet.
            return _("%(operation)s: not tried yet") % {"operation": self.name}
        # Translators: "Adding (+): wrong 3 of 14 times (about 10-35 %, from 14 chances)".
        return ngettext("%(operation)s: wrong %(misses)s of %(count)s times (%(range)s)",
                        "%(operation)s: wrong %(misses)s of %(count)s times (%(range)s)",
                        self.chances) % {"operation": self.name, "misses": self.misses,
                                         "count": self.chances,
                                         "range": range_words(self.misses, self.chances)}

    @property
    def rate(self) -> float | None:
        return self.misses / self.chances if self.chances else None

    def child_sentence(self) -> str:
        """'Adding (+): you got 12 of 14 right.'"""
        # Translators: a child's own sums, "Adding (+): you got 12 of 14 right."
        return _("%(operation)s: you got %(right)s of %(count)s right.") % {
            "operation": self.name, "right": self.right, "count": self.chances}

    def sentence_about(self, who: str) -> str:
        # Translators: for a parent, "Adding (+): Ann got 12 of 14 right." (name: the child's name).
        return _("%(operation)s: %(name)s got %(right)s of %(count)s right.") % {
            "operation": self.name, "name": who, "right": self.right, "count": self.chances}


def amount_in_words(unit: tuple[str, str], value: float) -> str:
    """"178 points given away", "1 card left behind", "0,4 points given away": an amount in
    its measure's unit (`Measure.amount_words`), with the plural form its number takes in the
    reader's language."""
    if isinstance(unit, Unit):
        return str(unit.of(value))
    # Translators: an amount and its unit from the game, "178 points given away".
    return _("%(amount)s %(unit)s") % {"amount": decimal(str(value)), "unit": unit[0] if value == 1 else unit[1]}


@dataclass(frozen=True)
class Total:
    """The sum of the amounts of the measures that share an `amount_words` (points given
    away, cards left behind), for one student or the class."""

    # The measures' `amount_words`: a `Unit`, as data (one, many), e.g. ("point given away",
    # "points given away"); said with its plural forms in the reader's language.
    words: tuple[str, str]
    amount: float = 0.0
    chances: int = 0
    students: int = 0  # for the class: how many students it is the sum of

    @property
    def title(self) -> str:
        if isinstance(self.words, Unit):
            return str(self.words.title)  # "Points given away", in the reader's language
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
        return amount_in_words(self.words, self.value)

    @property
    def per_student(self) -> float | None:
        return self.amount / self.students if self.students else None

    @property
    def words_full(self) -> str:
        if not self.chances:
            # Translators: a total (e.g. "Points given away") with no games yet.
            return _("%(total)s: no games yet") % {"total": self.title}
        values = {"total": self.title, "amount": decimal(str(self.value)), "count": self.chances,
                  "each": f"{self.per_student or 0:.0f}"}
        if self.students:
            # Translators: "Points given away: 178 in 40 chances (about 9 a student)".
            return ngettext("%(total)s: %(amount)s in %(count)s chances (about %(each)s a student)",
                            "%(total)s: %(amount)s in %(count)s chances (about %(each)s a student)",
                            self.chances) % values
        # Translators: "Points given away: 178 in 40 chances".
        return ngettext("%(total)s: %(amount)s in %(count)s chances",
                        "%(total)s: %(amount)s in %(count)s chances", self.chances) % values


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
            return BANDS["none"] if not self.chances else MEDIAN_BAND
        return band_for(self.misses, self.chances)

    @property
    def short(self) -> str:
        """What the table cell reads."""
        if not self.chances:
            return _("no games yet")
        if not self.measure.has_misses:
            # Translators: a median thinking time, "4.2 s per decision".
            return _("%(time)s per decision") % {"time": seconds(self.median)}
        return missed_of(self.misses, self.chances)

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
            # Translators: "Median thinking time: 4.2 s over 37 decisions" (unit: the game's word).
            return _("Median thinking time: %(time)s over %(count)s %(unit)s") % {
                "time": seconds(self.median), "count": self.chances, "unit": self.measure.chance_unit}
        text = describe(self.measure, self.misses, self.chances)
        if self.chances:
            # Translators: a sentence about a skill, then how sure its numbers are, in brackets.
            text = _("%(sentence)s (%(range)s)") % {"sentence": text, "range": self.range_words}
        return text

    @property
    def family(self) -> Family:
        return family_of(self.measure)

    @property
    def rate(self) -> float | None:
        return self.misses / self.chances if self.chances and self.measure.has_misses else None
