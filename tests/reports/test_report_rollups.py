"""Roll-ups add up the evidence per student, class, assignment and week."""

from datetime import timedelta
from statistics import median

import pytest

from classroom import services as classroom_services
from reports import services
from reports.models import SkillEvidence, SkillRollup
from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_game

pytestmark = pytest.mark.django_db
Scope = SkillRollup.Scope


@pytest.fixture
def played(classroom, teacher, make_student):
    ann, ben = make_student(classroom, "Ann"), make_student(classroom, "Ben", ("boat", "star", "apple"))
    assignment = classroom_services.assignment_create(
        classroom=classroom, created_by=teacher, title="Tables", game="multiplication", preset="classic",
        opponents="bots", bot_level="expert", bot_count=1, mental_math=False, goal="play", goal_count=1,
        goal_until=None, due_on=None)
    plants = [parse_plant("mg.missed_play=0.3"), parse_plant("mg.facts=0.2")]
    play_game(key="multiplication", classroom=classroom, student=ann, player=PlantedPlayer(plants), seed=1,
              assignment=assignment)
    play_game(key="multiplication", classroom=classroom, student=ann, player=PlantedPlayer(plants), seed=2,
              days_ago=7)
    play_game(key="multiplication", classroom=classroom, student=ben, player=PlantedPlayer([]), seed=3,
              assignment=assignment)
    services.class_rollups_rebuild(classroom_id=classroom.pk)
    return ann, ben, assignment


def _rollup(classroom, **key):
    key = {"student": None, "assignment": None, "week": None, "detail": "", **key}
    return SkillRollup.objects.get(classroom=classroom, **key)


def _count(qs):
    return qs.count(), qs.filter(missed=True).count()


def test_every_scope_adds_up_the_evidence(classroom, played):
    ann, ben, assignment = played
    evidence = SkillEvidence.objects.filter(measure="mg.missed_play")
    for scope, extra, rows in [
        (Scope.STUDENT, {"student": ann}, evidence.filter(student=ann)),
        (Scope.STUDENT, {"student": ben}, evidence.filter(student=ben)),
        (Scope.CLASS, {}, evidence),
        (Scope.ASSIGNMENT, {"assignment": assignment}, evidence.filter(assignment=assignment)),
        (Scope.ASSIGNMENT, {"assignment": assignment, "student": ann},
         evidence.filter(assignment=assignment, student=ann)),
    ]:
        row = _rollup(classroom, scope=scope, measure="mg.missed_play", **extra)
        assert (row.chances, row.misses) == _count(rows)
    assert _rollup(classroom, scope=Scope.STUDENT, student=ann, measure="mg.missed_play").misses > 0
    assert _rollup(classroom, scope=Scope.STUDENT, student=ben, measure="mg.missed_play").misses == 0


def test_weeks_are_mondays_and_split_the_all_time_numbers(classroom, played):
    ann, _ben, _a = played
    weeks = SkillRollup.objects.filter(classroom=classroom, scope=Scope.STUDENT, student=ann,
                                       measure="mg.missed_play", detail="", week__isnull=False)
    assert weeks.count() == 2
    assert all(w.week.weekday() == 0 for w in weeks)
    assert max(w.week for w in weeks) - min(w.week for w in weeks) == timedelta(days=7)
    total = _rollup(classroom, scope=Scope.STUDENT, student=ann, measure="mg.missed_play")
    assert sum(w.chances for w in weeks) == total.chances and sum(w.misses for w in weeks) == total.misses


def test_details_per_fact_per_error_code_and_think_time_medians(classroom, played):
    ann, _ben, _a = played
    facts = SkillRollup.objects.filter(classroom=classroom, scope=Scope.STUDENT, student=ann, week=None,
                                       measure="mg.facts").exclude(detail="")
    whole = _rollup(classroom, scope=Scope.STUDENT, student=ann, measure="mg.facts")
    assert facts.count() > 1 and all("x" in f.detail for f in facts)
    assert sum(f.chances for f in facts) == whole.chances and sum(f.misses for f in facts) == whole.misses
    codes = SkillRollup.objects.filter(classroom=classroom, scope=Scope.STUDENT, student=ann, week=None,
                                       measure="all.rule_errors").exclude(detail="")
    # A false declaration is a times-table miss only, never also a rule error.
    assert whole.misses > 0 and "bad_declaration" not in set(codes.values_list("detail", flat=True))
    kinds = SkillRollup.objects.filter(classroom=classroom, scope=Scope.CLASS, week=None,
                                       measure="all.think_time").exclude(detail="")
    for row in kinds:
        amounts = SkillEvidence.objects.filter(measure="all.think_time", detail=row.detail) \
            .values_list("amount", flat=True)
        assert row.amount_median == pytest.approx(median(amounts), abs=0.001)
        assert row.chances == len(amounts)


def test_median_seconds_read_as_counted_amounts_are_the_median_of_every_value(classroom, played):
    """The roll-up reads each amount once with how many rows have it (reports/rollups.py):
    the median a teacher sees is still the one of every row, in every scope and week, the
    mean of the two middle values when there is an even number of them."""
    for row in SkillRollup.objects.filter(classroom=classroom, measure="all.think_time", detail=""):
        rows = SkillEvidence.objects.filter(classroom=classroom, measure="all.think_time",
                                            amount__isnull=False)
        if row.student_id:
            rows = rows.filter(student_id=row.student_id)
        if row.assignment_id:
            rows = rows.filter(assignment_id=row.assignment_id)
        if row.week:
            rows = rows.filter(week=row.week)
        assert row.amount_median == round(median(rows.values_list("amount", flat=True)), 3)


def test_a_deleted_assignment_leaves_its_games_evidence_counted_as_free_games(classroom, played):
    ann, ben, assignment = played
    before = _rollup(classroom, scope=Scope.STUDENT, student=ann, measure="mg.missed_play")
    in_assignment = SkillEvidence.objects.filter(assignment=assignment).count()
    total = SkillEvidence.objects.count()
    assert 0 < in_assignment < total
    assignment.delete()
    assert SkillEvidence.objects.count() == total
    assert not SkillEvidence.objects.filter(assignment__isnull=False).exists()
    services.class_rollups_rebuild(classroom_id=classroom.pk)
    after = _rollup(classroom, scope=Scope.STUDENT, student=ann, measure="mg.missed_play")
    assert (after.chances, after.misses) == (before.chances, before.misses)
    assert not SkillRollup.objects.filter(classroom=classroom, scope=Scope.ASSIGNMENT).exists()
