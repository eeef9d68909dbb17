"""Computing a report twice, or after a crash, ends in the same rows; bad ids change nothing."""

import pytest

from reports import services, tasks
from reports.models import GameReport, SkillEvidence, SkillRollup
from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_game
from games.models import Game
from games.services import SeatSpec, game_create

pytestmark = pytest.mark.django_db

FIELDS = ("move_id", "student_id", "measure", "detail", "missed", "amount", "turn", "week")


def _rows(game):
    return sorted(SkillEvidence.objects.filter(game=game).values_list(*FIELDS))


def _rollups(classroom):
    return sorted(map(repr, SkillRollup.objects.filter(classroom=classroom).values_list(
        "scope", "student_id", "assignment_id", "week", "measure", "detail", "chances", "misses")))


def test_running_the_report_twice_changes_nothing(classroom, student):
    player = PlantedPlayer([parse_plant("so.lowest_operator=0.4"), parse_plant("all.rule_errors=0.1")])
    game = play_game(key="smooth_operator", classroom=classroom, student=student, player=player, seed=8)
    first = _rows(game)
    ids = set(SkillEvidence.objects.filter(game=game).values_list("id", flat=True))
    assert first
    tasks.report_game(game.pk)  # the queued task, run again
    assert _rows(game) == first
    assert set(SkillEvidence.objects.filter(game=game).values_list("id", flat=True)) == ids  # untouched
    services.game_report_compute(game_id=game.pk, force=True)  # a forced recompute: same content
    assert _rows(game) == first
    assert GameReport.objects.filter(game=game).count() == 1
    rollups = _rollups(classroom)
    assert rollups
    services.class_rollups_rebuild(classroom_id=classroom.pk)
    assert _rollups(classroom) == rollups


def test_a_recomputed_report_is_the_row_stored(classroom, student):
    game = play_game(key="smooth_operator", classroom=classroom, student=student,
                     player=PlantedPlayer([parse_plant("so.lowest_operator=0.4")]), seed=9)
    report = services.game_report_compute(game_id=game.pk, force=True)
    stored = GameReport.objects.get(game=game)
    assert report == stored
    assert (report.classroom_id, report.version, report.decisions, report.revision, report.computed_at) == (
        stored.classroom_id, stored.version, stored.decisions, stored.revision, stored.computed_at)
    assert report.decisions > 0
    assert services.game_report_compute(game_id=game.pk) == report  # up to date: the same row


def test_a_crash_half_way_leaves_nothing_and_running_again_repairs_it(classroom, student, monkeypatch):
    player = PlantedPlayer([parse_plant("so.lowest_operator=0.4")])
    game = play_game(key="smooth_operator", classroom=classroom, student=student, player=player, seed=9)
    first = _rows(game)
    SkillEvidence.objects.filter(game=game).delete()
    GameReport.objects.filter(game=game).delete()
    write = services.bulk_insert_evidence

    def dies_half_way(values):
        write(values[: len(values) // 2])
        raise RuntimeError("the worker died")

    monkeypatch.setattr(services, "bulk_insert_evidence", dies_half_way)
    with pytest.raises(RuntimeError):
        tasks.report_game(game.pk)
    # Evidence and its report marker are written in one transaction: nothing half-written stays.
    assert not SkillEvidence.objects.filter(game=game).exists()
    assert not GameReport.objects.filter(game=game).exists()
    monkeypatch.undo()
    tasks.report_game(game.pk)  # the task's retry
    assert _rows(game) == first


def test_unfinished_and_missing_games_and_jobs_are_a_no_op(classroom, student):
    game = game_create(key="smooth_operator", classroom=classroom, seed=1,
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="expert")])
    assert game.status == Game.Status.ACTIVE
    assert services.game_report_compute(game_id=game.pk) is None
    assert tasks.report_game(game.pk) is None
    assert tasks.report_game(987654321) is None
    assert tasks.recompute_class(987654321) is None
    assert tasks.rollups_all() == 0
    assert not SkillEvidence.objects.exists() and not GameReport.objects.exists()
