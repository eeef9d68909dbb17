"""Validity of the flags from the detail rows (reports/detail_flags.py): simulated students play
real games through the engines (devtools/validity.py, no database, no browser), and their
evidence is counted and flagged by the reports' own code.

- One planted fact (7 × 8) or one planted operation (÷) over a background of slips on every
  other row (5 %: Strong): the student is flagged on that fact or operation and on nothing else.
- 200 students with no fact or operation planted, every measure at 10 % (the top of Strong,
  the hardest case for the promise: any flag is a false one): fewer of them are flagged than
  the correction promises (at most ALPHA, 5 %, of such students). The rate is printed
  (`pytest -s`). (A student with no plant at all misses nothing, and a row with no misses
  is never flagged: the students at the top of Strong are the case worth checking.)
"""

import random
import time

import pytest

from devtools.validity import Tally, flags_of, planted_student, play_one, rows_of, tally
from reports.detail_flags import FACT, FLAGGED_BANDS, OPERATION
from reports.many_rows import ALPHA
from reports.uncertainty import MIN_CHANCES, band_for

BACKGROUND = 0.05  # slips on every row of a planted student: Strong, never to be flagged
EDGE = 0.10        # the top of Strong: the null students
MEASURES = {"multiplication": ("mg.facts", "mg.missed_play", "mg.squares", "all.rule_errors"),
            "smooth_operator": ("so.lowest_operator", "so.even_division", "so.specials", "so.mental_math",
                                "all.rule_errors")}
NULL_STUDENTS = 200
NULL_GAMES = {"multiplication": 16, "smooth_operator": 2}  # per student: about 240 facts, 20 answers


def games_of(plants: list[str], games: dict[str, int], *, seed: str, bots: str = "expert") -> dict[str, Tally]:
    """A planted student's games (so many of each game, against `bots`), tallied together as
    their report."""
    student, dice, out = planted_student(plants, seed=seed), random.Random(f"detail-flags:{seed}"), {}
    for key, n in games.items():
        for _ in range(n):
            tally(play_one(key, student, seed=dice.randrange(2**31), bot_level=bots), out)
    return out


def everywhere(rate: float, *games: str) -> list[str]:
    """Every measure of these games planted at `rate`."""
    return sorted({f"{m}={rate}" for key in games for m in MEASURES[key]})


def rows_flagged(tallies):
    return [(f.row.kind, f.row.key) for f in flags_of(tallies)]


def test_one_planted_fact_is_flagged_and_nothing_else():
    t = games_of(everywhere(BACKGROUND, "multiplication") + ["mg.facts:7x8=0.6"], {"multiplication": 50},
                 seed="one-fact")
    assert t["mg.facts:7x8"].chances >= 12 and sum(1 for k in t if k.startswith("mg.facts:")) > 50
    slips = [k for k, v in t.items() if v.misses and k.startswith("mg.facts:") and k != "mg.facts:7x8"]
    assert len(slips) > 10, "the background slips are there to be wrongly flagged"
    assert rows_flagged(t) == [(FACT, "7x8")]


def test_one_planted_operation_is_flagged_and_nothing_else():
    t = games_of(everywhere(BACKGROUND, "smooth_operator") + ["so.mental_math:/=0.6"], {"smooth_operator": 15},
                 seed="one-op")
    assert t["so.mental_math:÷"].chances >= 12 and t["so.mental_math:+"].misses > 0
    assert rows_flagged(t) == [(OPERATION, "÷")]
    # The whole mental-maths row, where the other operations are right, is far less clear.
    assert t["so.mental_math"].rate < 0.25


@pytest.mark.slow
def test_students_at_the_top_of_strong_are_seldom_flagged_as_promised():
    """About a minute on a quiet machine (3,600 games). The opponent is the beginner bot: the
    flags do not depend on it, and the expert's Monte Carlo is most of a game's time."""
    started = time.perf_counter()
    flagged, by_band_alone, rows, facts, seen = 0, 0, 0, 0, []
    for n in range(NULL_STUDENTS):
        t = games_of(everywhere(EDGE, *NULL_GAMES), NULL_GAMES, seed=f"edge:{n}", bots="beginner")
        found = flags_of(t)
        flagged += bool(found)
        seen += [f.row.words for f in found]
        judged = [r for r in rows_of(t) if r.chances >= MIN_CHANCES]
        rows += len(judged)
        # Without the correction: some row's own band says Practise or Needs help.
        by_band_alone += any(band_for(r.misses, r.chances).key in FLAGGED_BANDS for r in judged)
        facts += t["mg.facts"].chances
    rate = flagged / NULL_STUDENTS
    print(f"\n{NULL_STUDENTS} students with every measure at {EDGE:.0%} (the top of Strong; no fact or "
          f"operation planted), {' and '.join(f'{n} games of {k}' for k, n in NULL_GAMES.items())} each: "
          f"{flagged} flagged ({rate:.1%}); the correction promises at most {ALPHA:.0%}. By each row's "
          f"band alone, {by_band_alone} ({by_band_alone / NULL_STUDENTS:.0%}) would be. A student: about "
          f"{facts / NULL_STUDENTS:.0f} facts named, {rows / NULL_STUDENTS:.0f} rows judged together. "
          f"{time.perf_counter() - started:.0f} s. Flagged: {'; '.join(seen) or 'none'}.")
    assert rate < ALPHA
