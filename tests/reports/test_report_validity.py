"""Validity: a simulated class with planted miss rates; the reports must find those rates.

The planted players spread their misses evenly (see devtools/planted.py), so with
enough chances the class's measured rate must be within 3 percentage points of the plant; a
report that counted chances or misses differently from skills.md would miss that by far.
"""

import pytest
from django.core.management import call_command

from reports.models import NeedsHelpFlag, SkillRollup
from devtools.planted import parse_plant
from devtools.simulation import simulate_class

from .simulated import remove_simulated

pytestmark = pytest.mark.django_db

# plant -> the fewest chances that make one miss less than 3 points
PLANTS = {"so.lowest_operator=0.3": 34, "so.mental_math=0.2": 34, "mg.missed_play=0.2": 34,
          "all.rule_errors=0.1": 34}
# One card shows 7 x 8, so the fact comes up about once in three games: a class of its own.
FACT = "mg.facts:7x8=0.5"


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
    assert abs(misses / chances - plant.rate) <= 0.03, f"{text}: {misses} of {chances}"


def test_a_planted_times_table_fact_is_recovered_within_3_points(simulated_fact):
    plant = parse_plant(FACT)
    misses, chances = _student_totals(simulated_fact, plant, simulated_fact.students)
    assert chances >= 34, f"too few chances to judge {FACT}: {chances}"
    assert abs(misses / chances - plant.rate) <= 0.03, f"{FACT}: {misses} of {chances}"
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
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="cannot be planted"):
        call_command("simulate_class", students=1, games=1, plant=["am.operation=0.2"])
    with pytest.raises(CommandError, match="from 0 to 1"):
        call_command("simulate_class", students=1, games=1, plant=["so.lowest_operator=3"])
