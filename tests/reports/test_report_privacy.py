"""Removing a student deletes their report data (evidence, roll-ups, flags) and the class's
numbers are rolled up again without them; reports name students, nothing more."""

import pytest

from classroom import services as classroom_services
from reports import services
from reports.measures import evidence_measures
from reports.models import NeedsHelpFlag, SkillEvidence, SkillRollup
from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_game
from games.models import Game

pytestmark = pytest.mark.django_db


def _class_row(classroom):
    return SkillRollup.objects.get(classroom=classroom, scope=SkillRollup.Scope.CLASS, week=None,
                                   measure="all.rule_errors", detail="")


def test_removing_a_student_deletes_their_report_data(classroom, make_student):
    ann, ben = make_student(classroom, "Ann"), make_student(classroom, "Ben", ("boat", "star", "apple"))
    game = play_game(key="smooth_operator", classroom=classroom, student=ann, seed=4,
                     player=PlantedPlayer([parse_plant("all.rule_errors=0.2")]))
    play_game(key="smooth_operator", classroom=classroom, student=ben, seed=5, player=PlantedPlayer([]))
    assert NeedsHelpFlag.objects.filter(student=ann).exists()
    before = _class_row(classroom).chances
    ann_chances = SkillEvidence.objects.filter(student=ann,
                                               measure__in=evidence_measures("all.rule_errors")).count()

    classroom_services.student_remove(student=ann, classroom=classroom)  # her only class

    assert not SkillEvidence.objects.filter(student=ann).exists()
    assert not SkillRollup.objects.filter(student=ann).exists()
    assert not NeedsHelpFlag.objects.filter(student=ann).exists()
    assert _class_row(classroom).chances == before - ann_chances  # the class without Ann
    assert SkillEvidence.objects.filter(student=ben).exists()
    # Their games stay (the class's records), but recomputing them brings nothing of Ann back.
    assert Game.objects.filter(pk=game.pk).exists()
    services.game_report_compute(game_id=game.pk, force=True)
    services.class_reports_refresh(classroom_id=classroom.pk)
    assert not SkillEvidence.objects.filter(student=ann).exists()
    assert not SkillRollup.objects.filter(student=ann).exists()


def test_report_rows_hold_ids_not_personal_details(classroom, student):
    play_game(key="multiplication", classroom=classroom, student=student, seed=1, player=PlantedPlayer([]))
    row = SkillEvidence.objects.filter(student=student).values().first()
    text = repr(row) + repr(list(SkillRollup.objects.filter(student=student).values()))
    assert student.display_name not in text and student.username not in text
