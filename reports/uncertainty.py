"""How sure a miss rate is: its 90 % Wilson interval, the band it falls in (a word and a
symbol as well as a colour, so colour is never the only signal), and the likely range as a
teacher reads it ("about 10-35 %"). Pure: no database.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil, floor, sqrt

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

# Fewer chances than this say nothing about a student: the cell reads "too few to tell".
MIN_CHANCES = 5


@dataclass(frozen=True)
class Band:
    key: str     # CSS class suffix: band-strong, band-fair, ...
    words: str   # the word shown next to the numbers (lazily translated)
    symbol: str  # a shape that tells the bands apart without colour

    @property
    def label(self) -> str:
        """The band's word as text in the active language (a page, a file, a command's JSON)."""
        return str(self.words)

    @property
    def offers_practice(self) -> bool:
        """Whether a report offers "Practise this" here: only where the band itself says
        Practise or Needs help (never on "Too few to tell", nor for a slip of a Strong one)."""
        return self.key in PRACTISE_BANDS


# Lazy: the module is read once, the label is said in each reader's language.
BANDS = {
    "none": Band("none", pgettext_lazy("skill band", "No games yet"), "·"),
    "few": Band("few", pgettext_lazy("skill band", "Too few to tell"), "…"),
    "strong": Band("strong", pgettext_lazy("skill band", "Strong"), "✓"),
    "fair": Band("fair", pgettext_lazy("skill band", "Getting there"), "◐"),
    "practise": Band("practise", pgettext_lazy("skill band", "Practise"), "△"),
    "help": Band("help", pgettext_lazy("skill band", "Needs help"), "!"),
}


# The 90 % Wilson score interval (two-sided): z of the normal distribution's 95th percentile.
WILSON_Z = 1.6449
STRONG_MAX, FAIR_MAX, PRACTISE_MAX = 0.10, 0.25, 0.50
# The bands in which "Practise this" is offered (Band.offers_practice).
PRACTISE_BANDS = ("practise", "help")
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


def likely_at_least(misses: int, chances: int) -> float:
    """The miss rate a student very likely has at least: the low end of the 90 % interval.
    "Practise this" ranks by it rather than by the raw rate: 2 misses in 3 tries (67 %, at
    least 25 %) do not outrank 9 in 20 (45 %, at least 28 %), and 0 chances rank last."""
    return wilson(misses, chances)[0] if chances else 0.0


def rate_change(before: tuple[int, int], now: tuple[int, int], z: float = WILSON_Z) -> int:
    """Whether the miss rate of `now` (misses, chances) is very likely lower (-1) or higher (1)
    than that of `before`, else 0 (the same, as far as these numbers can tell; also when
    either side has fewer than MIN_CHANCES chances). The two-proportion z-test at the
    bands' 90 %: 12 of 100 after 30 of 100 is lower; 2 of 10 after 4 of 10 may be chance."""
    (b_miss, b_chances), (n_miss, n_chances) = before, now
    if b_chances < MIN_CHANCES or n_chances < MIN_CHANCES:
        return 0
    pooled = (b_miss + n_miss) / (b_chances + n_chances)
    spread = sqrt(pooled * (1 - pooled) * (1 / b_chances + 1 / n_chances))
    if spread == 0:
        return 0
    score = (n_miss / n_chances - b_miss / b_chances) / spread
    return -1 if score < -z else 1 if score > z else 0


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
    help. The rule (docs/reports.md, "The principles": "Uncertainty is shown"):

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
    # Translators: the likely share of misses, e.g. "about 10-35 %"; low and high are whole percents.
    return _("about %(low)s-%(high)s %%") % {"low": lo, "high": hi}


def range_words(misses: int, chances: int) -> str:
    """'about 10-35 %, from 41 chances': the 90 % Wilson interval of the miss rate, as a
    teacher reads it next to the counts (sentences, titles, exports)."""
    # Translators: "about 10-35 %, from 41 chances"; range is the likely share of misses.
    return ngettext("%(range)s, from %(count)s chance", "%(range)s, from %(count)s chances",
                    chances) % {"range": range_short(misses, chances), "count": chances}
