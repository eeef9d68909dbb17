"""A real Celery worker against Redis and PostgreSQL (skipped on a laptop without them, fails
in CI): a finished game's report appears, and running the task twice changes nothing."""

import time

import pytest
from django.db import connection

from config.celery import app as celery_app
from reports import tasks
from reports.exports.jobs import export_start
from reports.models import GameReport, RecomputeJob, SkillEvidence
from devtools.planted import PlantedPlayer, parse_plant
from games import engine as engines
from games.models import Game
from games.services import SeatSpec, game_apply_move, game_create
from tests.conftest import need, redis_available


def _finish_game(classroom, student):
    """Play a game through the services, committing every move as the web app does."""
    me = SeatSpec(student.display_name, user=student)
    game = game_create(key="multiplication", classroom=classroom, seed=21,
                       seats=[me, SeatSpec("Robo", bot_level="expert")], options={"hand_size": 4})
    engine, player = engines.get(game.key), PlantedPlayer([parse_plant("mg.facts=0.3")])
    seats = {s.name: s for s in game.seats.all()}
    while game.status == Game.Status.ACTIVE:
        name = engine.waiting_for(game.state)[0]
        if name == me.name:
            actions = player.attempts(game.key, engine.view(game.state, name))
        else:
            actions = [engines.make_bot(game.key, "expert", game.version).choose(engine.view(game.state, name))]
        for action in actions:
            result = game_apply_move(game_id=game.pk, seat=seats[name], action=action,
                                     expected_version=game.version, schedule_bots=False)
        game = result.game
    return game


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_writes_the_report_once(classroom, student, settings):
    need(redis_available(), "REDIS_URL is not set or Redis does not answer")
    need(connection.vendor == "postgresql", "DATABASE_URL must name PostgreSQL for the worker test")
    # Here, not at the top: Celery's test-worker machinery is loaded only when a worker starts.
    from celery.contrib.testing.worker import start_worker

    assert not settings.CELERY_TASK_ALWAYS_EAGER
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        game = _finish_game(classroom, student)  # the finishing move queues report_game on commit
        deadline = time.monotonic() + 60
        while not GameReport.objects.filter(game=game).exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        report = GameReport.objects.get(game=game)
        assert report.version == game.version
        rows = sorted(SkillEvidence.objects.filter(game=game).values_list("id", "measure", "detail", "missed"))
        assert rows and any(measure == "mg.facts" for _, measure, _, _ in rows)
        for _ in range(2):
            assert run(tasks.report_game, game.pk) == report.decisions
        assert sorted(SkillEvidence.objects.filter(game=game).values_list(
            "id", "measure", "detail", "missed")) == rows
        assert GameReport.objects.filter(game=game).count() == 1
        assert run(tasks.report_game, 987654321) is None  # a leftover id: no error


def run(task, *args):
    """Queue `task` for the worker and wait for its return value. Results are not stored by
    default (CELERY_TASK_IGNORE_RESULT: nothing in the app reads one), so this asks for one,
    and forgets it once read so that no result key is left in Redis."""
    result = task.apply_async(args, ignore_result=False)
    try:
        return result.get(timeout=60)
    finally:
        result.forget()


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_a_report_job_once(classroom, student, teacher, settings, tmp_path):
    """An export through Redis: made once; the same task delivered again (as Redis does after
    the visibility timeout, or the sweep's re-send) finds the job ready and changes nothing."""
    need(redis_available(), "REDIS_URL is not set or Redis does not answer")
    need(connection.vendor == "postgresql", "DATABASE_URL must name PostgreSQL for the worker test")
    # Here, not at the top: Celery's test-worker machinery is loaded only when a worker starts.
    from celery.contrib.testing.worker import start_worker

    settings.MEDIA_ROOT = tmp_path
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        job = export_start(classroom=classroom, requested_by=teacher, export_format="csv")  # autocommit: sent now
        assert RecomputeJob.objects.get(pk=job.pk).sent_at is not None
        deadline = time.monotonic() + 60
        while RecomputeJob.objects.get(pk=job.pk).status != "ready" and time.monotonic() < deadline:
            time.sleep(0.2)
        fields = ("status", "done", "total", "file", "finished_at", "heartbeat_at")
        done = RecomputeJob.objects.filter(pk=job.pk).values(*fields).get()
        assert done["status"] == "ready" and done["heartbeat_at"] is not None
        run(tasks.export_run, job.pk)
        assert RecomputeJob.objects.filter(pk=job.pk).values(*fields).get() == done
        assert len(list(tmp_path.rglob("*.csv"))) == 1
