"""Validity through the whole pipeline: a simulated class with planted miss rates plays real
games through the services, and the stored reports must find those rates.

Misses are drawn by chance (devtools/planted.py), so a class's measured rate is the planted
one up to the dice: the allowed gap is 3 binomial standard deviations of its chances, at
least 3 points. (The ±3 points at 300 chances and more of Revision 2 is checked per game,
without the database, in tests/reports/test_validity_<game>.py: many more games there.)
"""

import json
from math import sqrt

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from reports.models import NeedsHelpFlag, SkillRollup
from devtools.planted import parse_plant
from devtools.simulation import simulate_class

from .simulated import remove_simulated

pytestmark = pytest.mark.django_db

# plant -> the fewest chances the class must have had
PLANTS = {"so.lowest_operator=0.3": 34, "so.mental_math=0.2": 34, "mg.missed_play=0.2": 34,
          "all.rule_errors=0.1": 34}
# One card shows 7 x 8, so the fact comes up about once in three games: a class of its own.
FACT = "mg.facts:7x8=0.5"


def allowed_gap(rate: float, chances: int) -> float:
    return max(0.03, 3 * sqrt(rate * (1 - rate) / chances))


@pytest.fixture(scope="module")
def simulated(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        sim = simulate_class(students=5, games=12, plants=[parse_plant(p) for p in PLANTS], error_free=1)
        yield sim
        remove_simulated(sim)


@pytest.fixture(scope="module")
def simulated_fact(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        sim = simulate_class(students=4, games=30, plants=[parse_plant(FACT)])
        yield sim
        remove_simulated(sim)


def _student_totals(sim, plant, students):
    rows = SkillRollup.objects.filter(classroom=sim.classroom, scope=SkillRollup.Scope.STUDENT, week=None,
                                      measure=plant.measure, detail=plant.detail, student__in=students)
    return sum(r.misses for r in rows), sum(r.chances for r in rows)


@pytest.mark.parametrize("text", PLANTS)
def test_planted_rates_are_recovered_within_3_points(simulated, text):
    plant = parse_plant(text)
    planted = [s for s in simulated.students if simulated.plants[s.pk]]
    misses, chances = _student_totals(simulated, plant, planted)
    assert chances >= PLANTS[text], f"too few chances to judge {text}: {chances}"
    assert abs(misses / chances - plant.rate) <= allowed_gap(plant.rate, chances), f"{text}: {misses} of {chances}"


def test_a_planted_times_table_fact_is_recovered_within_3_points(simulated_fact):
    plant = parse_plant(FACT)
    misses, chances = _student_totals(simulated_fact, plant, simulated_fact.students)
    assert chances >= 34, f"too few chances to judge {FACT}: {chances}"
    assert abs(misses / chances - plant.rate) <= allowed_gap(plant.rate, chances), f"{FACT}: {misses} of {chances}"
    # Only that fact was planted: every other fact was named right.
    others = SkillRollup.objects.filter(classroom=simulated_fact.classroom, scope=SkillRollup.Scope.STUDENT,
                                        week=None, measure="mg.facts").exclude(detail__in=["", "7x8"])
    assert others.exists() and sum(r.misses for r in others) == 0


def test_the_error_free_student_misses_nothing_and_is_never_flagged(simulated):
    clean = [s for s in simulated.students if not simulated.plants[s.pk]]
    assert len(clean) == 1
    rows = SkillRollup.objects.filter(classroom=simulated.classroom, student=clean[0], week=None,
                                      scope=SkillRollup.Scope.STUDENT, detail="")
    misses = {r.measure: r.misses for r in rows}
    assert sum(r.chances for r in rows) > 100
    assert all(n == 0 for n in misses.values()), misses
    assert not NeedsHelpFlag.objects.filter(student=clean[0]).exists()


def test_the_command_prints_planted_and_measured_rates(db, capsys):
    call_command("simulate_class", students=1, games=2, plant=["mg.missed_play=0.25"])
    out = capsys.readouterr().out
    assert "Simulated class" in out and "1 students, 2 games" in out
    assert "mg.missed_play" in out and "planted 25.0%" in out and "measured" in out


def test_the_command_refuses_a_measure_it_cannot_plant(db):
    with pytest.raises(CommandError, match="cannot be planted"):
        call_command("simulate_class", students=1, games=1, plant=["all.think_time=0.2"])
    with pytest.raises(CommandError, match="from 0 to 1"):
        call_command("simulate_class", students=1, games=1, plant=["so.lowest_operator=3"])


def test_the_same_seed_prints_the_same_json(db, capsys):
    """`simulate_class --seed 5 --json`: per student and measure, the planted rate, the
    chances and the measured rate; twice the same."""
    args = dict(students=2, games=2, seed=5, json=True, profile=["mg.facts=0.3", "mg.missed_play=0.4"])
    call_command("simulate_class", **args)
    first = capsys.readouterr().out
    call_command("simulate_class", **args)
    assert capsys.readouterr().out == first
    figures = json.loads(first)
    assert figures["seed"] == 5
    one, two = figures["students"]
    assert one["measures"]["mg.facts"]["planted"] == 0.3 and one["measures"]["mg.missed_play"]["planted"] is None
    assert two["measures"]["mg.missed_play"]["planted"] == 0.4 and two["measures"]["mg.facts"]["planted"] is None
    for student in (one, two):
        for label, f in student["measures"].items():
            assert f["chances"] >= f["misses"] >= 0, label
            assert f["measured"] == (round(f["misses"] / f["chances"], 4) if f["chances"] else None)
    call_command("simulate_class", **{**args, "seed": 6})
    assert capsys.readouterr().out != first
