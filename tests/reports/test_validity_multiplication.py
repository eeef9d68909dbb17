"""Validity of The Multiplication Game's measures (docs/reports.md, "The principles"), played
through the engine without the database (devtools/validity.py), counted by the reports' own
machinery (reports/evidence.py):

- each measure planted alone at 10, 25 and 40 %, its misses drawn by chance, is read back
  within ±3 points from about 1500 chances (at least 300 asked; at 1500 chances ±3 points is
  2.4 binomial standard deviations or more, so an honest count stays inside it, and the seeds
  are fixed, so the test is deterministic); the other measures stay at 0;
- one planted fact (mg.facts:7x8) is read on that fact, and no other fact is missed;
- the expert bot reads 0 on every measure (a move it would make is never a miss), also with
  free cards; a random legal player reads above 10 % on both strategy measures;
- the analysis: a draw is a missed play only, a false fact is blamed on the card's fact.
"""

import random

import pytest

from devtools.validity import (CHANCES, TOLERANCE, bot_student, enough, plant_alone, planted_student, play,
                               play_one, random_student, tally)
from games.engine.multiplication import ENGINE
from games.engine.multiplication.analyse import needed_fact
from games.engine.multiplication.planted import wrong_declaration
from games.engine.multiplication.skills import MEASURES, per_attempt
from games.engine.skills import MoveFacts
from devtools.validity import WHEN

pytestmark = pytest.mark.django_db

KEY = "multiplication"
OWN = tuple(m.id for m in MEASURES)
STRATEGY = ("mg.missed_play", "mg.squares")
RATES = (0.10, 0.25, 0.40)




def test_families_and_amounts():
    by_id = {m.id: m for m in MEASURES}
    assert by_id["mg.facts"].family == "arithmetic" and by_id["mg.facts"].fact_grid
    assert by_id["mg.missed_play"].family == by_id["mg.squares"].family == "strategy"
    assert all(m.amount_words for m in MEASURES)


@pytest.mark.parametrize("measure", OWN)
@pytest.mark.parametrize("rate", RATES)
def test_a_planted_measure_is_recovered_and_nothing_else_moves(measure, rate):
    run = plant_alone(KEY, measure, rate, seed=f"{measure}:{rate}", games=2000)
    t = run.tally
    assert t.chances >= CHANCES
    assert abs(t.rate - rate) <= TOLERANCE, \
        f"planted {rate}, read {t.misses} of {t.chances} ({t.rate:.3f})"
    moved = run.moved(OWN)
    assert not moved, f"planting {measure} moved {moved}"


@pytest.mark.parametrize("rate", (0.25, 0.5))
def test_a_planted_fact_is_recovered_on_that_fact_only(rate):
    label = "mg.facts:7x8"
    tallies = play(KEY, planted_student([f"{label}={rate}"], seed=f"fact:{rate}"),
                   games=3000, seed=7, until=enough(label, chances=400))
    t = tallies[label]
    assert t.chances >= 300
    assert abs(t.rate - rate) <= TOLERANCE, f"{label}: {t.misses} of {t.chances}"
    facts = tallies["mg.facts"]
    assert facts.misses == t.misses and facts.chances > 10 * t.chances  # no other fact missed
    other_facts = [k for k in tallies if k.startswith("mg.facts:") and k != label]
    assert len(other_facts) > 40 and all(tallies[k].misses == 0 for k in other_facts)
    assert all(tallies[m].misses == 0 for m in (*STRATEGY, "all.rule_errors"))


def _tallies(student, games, options=None, seed=1):
    if options is None:
        return play(KEY, student, games=games, seed=seed)
    out, dice = {}, random.Random(seed)
    for _ in range(games):
        tally(play_one(KEY, student, seed=dice.randrange(2**31), options=options), out)
    return out


@pytest.mark.parametrize("options", (None, {"free_cards": 2}, {"free_cards": 2, "hand_size": 10, "turn_limit": 50}))
def test_the_expert_bot_misses_nothing(options):
    tallies = _tallies(bot_student("expert", seed=3), 150, options)
    for m in OWN:
        assert tallies[m].chances >= 100 and tallies[m].misses == 0, (m, tallies[m])


@pytest.mark.parametrize("options", (None, {"free_cards": 2}))
def test_a_random_player_reads_below_strong_on_strategy(options):
    tallies = _tallies(random_student(seed=3), 100, options)
    for m in STRATEGY:
        assert tallies[m].chances >= 100 and tallies[m].rate > 0.10, (m, tallies[m])
    assert tallies["mg.facts"].misses == 0  # every legal discard names a true fact


# ----- the analysis --------------------------------------------------------------------------

def _facts(analysis, accepted=True, err="", think_ms=None):
    m = MoveFacts(1, 0, 5, accepted, err, analysis, None, think_ms, WHEN)
    return list(per_attempt(m, err))


def _state(hand, open_card, rival=(3, 50, 90), deck=(1, 5, 7, 8), players=("Ann", "Ben")):
    setup = {"open": open_card, "hands": {"Ann": list(hand), "Ben": list(rival)}, "deck": list(deck)}
    return ENGINE.new_game(list(players), {}, 0, setup)


def test_a_draw_when_a_square_was_best_is_a_missed_play_only():
    # On 6 (1 x 6, 2 x 3) Ann can play 36 as 6 x 6 (a square: Ben draws and misses his turn)
    # or 12 as 2 x 6: the expert plays the square.
    state = _state([36, 12, 70], 6)
    drew = ENGINE.analyse(state, "Ann", {"type": "draw"})
    assert drew["square_chance"] and drew["expert"]["move"][0] == 36
    rows = _facts(drew)
    assert [(r[1], r[3], r[4]) for r in rows] == [("mg.missed_play", True, 2)]
    other = ENGINE.analyse(state, "Ann", {"type": "discard", "card": 12, "declare": [2, 6]})
    rows = {r[1]: r for r in _facts(other, think_ms=2500)}
    assert rows["mg.missed_play"][3] is False
    assert rows["mg.squares"][3] is True and rows["mg.squares"][4] > 0  # cards given up
    assert rows["mg.facts"][2:] == ("2x6", False, 2.5)  # seconds of the decision
    square = ENGINE.analyse(state, "Ann", {"type": "discard", "card": 36, "declare": [6, 6]})
    assert {r[1]: r[3] for r in _facts(square)} == {"mg.missed_play": False, "mg.squares": False,
                                                    "mg.facts": False}


def test_a_false_fact_is_blamed_on_the_card_it_was_said_for():
    assert needed_fact(54, (8, 7), [6, 9]) == (6, 9)
    assert needed_fact(54, (7, 8), [1, 7]) == (6, 9)  # the only fact of 54, playable or not
    # 24 = 3 x 8 = 4 x 6: the fact playable on the open card first, then the multiplier said.
    assert needed_fact(24, (4, 7), [3, 5]) == (3, 8)
    assert needed_fact(24, (4, 7), [4, 8]) == (4, 6)
    assert needed_fact(24, (3, 7), [1, 2, 4, 8]) == (3, 8)
    assert needed_fact(24, (6, 4), [1]) == (4, 6)  # a true fact is its own
    assert needed_fact("free", (7, 8), [7]) is None  # any fact is true of a free card
    state = _state([24, 70], 12)  # 12: 2 x 6, 3 x 4
    wrong = ENGINE.analyse(state, "Ann", {"type": "discard", "card": 24, "declare": [8, 7]})
    rows = _facts(wrong, accepted=False, err="bad_declaration")
    assert [(r[1], r[2], r[3]) for r in rows] == [("mg.facts", "3x8", True)]


def test_the_planted_false_declaration_is_blamed_on_the_fact_it_plants():
    for card, facts in ((24, ((3, 8), (4, 6))), (36, ((4, 9), (6, 6))), (56, ((7, 8),)), (12, ((2, 6), (3, 4)))):
        for fact in facts:
            for open_multipliers in ([fact[0]], [fact[1]], list(fact), [1, 2, 3, 4, 6, 8, 9]):
                said = wrong_declaration(card, fact, open_multipliers)
                assert said[0] * said[1] != card
                assert needed_fact(card, said, open_multipliers) == fact
