"""Validity of Add or Multiply?'s measure (docs/reports.md, "The principles"), played through
the engine without the database (devtools/validity.py), counted by the reports' own machinery
(reports/evidence.py).

am.operation judges the operation when it is chosen, by the expert bot's own evaluation of the
chooser's view (games/engine/add_or_multiply/analyse.py): a chance is a play, both operations
in hand, where one operation is worth clearly more expected points than the other; a miss is
choosing the other one.

- planted alone at 10, 25 and 40 %, its misses drawn by chance, it is read back within
  within ±3 points from at least `CHANCES` (1,500) chances (300 asked; at 1,500 chances ±3
  points is 2.4 binomial standard deviations or more, so an honest count stays inside it). Besides the dice, the counting is checked exactly: the
  planted player's quota counts exactly the chances the reports count, and its misses are
  exactly the misses read. all.rule_errors stays at 0. The opponents are the greedy `player`
  bots: what is planted does not depend on them, and their games are quick and give about
  3.5 chances each (against expert opponents about 1.2);
- the expert bot reads 0 (a choice it makes is never a miss), against expert and greedy
  opponents; a random legal player reads above 10 % (about 50 %: at a chance it picks the
  worse operation half the time);
- planting all.rule_errors leaves am.operation at 0;
- the analysis' fast evaluation is exactly the expert's playouts, it depends on the view only
  (not on who has chosen yet), and a refused play is a rule error only.
"""

import random

import pytest

from devtools.planted import PlantedPlayer, parse_plant
from devtools.validity import CHANCES, TOLERANCE, WHEN, bot_student, enough, play, random_student
from games.engine.add_or_multiply import ENGINE, rules
from games.engine.add_or_multiply.analyse import operation_evaluation
from games.engine.add_or_multiply.bots import (ExpertBot, _playout, _TargetsPlayout, _weighted,
                                                 rank_plays)
from games.engine.add_or_multiply.skills import MEASURES, SKILLS, per_attempt
from games.engine.skills import MoveFacts

pytestmark = pytest.mark.django_db

KEY = "add_or_multiply"
MEASURE = "am.operation"
RATES = (0.10, 0.25, 0.40)
OPPONENTS = "player"




def test_the_measure_is_strategy_with_points_given_up():
    (m,) = MEASURES
    assert m.id == MEASURE and m.family == "strategy" and not m.by_operation
    assert m.amount_words == ("point given up on average", "points given up on average")
    assert SKILLS.planted is not None and SKILLS.per_game is None


@pytest.mark.parametrize("rate", RATES)
def test_a_planted_rate_is_recovered_exactly_as_planted(rate):
    player = PlantedPlayer([parse_plant(f"{MEASURE}={rate}")], seed=f"am:{rate}")

    def student(key, state, name, view):
        return player.attempts(key, view)

    tallies = play(KEY, student, games=1000, seed=int(rate * 100), bot_level=OPPONENTS, until=enough(MEASURE))
    t, quota = tallies[MEASURE], player.quota(MEASURE)
    assert t.chances >= CHANCES
    # The planted player asks its quota at exactly the chances counted, and misses only there.
    assert (t.chances, t.misses) == (quota.chances, quota.misses)
    assert abs(t.rate - rate) <= TOLERANCE, f"planted {rate}: {t.misses} of {t.chances}"
    assert t.amount > 0
    assert tallies["all.rule_errors"].misses == 0


@pytest.mark.parametrize("opponents, games", (("expert", 30), ("player", 60)))
def test_the_expert_bot_misses_nothing(opponents, games):
    tallies = play(KEY, bot_student("expert", seed=3), games=games, seed=11, bot_level=opponents)
    t = tallies[MEASURE]
    assert t.chances >= 40 and t.misses == 0 and t.amount == 0, t


def test_a_random_player_reads_well_below_strong():
    tallies = play(KEY, random_student(seed=3), games=80, seed=12, bot_level=OPPONENTS)
    t = tallies[MEASURE]
    assert t.chances >= 100 and t.rate > 0.25 and t.amount > 0, t


def test_planted_rule_errors_leave_the_operation_at_zero():
    student = PlantedPlayer([parse_plant("all.rule_errors=0.3")], seed=5)
    tallies = play(KEY, lambda key, state, name, view: student.attempts(key, view), games=30,
                   seed=13, bot_level=OPPONENTS)
    assert tallies["all.rule_errors"].misses > 10
    assert tallies[MEASURE].chances > 30 and tallies[MEASURE].misses == 0


# ----- the analysis --------------------------------------------------------------------------

def _positions(games=6):
    """(state, player) before every decision of a few games (random plays)."""
    rng = random.Random(4)
    for seed in range(games):
        state = ENGINE.new_game(["Ann", "Ben", "Cal"], {"rounds": 5}, seed)
        while not state["finished"]:
            name = ENGINE.waiting_for(state)[0]
            yield state, name
            state, _ = ENGINE.apply(state, name, rng.choice(ENGINE.legal_actions(state, name)))


def test_the_fast_evaluation_is_exactly_the_experts_playouts():
    for state, name in _positions(3):
        view = ENGINE.view(state, name)
        bot = ExpertBot(ENGINE, 9)
        first, second = rules.opponents(view["players"], name)
        samples = bot._opponent_samples(view, (first, second))
        ranked = rank_plays(view)
        for op, points in ExpertBot.own_outcomes(view, samples).items():
            play_ = next(p for p in ranked if p["operation"] == op)
            assert points == [_playout(view, {name: play_, first: a, second: b},
                                       view["rounds"] - view["round"], seed)[name]
                              for a, b, seed, _w in samples]


def test_the_experts_faster_sums_are_its_playouts_exactly():
    for state, name in _positions(2):
        view = ENGINE.view(state, name)
        bot = ExpertBot(ENGINE, 8)
        targets = rules.opponents(view["players"], name)
        samples = bot._opponent_samples(view, targets)[: bot.send_samples]
        harm = _TargetsPlayout(view, samples)
        for play_ in rank_plays(view)[:6]:
            assert harm.expected(play_) == bot._expected(view, play_, samples, targets)
            assert _weighted(samples, ExpertBot.own_outcomes(view, samples)[play_["operation"]]) \
                == bot._expected(view, play_, samples, [name])


def test_the_evaluation_reads_the_view_only_and_counts_clear_gaps():
    chances = 0
    for state, name in _positions():
        evaluation = operation_evaluation(ENGINE.view(state, name))
        if evaluation is None:
            assert len(set(state["hands"][name]["operations"])) < 2
            continue
        values = evaluation["values"]
        assert evaluation["better"] == max(values, key=lambda op: (values[op], op == "+"))
        threshold = max(0.05, 3 * evaluation["noise"])  # analyse.TOLERANCE, CLEAR (rounded)
        if abs(evaluation["gap"] - threshold) > 0.01:
            assert evaluation["chance"] == (evaluation["gap"] > threshold)
        if state["round"] == 5:
            assert evaluation["noise"] == 0  # the last round is weighed exactly, like the expert
        chances += evaluation["chance"]
        # Another player's secret choice changes nothing the chooser sees.
        others = [p for p in ENGINE.waiting_for(state) if p != name]
        if others:
            after, _ = ENGINE.apply(state, others[0], ENGINE.legal_actions(state, others[0])[0])
            assert operation_evaluation(ENGINE.view(after, name)) == evaluation
    assert chances >= 5


def test_only_an_accepted_play_at_a_chance_is_judged():
    # A last round: weighed exactly (no dice), like the expert weighs it.
    state, name, evaluation = next(
        (st, n, e) for st, n in _positions() if st["round"] == 5
        and (e := operation_evaluation(ENGINE.view(st, n))) is not None and e["chance"])
    assert evaluation["noise"] == 0
    on = ENGINE.legal_actions(state, name)[0]["on"]
    worse = ENGINE.analyse(state, name, {"type": "play", "on": on, "operation": evaluation["worse"]})
    better = ENGINE.analyse(state, name, {"type": "play", "on": on, "operation": evaluation["better"]})
    first, second = rules.opponents(state["players"], name)
    refused = ENGINE.analyse(state, name, {"type": "play", "on": {first: 6, second: 6},
                                           "operation": evaluation["worse"]})

    def candidates(analysis, err=""):
        return list(per_attempt(MoveFacts(1, 0, 0, not err, err, analysis, None, None, WHEN), err))

    assert candidates(worse) == [(("round", 5), MEASURE, "", True, evaluation["gap"])]
    assert candidates(better) == [(("round", 5), MEASURE, "", False, 0.0)]
    assert refused["error"] == "not_in_hand" and candidates(refused, "not_in_hand") == []
