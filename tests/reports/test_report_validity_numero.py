"""Validity for Numero through the database: a simulated class with planted Numero miss rates
(games/engine/numero/planted.py); the reports must count exactly the misses the planted
players' dice drew, and a student without plants must miss nothing. (Recovery of the planted
rates themselves, the expert and a random player: tests/reports/test_validity_numero.py.)

Revision 2: misses are drawn by chance per chance (not spread by a quota), so a rate read
from a few dozen chances is checked against what the dice drew, exactly, not against the
planted rate. nu.operations is folded into nu.best_take.
"""

import copy

import pytest

from devtools import simulation
from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_game, simulate_class
from games import registry
from games.engine.numero import planted as planted_numero
from games.models import Game, Move
from reports.models import NeedsHelpFlag, SkillRollup

from .simulated import remove_simulated

pytestmark = pytest.mark.django_db

PLANTS = ("nu.missed_take=0.3", "nu.best_take=0.3", "nu.valid_build=0.3")
NUMERO = ("nu.missed_take", "nu.best_take", "nu.valid_build")


class RecordingPlayer(PlantedPlayer):
    """The simulation's planted player, remembered (by its student's seed) to read its dice."""

    made: list["RecordingPlayer"] = []

    def __init__(self, plants, seed=0):
        super().__init__(plants, seed=seed)
        self.made.append(self)


@pytest.fixture(scope="module")
def simulated(django_db_setup, django_db_blocker):
    RecordingPlayer.made = []
    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as patch:
        patch.setattr(simulation, "PlantedPlayer", RecordingPlayer)
        sim = simulate_class(students=3, games=8, plants=[parse_plant(p) for p in PLANTS], error_free=1)
        yield sim, list(RecordingPlayer.made)
        remove_simulated(sim)


def _student_totals(sim, measure, students):
    rows = SkillRollup.objects.filter(classroom=sim.classroom, scope=SkillRollup.Scope.STUDENT, week=None,
                                      measure=measure, detail="", student__in=students)
    return sum(r.misses for r in rows), sum(r.chances for r in rows)


def test_the_plants_play_numero(simulated):
    sim, _players = simulated
    assert {g.key for g in sim.games} == {"numero"}
    assert all(g.status == Game.Status.FINISHED for g in sim.games)


@pytest.mark.parametrize("measure", NUMERO)
def test_the_reports_count_exactly_the_misses_the_planted_dice_drew(simulated, measure):
    sim, players = simulated
    assert len(players) == len(sim.students)
    for student, player in zip(sim.students, players):
        quota = player.quota(measure)
        misses, chances = _student_totals(sim, measure, [student])
        assert (misses, chances) == (quota.misses, quota.chances), f"{student.display_name} {measure}"
    planted = [p.quota(measure) for s, p in zip(sim.students, players) if sim.plants[s.pk]]
    assert sum(q.chances for q in planted) >= 10 and sum(q.misses for q in planted) > 0


def test_the_error_free_numero_student_misses_nothing_and_is_never_flagged(simulated):
    sim, _players = simulated
    clean = [s for s in sim.students if not sim.plants[s.pk]]
    assert len(clean) == 1
    for measure in NUMERO:
        misses, chances = _student_totals(sim, measure, clean)
        assert chances >= 3, f"too few chances at {measure}: {chances}"
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
    player = PlantedPlayer([parse_plant("nu.best_take=0.3"), parse_plant("nu.missed_take=0.2")])
    game = play_game(key="numero_solitaire", classroom=sim.classroom, student=sim.students[0],
                     player=player, seed=11)
    assert game.status == Game.Status.FINISHED and game.seats.count() == 1
    assert player.quota("nu.best_take").chances > 0
    assert player.quota("nu.valid_build").chances == 0  # Solitaire has no builds
    assert player.quota("nu.missed_take").chances == 0  # ... and every turn must take
