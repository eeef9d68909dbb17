"""Validity of Numero's measures (docs/reports.md, "The principles"), played through the
engine without the database (devtools/validity.py), counted by the reports' own machinery.
Numero Solitaire shares the measures and the planted player.

- Each measure planted alone at 10, 25 and 40 % is recovered given at least `CHANCES` of its
  chances (1,500; 300 asked), within ±3 points (at 1,500 chances 2.4 binomial standard
  deviations or more, so an honest count stays inside it). The planted player asks a quota exactly at
  the chances the measures count, so the count itself is checked exactly too (quota = tally).
  Where each is played, to keep the file fast (simulated games are level 4, opponents the
  "player" bot, whose thinking is cheap): nu.missed_take and nu.valid_build in Numero,
  nu.best_take in Numero Solitaire (every turn is a take there: about 3 chances a game
  instead of 1.5); the exact count is also checked for nu.best_take in Numero.
- The measures nobody planted stay at their baseline (0: the planted player plays like the
  expert bot) when another one is planted.
- The expert bot reads Strong (<= 10 %; in fact 0, by construction) on every measure; a
  random legal player reads above 10 % on the strategy measures (nu.missed_take,
  nu.best_take). nu.valid_build is arithmetic and not asked of it: the legal moves it picks
  from hold no build without its answer (the rules refuse those).
"""


import pytest

from devtools.planted import PlantedPlayer, parse_plant
from devtools.validity import TOLERANCE, bot_student, enough, plant_alone, play, random_student
from games.engine.numero import ENGINE
from games.engine.numero.analyse import build_without_answer, smallest_take
from games.engine.numero.skills import MEASURES, RETIRED
from games.engine.numero.view import position, search_items
from games.engine.skills import MoveFacts
from reports.evidence import game_evidence

pytestmark = pytest.mark.django_db

GAME, SOLO = "numero", "numero_solitaire"
OWN = [m.id for m in MEASURES]
STRATEGY = [m.id for m in MEASURES if m.family == "strategy"]
RATES = (0.10, 0.25, 0.40)
# measure -> (the game it is checked in, the chances asked)
PLANTED = {"nu.missed_take": (GAME, 1500), "nu.valid_build": (GAME, 1500), "nu.best_take": (SOLO, 1500)}
OPPONENT = "player"




def planted(plants: list[str], seed) -> tuple[PlantedPlayer, object]:
    player = PlantedPlayer([parse_plant(p) for p in plants], seed=seed)
    return player, lambda key, state, name, view: player.attempts(key, view)


def test_every_measure_has_a_family_and_operations_is_folded_into_best_take():
    families = {m.id: (m.family, m.by_operation, m.amount_words) for m in MEASURES}
    assert families == {
        "nu.missed_take": ("strategy", False, None),
        "nu.best_take": ("strategy", False, ("card left behind", "cards left behind")),
        "nu.valid_build": ("arithmetic", True, None),
    }
    assert RETIRED == ("nu.operations",) and "nu.operations" not in OWN


@pytest.mark.parametrize("rate", RATES)
@pytest.mark.parametrize("measure", sorted(PLANTED))
def test_a_planted_measure_is_recovered_and_nothing_else_moves(measure, rate):
    key, chances = PLANTED[measure]
    run = plant_alone(key, measure, rate, seed=f"{measure}={rate}", games=2000, bot_level=OPPONENT,
                      chances=chances)
    tallies, t = run.tallies, run.tally
    assert t.chances >= chances
    assert abs(t.rate - rate) <= TOLERANCE, f"{measure}: planted {rate}, read {t.misses} of {t.chances}"
    assert (run.quota.chances, run.quota.misses) == (t.chances, t.misses), "asked exactly at the counted chances"
    moved = run.moved(OWN)
    assert not moved, f"planting {measure} moved {moved}"
    if measure == "nu.best_take":
        assert t.amount >= t.misses  # each miss leaves at least one card behind
    if measure == "nu.valid_build":  # per operation: a build adds
        assert (tallies["nu.valid_build:+"].chances, tallies["nu.valid_build:+"].misses) == (t.chances, t.misses)


def test_the_planted_player_asks_every_quota_exactly_where_the_measures_count_chances():
    plants = [f"{m}=0.4" for m in OWN] + ["all.rule_errors=0.1"]
    player, student = planted(plants, seed=7)
    tallies = play(GAME, student, games=12, seed=7, bot_level=OPPONENT)
    for m in OWN:
        q = player.quota(m)
        assert q.chances > 0 and (q.chances, q.misses) == (tallies[m].chances, tallies[m].misses), m


@pytest.mark.parametrize("key, games", [(GAME, 12), (SOLO, 25)])
def test_the_expert_bot_reads_strong_on_every_measure(key, games):
    tallies = play(key, bot_student("expert", seed=3), games=games, seed=3)
    own = OWN if key == GAME else ["nu.best_take"]
    for m in own:
        t = tallies[m]
        assert t.chances >= 15, f"{key} {m}: too few chances ({t.chances})"
        assert t.rate <= 0.10, f"{key} {m}: the expert misses {t.misses} of {t.chances}"


def test_a_random_legal_player_reads_below_strong_on_the_strategy_measures():
    numero = play(GAME, random_student(seed=4), games=200, seed=4,
                  until=enough("nu.missed_take", chances=100))
    solo = play(SOLO, random_student(seed=4), games=500, seed=4,
                until=enough("nu.best_take", chances=100))
    read = {"nu.missed_take": numero["nu.missed_take"], "nu.best_take": solo["nu.best_take"]}
    assert sorted(read) == sorted(STRATEGY)
    for m, t in read.items():
        assert t.chances >= 100 and t.rate > 0.10, f"{m}: random reads {t.misses} of {t.chances}"


# ----- the facts the chances rest on ------------------------------------------------------------
def test_the_smallest_take_and_a_build_without_its_answer():
    state = ENGINE.new_game(["Ann", "Ben"], {}, 0, {"hands": {"Ann": ["7g", "4b", "9r"], "Ben": ["1g"]},
                                                  "centre": ["3r", "4o", "2g", "7b"], "deck": []})
    pos = position(state, "Ann")
    assert smallest_take(search_items(pos["centre"]), pos["hand"]) == (2, "4b", [1])
    wrong = build_without_answer(pos, first="9r")
    assert wrong == {"type": "build", "card": "9r", "with": ["3r"]}  # 9 + 3 = 12: no 12 held
    # 1 + 1 = 2 keeps its answer (the 2 in hand), 2 + 1 = 3 does not
    state = ENGINE.new_game(["Ann", "Ben"], {}, 0, {"hands": {"Ann": ["1g", "2b"], "Ben": ["1o"]},
                                                  "centre": ["1r"], "deck": []})
    pos = position(state, "Ann")
    assert build_without_answer(pos, first="1g") == {"type": "build", "card": "2b", "with": ["1r"]}
    # (the biggest card on any item never keeps its answer: only an empty centre has none)
    state = ENGINE.new_game(["Ann", "Ben"], {}, 0, {"hands": {"Ann": ["1g", "2b"], "Ben": ["1o"]},
                                                  "centre": [], "deck": []})
    assert build_without_answer(position(state, "Ann")) is None


def test_a_refused_build_then_the_honest_one_is_one_miss_and_a_lost_challenge_is_the_build_s_miss():
    def move(i, seat, version, accepted, code, analysis, events=()):
        return MoveFacts(i, seat, version, accepted, code, analysis, list(events), None, None)

    build = {"kind": "build", "wrong_build_possible": True}
    moves = [move(0, 0, 5, False, "no_answer_card", dict(build, legal=False, bluff=True)),
             move(1, 0, 5, True, "", dict(build, bluff=False))]
    rows = [r for r in game_evidence(GAME, moves, {0: "Ann"}, {0}) if r.measure == "nu.valid_build"]
    assert [(r.detail, r.missed, r.move_id) for r in rows] == [("+", True, 0)]
    bluffed = [move(0, 0, 5, True, "", dict(build, bluff=True)),
               move(1, 1, 6, True, "", {"kind": "challenge"},
                    [{"type": "challenge", "builder": "Ann", "bluff": True}])]
    rows = [r for r in game_evidence(GAME, bluffed, {0: "Ann", 1: "Ben"}, {0}) if r.measure == "nu.valid_build"]
    assert [(r.detail, r.missed, r.move_id) for r in rows] == [("+", True, 0)]
