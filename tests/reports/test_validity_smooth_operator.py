"""Validity of Smooth Operator's measures (docs/reports.md, "The principles"), played through
the engine without the database (devtools/validity.py), counted by the reports' own machinery.

- Each measure planted alone at 10, 25 and 40 % is recovered given at least 1,500 chances (300
  asked), within ±3 points (at 1,500 chances 2.4 binomial standard deviations or more, so an
  honest count stays inside it). The planted player asks a quota exactly at the chances
  the measures count, so the count itself is checked exactly as well (quota = tally). The
  planted student plays against the greedy computer player, which is quick (the expert's
  Monte Carlo would double the time); the expert and random students play the expert.
- The measures nobody planted stay at their baseline (0: the planted player plays like the
  expert bot) when another one is planted.
- The expert bot reads Strong (<= 10 %) on every measure with chances (it sends no answers,
  so mental maths has none); a random legal player reads above 10 % on the strategy measures
  (so.lowest_operator, so.specials). The arithmetic measures are not asked of it: it never
  tries an uneven ÷ (the rules refuse it) and sends no answers.
"""


import pytest

from devtools.planted import PlantedPlayer, parse_plant
from devtools.validity import CHANCES, TOLERANCE, bot_student, enough, plant_alone, play, random_student
from games.engine.skills import MoveFacts, OPERATIONS
from games.engine.smooth_operator import ENGINE, rules
from games.engine.smooth_operator.analyse import CLEAR_FREE_CHOICE_GAIN, response_regrets, specials_verdict
from games.engine.smooth_operator.skills import MEASURES, per_attempt
from reports.evidence import game_evidence

pytestmark = pytest.mark.django_db

GAME = "smooth_operator"
OWN = [m.id for m in MEASURES]
STRATEGY = [m.id for m in MEASURES if m.family == "strategy"]
RATES = (0.10, 0.25, 0.40)
# The planted student's opponent: the greedy computer player, quick to play (the expert's Monte
# Carlo doubles the time); what is checked is how the student's own decisions are counted.
OPPONENTS = "player"




def test_every_measure_has_a_family_and_the_arithmetic_ones_are_per_operation():
    families = {m.id: (m.family, m.by_operation) for m in MEASURES}
    assert families == {"so.lowest_operator": ("strategy", False), "so.specials": ("strategy", False),
                        "so.even_division": ("arithmetic", True), "so.mental_math": ("arithmetic", True)}
    assert all(m.amount_words for m in MEASURES if m.family == "strategy")


@pytest.mark.parametrize("rate", RATES)
@pytest.mark.parametrize("measure", OWN)
def test_a_planted_measure_is_recovered_and_nothing_else_moves(measure, rate):
    run = plant_alone(GAME, measure, rate, seed=f"{measure}:{rate}", games=1000, bot_level=OPPONENTS)
    t = run.tally
    assert t.chances >= CHANCES
    assert abs(t.rate - rate) <= TOLERANCE, f"{measure}: planted {rate}, read {t.misses} of {t.chances}"
    assert (run.quota.chances, run.quota.misses) == (t.chances, t.misses), "asked exactly at the counted chances"
    moved = run.moved(OWN)
    assert not moved, f"planting {measure} moved {moved}"


def test_the_planted_player_asks_every_quota_exactly_where_the_measures_count_chances():
    plants = [f"{m}=0.3" for m in OWN] + ["all.rule_errors=0.2"]
    player = PlantedPlayer([parse_plant(p) for p in plants], seed=5)
    tallies = play(GAME, lambda key, state, name, view: player.attempts(key, view), games=40, seed=5)
    for m in OWN:
        q = player.quota(m)
        assert (q.chances, q.misses) == (tallies[m].chances, tallies[m].misses), m
    # ÷ is shared by the two arithmetic measures' per-operation details
    assert tallies["so.even_division:÷"].chances == tallies["so.even_division"].chances
    assert {label.split(":")[1] for label in tallies if label.startswith("so.mental_math:")} == set(OPERATIONS)


def test_a_planted_operation_is_missed_on_that_operation_only():
    """so.mental_math:/ has its own dice, asked exactly at the ÷ answers the report counts;
    the other operations' answers are asked the measure's (unplanted: never missed)."""
    player = PlantedPlayer([parse_plant("so.mental_math:/=0.5")], seed=6)
    tallies = play(GAME, lambda key, state, name, view: player.attempts(key, view), games=40, seed=6)
    q = player.quota("so.mental_math:÷")
    assert q.chances >= 30 and (q.chances, q.misses) == (tallies["so.mental_math:÷"].chances,
                                                        tallies["so.mental_math:÷"].misses)
    assert abs(q.misses / q.chances - 0.5) < 0.2
    others = [f"so.mental_math:{op}" for op in OPERATIONS if op != "÷"]
    assert sum(tallies[k].chances for k in others) == player.quota("so.mental_math").chances > 50
    assert all(tallies[k].misses == 0 for k in others)
    assert tallies["so.mental_math"].misses == q.misses and not tallies["so.even_division"].misses


def test_the_expert_bot_reads_strong_on_every_measure():
    tallies = play(GAME, bot_student("expert", seed=2), games=600, seed=2,
                   until=enough("so.specials", chances=300))
    for m in ("so.lowest_operator", "so.even_division", "so.specials"):
        assert tallies[m].chances >= 300, m
        assert tallies[m].rate <= 0.10, f"{m}: {tallies[m].misses} of {tallies[m].chances}"
    assert "so.mental_math" not in tallies  # the bot sends no answers: no mental-maths chances


def test_a_random_legal_player_reads_below_strong_on_every_strategy_measure():
    tallies = play(GAME, random_student(seed=2), games=600, seed=2, until=enough("so.specials", chances=300))
    for m in STRATEGY:
        assert tallies[m].chances >= 300, m
        assert tallies[m].rate > 0.10, f"{m}: {tallies[m].misses} of {tallies[m].chances}"


# ----- the definitions, on single decisions --------------------------------------------------
def facts(analysis, error="", accepted=True):
    return MoveFacts(1, 1, 4, accepted, error, analysis, None, None, None)


def candidates(analysis, error=""):
    return {c[1]: c for c in per_attempt(facts(analysis, error, not error), error)}


def test_a_response_is_judged_against_the_expert_bots_own_evaluation():
    # x x - on 12 and 2: - gives 10 and x 24, but - is the card worth keeping; the expert's
    # evaluation says which, and only a card it rates worse is a miss, by that many points.
    regrets = response_regrets(["x", "x", "-"], 12, 2)
    best = [c for c, r in regrets.items() if r == 0]
    worse = [c for c, r in regrets.items() if r > 0]
    assert len(best) == 1 and worse
    a = {"kind": "response", "hand": ["-", "x", "x"], "high": 12, "low": 2, "regrets": regrets}
    assert candidates({**a, "chosen": best[0]})["so.lowest_operator"][3:] == (False, 0.0)
    assert candidates({**a, "chosen": worse[0]})["so.lowest_operator"][3:] == (True, regrets[worse[0]])
    # One card only, or cards as good as each other: no chance.
    assert "so.lowest_operator" not in candidates({**a, "hand": ["x"], "regrets": {"x": 0.0}, "chosen": "x"})


def test_an_uneven_pair_with_division_at_hand_is_the_chance_and_trying_it_the_miss():
    uneven = {"kind": "response", "hand": ["+", "/", "x"], "high": 13, "low": 5, "chosen": "+"}
    assert candidates(uneven)["so.even_division"][2:4] == ("÷", False)
    assert candidates({**uneven, "chosen": "/"}, "uneven_division")["so.even_division"][2:4] == ("÷", True)
    # An exact ÷ cannot be got wrong arithmetically: not a chance (skipping it is strategy).
    assert "so.even_division" not in candidates({**uneven, "high": 15})
    assert "so.even_division" not in candidates({**uneven, "hand": ["+", "-", "x"]})
    # Stuck holding ÷, or holding Free Choice as the active player: ÷ can be tried too.
    assert "so.even_division" in candidates({"kind": "penalty", "hand": ["/", "double"], "high": 13, "low": 5})
    assert "so.even_division" in candidates({"kind": "specials", "hand": ["+", "free_choice"], "high": 13,
                                             "low": 5, "specials_held": ["free_choice"]})


def test_mental_maths_is_judged_per_operation():
    for card, sign in zip(rules.ARITHMETIC, OPERATIONS):
        a = {"kind": "response", "hand": [card], "high": 12, "low": 3, "chosen": card,
             "answer_correct": False}
        assert candidates(a)["so.mental_math"][2:4] == (sign, True)
    state = ENGINE.new_game(["Ann", "Ben"], {}, 3)
    player = ENGINE.waiting_for(state)[0]
    high, low = state["high"], state["low"]
    for action in ENGINE.legal_actions(state, player):
        if action["type"] == "play":
            analysis = ENGINE.analyse(state, player, {**action, "answer": rules.result(action["card"], high, low)})
            assert analysis["answer_operation"] == rules.SYMBOL[action["card"]] and analysis["answer_correct"]



def test_specials_only_what_the_expert_never_does_is_a_miss():
    signs = {"+": 28, "-": 8, "x": 180}  # 18 and 10, one responder
    end, fc = {"type": "end_turn"}, {"type": "special", "card": "free_choice"}
    # Keeping a Free Turn is a miss; playing it is not; one that comes straight back is no chance.
    assert specials_verdict(["free_turn"], 28, 0, signs, end)[:2] == (True, "kept_free_turn")
    assert specials_verdict(["free_turn"], 28, 0, signs, {"type": "special", "card": "free_turn"})[:2] == (True, "")
    assert specials_verdict(["free_turn"], 28, 0, signs, end, recycled=True)[0] is False
    # A Free Choice: the best sign is never a miss, a weaker one always is (by the points).
    assert specials_verdict(["free_choice"], 28, 0, signs, {**fc, "sign": "x"}) == (True, "", 0.0)
    assert specials_verdict(["free_choice"], 8, 0, signs, {**fc, "sign": "+"}) == (True, "weak_free_choice", 152.0)
    # Keeping it is a miss only when it would add CLEAR_FREE_CHOICE_GAIN points or more, or win.
    assert specials_verdict(["free_choice"], 28, 0, signs, end) == (True, "kept_free_choice", 152.0)
    small = {"+": 28, "-": 8, "x": 28 + CLEAR_FREE_CHOICE_GAIN - 1}
    assert specials_verdict(["free_choice"], 28, 0, small, end) == (True, "", 0.0)
    assert specials_verdict(["free_choice"], 28, 0, small, end, score=400, target=500)[1] == "kept_win"
    # A Double alone is the expert's judgement (kept for a better turn): no chance, unless it wins.
    assert specials_verdict(["double"], 28, 0, signs, end)[0] is False
    assert specials_verdict(["double"], 28, 0, signs, end, score=480, target=500) == (True, "kept_win", 28.0)
    assert specials_verdict(["double"], 0, 0, signs, {"type": "special", "card": "double"})[1] == "double_zero"


def test_specials_count_one_chance_per_turn():
    def move(version, analysis):
        return MoveFacts(version, 1, version, True, "", {"kind": "specials", "turn": 7, **analysis}, None, None, None)
    moves = [move(1, {"specials_chance": True, "specials_miss": "", "specials_given_up": 0.0}),
             move(2, {"specials_chance": True, "specials_miss": "kept_free_choice", "specials_given_up": 152.0})]
    rows = [r for r in game_evidence(GAME, moves, {1: "Ann"}, {1}) if r.measure == "so.specials"]
    assert [(r.move_id, r.missed, r.amount) for r in rows] == [(2, True, 152.0)]
