"""Revision 2, "uncertainty is shown": the 90 % Wilson interval, the band rule that respects
it, and the interval in words a teacher reads next to the counts."""

from math import sqrt

import pytest

from reports.measures import measure_by_id
from reports.cells import Cell, Total
from reports.uncertainty import BANDS, WILSON_Z, band_for, range_short, range_words, wilson
from reports.words import child_range_sentence, child_totals_sentence


def test_wilson_on_known_values():
    z2 = WILSON_Z ** 2
    # 0 of n: the low end is 0 and the high end is z² / (n + z²) exactly.
    assert wilson(0, 20) == (0.0, pytest.approx(z2 / (20 + z2)))
    assert wilson(0, 20)[1] == pytest.approx(0.1192, abs=1e-4)
    # n of n mirrors it.
    assert wilson(20, 20) == (pytest.approx(1 - z2 / (20 + z2)), 1.0)
    # Half: symmetric about 0.5.
    low, high = wilson(50, 100)
    half = WILSON_Z * sqrt(0.25 / 100 + z2 / 40000) / (1 + z2 / 100)
    assert (low, high) == (pytest.approx(0.5 - half), pytest.approx(0.5 + half))
    assert (round(low, 3), round(high, 3)) == (0.419, 0.581)
    # Values from the textbook formula (90 %, z = 1.6449).
    assert tuple(round(v, 3) for v in wilson(3, 20)) == (0.062, 0.322)
    assert tuple(round(v, 3) for v in wilson(8, 41)) == (0.114, 0.314)
    assert wilson(0, 0) == (0.0, 1.0)


def test_three_of_twenty_is_not_needs_help():
    assert band_for(3, 20) is BANDS["fair"]  # 15 %: about 5-30 %
    # The interval reaches Strong: never Needs help nor Practise, whatever the rate.
    for misses, chances in [(3, 20), (5, 20), (2, 8), (1, 5)]:
        low, _ = wilson(misses, chances)
        if low <= 0.10:
            assert band_for(misses, chances).key not in ("help", "practise"), (misses, chances)


@pytest.mark.parametrize("misses, chances, band", [
    (0, 0, "none"), (2, 4, "few"),        # too few chances
    (1, 5, "few"),                        # about 5-55 %: from Strong to Needs help, cannot tell
    (0, 20, "strong"), (4, 37, "fair"), (7, 20, "practise"),
    (3, 5, "help"), (15, 20, "help"), (50, 100, "practise"),
    (12, 20, "help"),                     # 60 %, low end 42 %
    (40, 100, "practise"),
])
def test_the_band_rule(misses, chances, band):
    assert band_for(misses, chances).key == band


def test_the_interval_in_words():
    assert range_words(8, 41) == "about 10-30 %, from 41 chances"
    assert range_short(4, 37) == "about 5-20 %"
    assert range_words(0, 41) == "about 0-6 %, from 41 chances"  # narrow: whole percents
    assert range_words(1, 1).endswith("from 1 chance")
    cell = Cell(measure_by_id("so.lowest_operator"), 8, 41)
    assert cell.range == "about 10-30 %"
    assert cell.words.endswith("(about 10-30 %, from 41 chances)")
    assert Cell(measure_by_id("all.think_time"), 0, 40, 5.5).range_words == ""


def test_a_child_reads_how_sure_the_numbers_are_and_what_choices_cost():
    # 3 wrong of 28: right about 8 to 10 times in 10 (the 90 % range of 25 right of 28).
    assert child_range_sentence(3, 28) == "From 28 tries: you get it right about 8 to 10 times in 10."
    assert child_range_sentence(0, 268) == "From 268 tries: you get it right about 10 times in 10."
    assert child_range_sentence(1, 4) == ""  # too few tries to say
    totals = [Total(("point given away", "points given away"), 12.4, 9),
              Total(("card left behind", "cards left behind"), 0.0, 3),
              Total(("card left behind", "cards left behind"), 3.0, 0)]
    assert child_totals_sentence(totals) == (
        "Compared with the best play, here is what your choices cost in all your games: "
        "12 points given away. Every game is a chance to win them back!")
    assert child_totals_sentence(totals[1:]) == ""
