"""Flags from the detail rows (reports/detail_flags.py, reports/many_rows.py): the exact test,
the Holm step-down, and which rows a teacher sees flagged. Pure: no database."""

from fractions import Fraction
from math import comb

import pytest

from reports.detail_flags import FACT, FAMILY, OPERATION, detail_flags, detail_rows
from reports.many_rows import ALPHA, binomial_tail, holm
from reports.measures import measures_by_id

KNOWN = measures_by_id()
FACTS = [f"{a}x{b}" for a in range(1, 11) for b in range(a, 11)]


def exact_tail(misses, chances, rate=Fraction(1, 10)):
    return float(sum(comb(chances, k) * rate**k * (1 - rate) ** (chances - k)
                     for k in range(misses, chances + 1)))


@pytest.mark.parametrize("misses, chances", [(1, 5), (4, 10), (6, 16), (9, 30), (30, 200), (0, 12), (12, 12)])
def test_the_tail_is_the_exact_binomial_sum(misses, chances):
    assert binomial_tail(misses, chances) == pytest.approx(exact_tail(misses, chances), rel=1e-9)


def test_the_tail_of_many_chances_neither_overflows_nor_loses_its_size():
    assert binomial_tail(600, 3000) == pytest.approx(exact_tail(600, 3000), rel=1e-6)
    assert binomial_tail(280, 3000) == pytest.approx(exact_tail(280, 3000), rel=1e-9)
    assert binomial_tail(280, 3000) > 0.85  # below the 10 % a Strong row may miss: no evidence
    assert binomial_tail(1, 20000) == 1.0  # its far terms are below the smallest float
    assert binomial_tail(1500, 3000) == pytest.approx(0.0, abs=1e-300)


def test_holm_steps_down_and_stops_at_the_first_that_fails():
    # Smallest first: .001 <= .05/5, .011 <= .05/4; .02 > .05/3 stops it, so .04 is not
    # rejected although it is below its own .05/2.
    assert holm([0.02, 0.001, 0.011, 0.04, 0.9]) == [None, 0.01, 0.0125, None, None]
    assert holm([0.03, 0.04]) == [None, None]  # both miss Bonferroni's .025
    assert holm([0.02, 0.04]) == [0.025, 0.05]  # Holm: once the first passes, .05 for the last
    assert holm([]) == []


def fact_counts(weak: dict[str, tuple[int, int]], chances: int = 10) -> list[tuple]:
    """Every fact tried `chances` times and never missed, but the `weak` ones; the measure's
    whole row, as the roll-ups hold it."""
    rows = [("mg.facts", f, *weak.get(f, (chances, 0))) for f in FACTS]
    return rows + [("mg.facts", "", sum(r[2] for r in rows), sum(r[3] for r in rows))]


def flagged(counts):
    return [(f.row.kind, f.row.key, f.band.key) for f in detail_flags(detail_rows(counts, KNOWN))]


def test_a_weak_fact_among_55_needs_more_evidence_than_the_same_fact_alone():
    """6 of 16 wrong (37 %) has p = 0.0033 against Strong: enough for a row looked at alone,
    not among 56 rows (Holm's first threshold 0.05 / 56 = 0.0009). 8 of 16 is (p = 0.00009)."""
    alone = [("mg.facts", "7x8", 16, 6), ("mg.facts", "", 16, 6)]
    assert flagged(alone) == [(FACT, "7x8", "practise")]
    assert flagged(fact_counts({"7x8": (16, 6)})) == []
    assert flagged(fact_counts({"7x8": (16, 8)})) == [(FACT, "7x8", "practise")]
    assert flagged(fact_counts({"7x8": (16, 12)})) == [(FACT, "7x8", "help")]


def test_a_fact_and_its_mirror_are_one_row():
    rows = detail_rows([("mg.facts", "8x7", 8, 5), ("mg.facts", "7x8", 8, 5), ("mg.facts", "", 16, 10)], KNOWN)
    facts = [r for r in rows if r.kind == FACT]
    assert [(r.key, r.misses, r.chances, r.words) for r in facts] == [("7x8", 10, 16, "7 × 8: 10 of 16 wrong")]


def with_whole_rows(counts):
    """Detail rows and each measure's whole row (their sum), as the roll-ups hold them."""
    whole: dict[str, list[int]] = {}
    for measure, _, chances, misses in counts:
        found = whole.setdefault(measure, [0, 0])
        found[0] += chances
        found[1] += misses
    return list(counts) + [(m, "", n, x) for m, (n, x) in whole.items()]


def test_a_row_is_flagged_only_when_its_own_band_says_so():
    """40 of 200 (20 %) is surely above Strong (p < 0.0001), but its band is "Getting there":
    no flag. Fewer than 5 chances have no band ("too few to tell"): no flag either."""
    plus = ("so.mental_math", "+", 100, 0)
    assert flagged(with_whole_rows([("so.mental_math", "÷", 200, 40), plus])) == []
    assert flagged(with_whole_rows([("so.mental_math", "÷", 4, 4), plus])) == []
    assert flagged(with_whole_rows([("so.mental_math", "÷", 5, 5), plus])) == [(OPERATION, "÷", "help")]


def test_an_operation_is_one_measure_s_and_links_to_its_moves():
    """÷ in Mental maths is its own row; Exact division (every chance a ÷) is its whole row,
    which the skill table shows, so it is not a row again here."""
    counts = with_whole_rows([("so.mental_math", "÷", 30, 9), ("so.even_division", "÷", 60, 2),
                              ("so.mental_math", "+", 40, 0)])
    [flag] = detail_flags(detail_rows(counts, KNOWN))
    assert flag.row.words == "÷ (dividing) in Mental maths: 9 of 30 wrong"
    assert flag.band.key == "practise" and flag.rows == 3  # ÷ and + in Mental maths, Arithmetic
    ev = flag.evidence
    assert [(p["measure"], p["detail"], p["misses"]) for p in ev["parts"]] == [("so.mental_math", "÷", 9)]
    assert ev["p"] <= ev["p_needed"] == pytest.approx(ALPHA / 3, rel=1e-2)


def test_a_family_is_flagged_for_a_weakness_spread_thin_not_to_repeat_a_row():
    # 2 of 4 on each of four arithmetic measures: each too few to tell, together 8 of 16.
    thin = [(m, "", 4, 2) for m in ("so.mental_math", "so.even_division", "mg.facts", "nu.valid_build")]
    for row in thin:
        assert flagged([row]) == []
    assert flagged(thin) == [(FAMILY, "arithmetic", "practise")]
    # One operation much worse than the rest: its own flag, and no family flag repeating it.
    one = with_whole_rows([("so.mental_math", "÷", 40, 30), ("so.mental_math", "+", 40, 0)])
    assert flagged(one) == [(OPERATION, "÷", "help")]
    # A measure whose own row is Practise says it on the skill table: no family flag either.
    assert flagged([("so.mental_math", "", 30, 12), ("so.even_division", "", 4, 2)]) == []


def test_strategy_and_rules_families_say_what_a_miss_is():
    counts = [(m, "", 4, 2) for m in ("so.lowest_operator", "so.specials", "mg.missed_play", "mg.squares")]
    [flag] = detail_flags(detail_rows(counts + [("all.rule_errors", "", 30, 0)], KNOWN))
    assert flag.row.words == "Strategy: 8 of 16 choices below the best play" and flag.rows == 2
    # Rules is one measure: its family row is that measure's row, which the table shows.
    assert flagged([("all.rule_errors", "", 12, 9)]) == []
