"""A teacher recomputes a class: the job counts the games it has done, then says it is ready."""

import pytest

from reports import services
from reports.models import GameReport, RecomputeJob, SkillEvidence
from devtools.planted import PlantedPlayer
from devtools.simulation import play_game

pytestmark = pytest.mark.django_db


@pytest.mark.usefixtures("eager_celery")
def test_recompute_rebuilds_every_game_and_reports_progress(classroom, student, teacher,
                                                            django_capture_on_commit_callbacks):
    games = [play_game(key="multiplication", classroom=classroom, student=student, seed=s,
                       player=PlantedPlayer([])) for s in (1, 2, 3)]
    rows = sorted(SkillEvidence.objects.values_list("move_id", "measure", "detail", "missed"))
    SkillEvidence.objects.all().delete()  # as if the reports were lost
    GameReport.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        job = services.class_recompute_start(classroom=classroom, requested_by=teacher)
        assert job.status == "queued" and job.total == len(games) and job.done == 0
        assert services.class_recompute_start(classroom=classroom, requested_by=teacher) == job  # no second
    job.refresh_from_db()
    assert job.status == "ready" and job.done == job.total == 3 and job.finished_at is not None
    assert sorted(SkillEvidence.objects.values_list("move_id", "measure", "detail", "missed")) == rows
    assert GameReport.objects.count() == 3
    with django_capture_on_commit_callbacks(execute=True):
        again = services.class_recompute_start(classroom=classroom, requested_by=teacher)
    assert again != job and RecomputeJob.objects.get(pk=again.pk).status == "ready"
