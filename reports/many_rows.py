"""Looking at many rows of one student at once, without flagging by chance. Pure: no database.

A student's report has dozens of rows (55 times-table facts, 4 operations, the families).
Each row's band is judged at the 90 % level, so a strong student whose every row sits at
the top of Strong would still show, by luck alone, some row that looks weak. A flag is a
claim a teacher acts on, so the flags of one student are decided together:

- each row is tested with the exact one-sided binomial test of "this row is Strong" (its
  true miss rate is at most STRONG_MAX, 10 %): the p-value is the chance of at least this
  many misses from this many chances if it were. Exact, not the normal approximation: with
  few chances and small p-values the approximation is far too hopeful (4 of 10 misses at
  10 % has p = 0.013, the normal curve says 0.0008);
- the p-values of all the rows of one student are put through the Holm-Bonferroni step-down
  (`holm`): the chance that a student any of whose rows is in fact Strong is flagged on one
  of those rows stays at most ALPHA, 5 %, whatever the rows have to do with each other.

docs/reports.md ("Flags from the detail rows") says why these and not others.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import exp, lgamma, log, log1p

from .uncertainty import STRONG_MAX

# At most this chance that a student is flagged on a row that is in fact Strong: the 5 % each
# side of the bands' own 90 % interval, now held for all of one student's rows together.
ALPHA = 0.05
TEST_WORDS = (f"exact one-sided binomial test against {STRONG_MAX:.0%} (the top of Strong), "
              f"Holm-Bonferroni over all the rows of the student's report at {ALPHA:.0%}")


def binomial_tail(misses: int, chances: int, rate: float = STRONG_MAX) -> float:
    """P(at least `misses` misses in `chances` chances, each missed with probability `rate`):
    the exact one-sided p-value of "the true miss rate is at most `rate`"."""
    if misses <= 0:
        return 1.0
    if misses > chances:
        return 0.0
    if misses > chances * rate:  # above the mean: add up the upper tail
        return min(1.0, _terms(misses, chances, rate, up=True))
    # At or below the mean: one minus the lower tail (its terms can be too small to add up
    # from the far end: 1 of 20,000 at 10 % starts at about 10^-915).
    return max(0.0, 1.0 - _terms(misses - 1, chances, rate, up=False))


def _terms(start: int, n: int, p: float, *, up: bool) -> float:
    """P(start) + P(start ± 1) + ... away from the mean, where each term is smaller than the
    one before: the first in logs (it can be far below the smallest float), each next from
    it, P(k + 1) = P(k) · (n − k) / (k + 1) · p / (1 − p), until they add nothing."""
    term = exp(lgamma(n + 1) - lgamma(start + 1) - lgamma(n - start + 1)
               + start * log(p) + (n - start) * log1p(-p))
    total, odds = term, p / (1 - p)
    for k in (range(start, n) if up else range(start, 0, -1)):
        term *= (n - k) / (k + 1) * odds if up else k / ((n - k + 1) * odds)
        total += term
        if term <= total * 1e-17:
            break
    return total


def holm(p_values: Sequence[float], alpha: float = ALPHA) -> list[float | None]:
    """Holm-Bonferroni: for each p-value, the threshold it passed (α / (m − i) for the i-th
    smallest, counting from 0), or None when it is not rejected. Going up from the smallest,
    each must pass its own threshold and every one before it must have passed theirs; the
    chance of rejecting any true hypothesis stays at most α, whatever the dependence."""
    m = len(p_values)
    passed: list[float | None] = [None] * m
    for i, index in enumerate(sorted(range(m), key=lambda j: p_values[j])):
        needed = alpha / (m - i)
        if p_values[index] > needed:
            break
        passed[index] = needed
    return passed
