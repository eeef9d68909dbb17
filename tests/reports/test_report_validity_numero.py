"""Validity for Numero: a simulated class with planted Numero miss rates; the reports must find
those rates, and a student without plants must miss nothing (games/engine/numero/planted.py).

Two measures can only be missed in some of their chances (the chance definitions of
shared/spec/skills.md count every take): nu.best_take when a smaller take was possible too
(about 3 takes in 10 at level 6), nu.operations when a take with one operation and one with
more were both possible (about 1 take in 7 with a wild card). A plant must stay well below
that share, or the quota cannot catch up with it (see docs/reports.md).
"""

import copy

import pytest

from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_game, simulate_class
from games import registry
from games.engine.numero import planted as planted_numero
from games.models import Game, Move
from reports.models import NeedsHelpFlag, SkillRollup

from .simulated import remove_simulated

pytestmark = pytest.mark.django_db

# plant -> the fewest chances that make one miss less than 3 points
PLANTS = {"nu.missed_take=0.3": 34, "nu.best_take=0.2": 34, "nu.operations=0.05": 34,
          "nu.valid_build=0.2": 34}
NUMERO = ("nu.missed_take", "nu.best_take", "nu.operations", "nu.valid_build")


@pytest.fixture(scope="module")
def simulated(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        sim = simulate_class(students=4, games=10, plants=[parse_plant(p) for p in PLANTS], error_free=1)
        yield sim
        remove_simulated(sim)


def _student_totals(sim, measure, students):
    rows = SkillRollup.objects.filter(classroom=sim.classroom, scope=SkillRollup.Scope.STUDENT, week=None,
                                      measure=measure, detail="", student__in=students)
    return sum(r.misses for r in rows), sum(r.chances for r in rows)


def test_the_plants_play_numero(simulated):
    assert {g.key for g in simulated.games} == {"numero"}
    assert all(g.status == Game.Status.FINISHED for g in simulated.games)


@pytest.mark.parametrize("text", PLANTS)
def test_planted_numero_rates_are_recovered_within_3_points(simulated, text):
    plant = parse_plant(text)
    planted = [s for s in simulated.students if simulated.plants[s.pk]]
    misses, chances = _student_totals(simulated, plant.measure, planted)
    assert chances >= PLANTS[text], f"too few chances to judge {text}: {chances}"
    assert abs(misses / chances - plant.rate) <= 0.03, f"{text}: {misses} of {chances}"


def test_the_error_free_numero_student_misses_nothing_and_is_never_flagged(simulated):
    clean = [s for s in simulated.students if not simulated.plants[s.pk]]
    assert len(clean) == 1
    for measure in NUMERO:
        misses, chances = _student_totals(simulated, measure, clean)
        assert chances >= 10, f"too few chances at {measure}: {chances}"
        assert misses == 0, f"{measure}: {misses} of {chances}"
    assert not NeedsHelpFlag.objects.filter(student=clean[0], measure__in=NUMERO).exists()
    assert not NeedsHelpFlag.objects.filter(student=clean[0]).exists()


def _views_of(game: Game, me: str) -> list[dict]:
    """Replay the game's accepted moves: the view `me` had before each of its own moves."""
    engine = registry.spec_for(game.key).engine
    seats = list(game.seats.order_by("position"))
    state = engine.new_game([s.name for s in seats], game.options, game.seed)
    names = {s.pk: s.name for s in seats}
    views = []
    for move in Move.objects.filter(game=game, accepted=True).order_by("sequence"):
        if names[move.seat_id] == me:
            views.append(engine.view(state, me))
        state, _events = engine.apply(state, names[move.seat_id], move.action)
    return views


def test_a_planted_numero_player_decides_from_its_own_view_only(db, monkeypatch):
    seen = []
    original = planted_numero.NumeroPlanner.attempts

    def spy(self, view):
        seen.append(copy.deepcopy(view))
        return original(self, view)

    monkeypatch.setattr(planted_numero.NumeroPlanner, "attempts", spy)
    plants = ["nu.missed_take=0.3", "nu.best_take=0.3", "nu.valid_build=0.3", "all.rule_errors=0.1"]
    sim = simulate_class(students=1, games=1, plants=[parse_plant(p) for p in plants])
    game = sim.games[0]
    me = sim.students[0].display_name
    assert seen and all(v["me"] == me and "hands" not in v and "deck" not in v for v in seen)
    # every call was given exactly the student's view of the position it decided in
    assert seen == _views_of(game, me)
    # ... which shows the other hands only as counts
    robo = next(s.name for s in game.seats.all() if s.bot_level)
    assert all(set(v["hand_counts"]) == {me, robo} for v in seen)


def test_a_planted_player_plays_numero_solitaire(db):
    sim = simulate_class(students=1, games=1, plants=[parse_plant("nu.best_take=0.3")])
    player = PlantedPlayer([parse_plant("nu.best_take=0.3"), parse_plant("nu.operations=0.2")])
    game = play_game(key="numero_solitaire", classroom=sim.classroom, student=sim.students[0],
                     player=player, seed=11)
    assert game.status == Game.Status.FINISHED and game.seats.count() == 1
    assert player.quota("nu.best_take").chances > 0
    assert player.quota("nu.valid_build").chances == 0  # Solitaire has no builds
