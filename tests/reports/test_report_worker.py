"""A real Celery worker against Redis and PostgreSQL (skipped on a laptop without them, fails
in CI): a finished game's report appears, and running the task twice changes nothing."""

import time

import pytest
from django.db import connection

from classroom.reports import tasks
from classroom.reports.models import GameReport, SkillEvidence
from classroom.reports.planted import PlantedPlayer, parse_plant
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
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    assert not settings.CELERY_TASK_ALWAYS_EAGER
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        game = _finish_game(classroom, student)  # the finishing move queues report_game on commit
        deadline = time.monotonic() + 60
        while not GameReport.objects.filter(game=game).exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        report = GameReport.objects.get(game=game)
        assert report.version == game.version
        rows = sorted(SkillEvidence.objects.filter(game=game).values_list("id", "measure", "detail", "missed"))
        assert rows and any(measure == "mg.facts" for _, measure, _, _ in rows)
        for _ in range(2):
            tasks.report_game.delay(game.pk).get(timeout=60)
        assert sorted(SkillEvidence.objects.filter(game=game).values_list(
            "id", "measure", "detail", "missed")) == rows
        assert GameReport.objects.filter(game=game).count() == 1
        assert tasks.report_game.delay(987654321).get(timeout=60) is None  # a leftover id: no error
