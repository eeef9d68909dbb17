"""Validity of the flags from the detail rows (reports/detail_flags.py): simulated students play
real games through the engines (devtools/validity.py, no database, no browser), and their
evidence is counted and flagged by the reports' own code.

- One planted fact (7 × 8) or one planted operation (÷) over a background of slips on every
  other row (5 %: Strong): the student is flagged on that fact or operation and on nothing else.
- 200 students with no fact or operation planted, every measure at 10 % (the top of Strong,
  the hardest case for the promise: any flag is a false one): fewer of them are flagged than
  the correction promises (at most ALPHA, 5 %, of such students). The rate is printed
  (`pytest -s`), with the same for 200 students with no plant at all.
"""

import random

import pytest

from devtools.validity import Tally, flags_of, planted_student, play_one, rows_of, tally
from reports.detail_flags import FACT, OPERATION
from reports.many_rows import ALPHA

GAMES = ("multiplication", "smooth_operator")
BACKGROUND = 0.05  # slips on every row of a planted student: Strong, never to be flagged
EDGE = 0.10        # the top of Strong: the null students
MEASURES = ("mg.facts", "mg.missed_play", "mg.squares", "so.lowest_operator", "so.even_division",
            "so.specials", "so.mental_math", "all.rule_errors")
NULL_STUDENTS = 200
NULL_GAMES = 4  # of each game, per student


def games_of(student, *, games: int, seed: int | str) -> dict[str, Tally]:
    """`games` games of each of GAMES, tallied together as one student's report."""
    dice, out = random.Random(f"detail-flags:{seed}"), {}
    for _ in range(games):
        for key in GAMES:
            tally(play_one(key, student, seed=dice.randrange(2**31)), out)
    return out


def background(rate: float) -> list[str]:
    return [f"{m}={rate}" for m in MEASURES]


def rows_flagged(tallies):
    return [(f.row.kind, f.row.key) for f in flags_of(tallies)]


@pytest.fixture(scope="module")
def fact_student():
    return games_of(planted_student(background(BACKGROUND) + ["mg.facts:7x8=0.6"], seed="one-fact"),
                    games=12, seed="one-fact")


@pytest.fixture(scope="module")
def division_student():
    return games_of(planted_student(background(BACKGROUND) + ["so.mental_math:/=0.6"], seed="one-op"),
                    games=12, seed="one-op")


def test_one_planted_fact_is_flagged_and_nothing_else(fact_student):
    t = fact_student
    assert t["mg.facts:7x8"].misses > 0 and sum(1 for k in t if k.startswith("mg.facts:")) > 30
    missed_elsewhere = [k for k, v in t.items() if v.misses and k not in ("mg.facts:7x8",)]
    assert len(missed_elsewhere) > 10, "the background slips are there to be wrongly flagged"
    assert rows_flagged(t) == [(FACT, "7x8")]


def test_one_planted_operation_is_flagged_and_nothing_else(division_student):
    t = division_student
    assert t["so.mental_math:÷"].misses > 0 and t["so.mental_math:+"].chances > 20
    assert rows_flagged(t) == [(OPERATION, "÷")]


def test_students_at_the_top_of_strong_are_seldom_flagged_as_promised():
    flagged, rows, chances = 0, 0, 0
    for n in range(NULL_STUDENTS):
        t = games_of(planted_student(background(EDGE), seed=f"edge:{n}"), games=NULL_GAMES, seed=f"edge:{n}")
        found = flags_of(t)
        flagged += bool(found)
        rows += sum(1 for r in rows_of(t) if r.chances >= 5)
        chances += t["mg.facts"].chances
    rate = flagged / NULL_STUDENTS
    print(f"\n{NULL_STUDENTS} students with every measure at {EDGE:.0%} (no fact or operation planted), "
          f"{NULL_GAMES} games of each of {', '.join(GAMES)}: {flagged} flagged ({rate:.1%}); "
          f"the correction promises at most {ALPHA:.0%}. About {chances // NULL_STUDENTS} facts "
          f"declared and {rows / NULL_STUDENTS:.0f} rows judged together, a student.")
    assert rate < ALPHA


def test_students_with_no_plant_are_never_flagged():
    flagged = 0
    for n in range(NULL_STUDENTS):
        flagged += bool(flags_of(games_of(planted_student([], seed=f"none:{n}"), games=1, seed=f"none:{n}")))
    print(f"\n{NULL_STUDENTS} students with no plant at all: {flagged} flagged ({flagged / NULL_STUDENTS:.1%}).")
    assert flagged == 0
