"""One lock order for report writes: the class row first, then games in id order.

The deadlock it fixes (PostgreSQL; SQLite has no row locks): a recompute batch locked its games
and, at commit, its evidence's foreign key took a key-share lock on the class row; meanwhile a
finished game's flags refresh held the class row and, at commit, its new "rule errors" flags'
foreign keys took key-share locks on those same games. Each waited for the other at COMMIT
(Django's foreign keys are checked at commit). `simulate_class` or `load_demo` beside a
Celery worker hit it within a minute.

Each round runs a class recompute in one thread and a game finishing (its move, then its
report, roll-ups and flags) in another, one of them holding its locks a little longer so that
the two overlap for certain, in both orders. The class's flags are out of date before each
round, so the flags refresh writes flags that name the recompute's games.
"""

from __future__ import annotations

import threading
import time
from unittest import mock

import pytest
from django.db import close_old_connections, connection

from devtools.planted import PlantedPlayer, games_for, parse_plant
from devtools.simulation import play_game
from games import registry
from games.models import Game
from games.services import SeatSpec, game_apply_move, game_create
from reports import flags, services
from reports.models import GameReport, NeedsHelpFlag, RecomputeJob
from tests.conftest import need

pytestmark = pytest.mark.django_db(transaction=True)

HOLD_SECONDS = 0.6  # longer than enough for the other thread to reach its locks
RULES = parse_plant("all.rule_errors=0.6")


def almost_finished(classroom, student) -> tuple[Game, object, dict]:
    """A game one move from its end: (game, the seat to move, the final action)."""
    # The first game with planted players that a student and one computer player can play.
    key = next(k for k in games_for([RULES]) if registry.spec_for(k).min_players <= 2 <= registry.spec_for(k).max_players)
    spec = registry.spec_for(key)
    engine = spec.engine
    options = dict(spec.skills.planted.options)
    game = game_create(key=key, classroom=classroom, options=options,
                       seats=[SeatSpec(student.display_name, user=student),
                              SeatSpec("Robo", bot_level="beginner")])
    seats = {s.name: s for s in game.seats.all()}
    for _ in range(5000):
        seat = seats[engine.waiting_for(game.state)[0]]
        action = spec.make_bot("beginner", game.version).choose(engine.view(game.state, seat.name))
        if engine.apply(game.state, seat.name, action)[0]["finished"]:
            return game, seat, action
        result = game_apply_move(game_id=game.pk, seat=seat, action=action,
                                 expected_version=game.version, schedule_bots=False)
        assert result.applied
        game = result.game
    raise AssertionError("the game did not finish")


def held(func, event: threading.Event, thread_name: str):
    """`func`, which in the thread `thread_name` then says so and keeps its locks a while."""
    def wrapper(*args, **kwargs):
        result = func(*args, **kwargs)
        if threading.current_thread().name == thread_name and not event.is_set():
            event.set()
            time.sleep(HOLD_SECONDS)
        return result
    return wrapper


@pytest.fixture
def rule_breaking_class(classroom, student, make_student):
    """Finished games with enough refused moves for "rule errors" flags, reports made."""
    need(connection.vendor == "postgresql", "the lock-order test needs PostgreSQL (DATABASE_URL)")
    player = PlantedPlayer([RULES])
    key = games_for([RULES])[0]
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    for seed, who in enumerate([student, ben] * 2):
        play_game(key=key, classroom=classroom, student=who, player=player, seed=seed,
                  bot_level="beginner")
    assert NeedsHelpFlag.objects.filter(classroom=classroom, game__isnull=False).exists()
    return classroom


@pytest.mark.parametrize("first", ["recompute", "finish"])
def test_a_recompute_and_a_game_finishing_never_deadlock(rule_breaking_class, student, teacher, first):
    classroom = rule_breaking_class
    for round_ in range(3):
        NeedsHelpFlag.objects.filter(classroom=classroom).delete()  # flags out of date
        game, seat, action = almost_finished(classroom, student)
        job = RecomputeJob.objects.create(classroom=classroom, kind=RecomputeJob.Kind.RECOMPUTE,
                                          requested_by=teacher)
        started = threading.Event()
        errors: dict[str, BaseException] = {}

        def recompute():
            try:
                if first != "recompute":
                    assert started.wait(30)
                services.class_recompute_run(job_id=job.pk)
            except BaseException as exc:  # noqa: BLE001 - reported by the test thread
                errors["recompute"] = exc
            finally:
                close_old_connections()

        def finish():
            try:
                if first != "finish":
                    assert started.wait(30)
                result = game_apply_move(game_id=game.pk, seat=seat, action=action,
                                         expected_version=game.version, schedule_bots=False)
                assert result.applied and result.game.status == Game.Status.FINISHED
                services.game_finished(game_id=game.pk)  # what the report task does
            except BaseException as exc:  # noqa: BLE001
                errors["finish"] = exc
            finally:
                close_old_connections()

        # The first thread keeps its locks a while once it has them: the recompute inside
        # its first batch's transaction (games locked), the finish inside its flags
        # transaction (class row locked, flags naming the recompute's games written).
        with mock.patch("reports.receivers.report_game"), \
                mock.patch.object(services, "bulk_insert_evidence",
                                  held(services.bulk_insert_evidence, started, "recompute")), \
                mock.patch.object(flags, "refresh", held(flags.refresh, started, "finish")):
            threads = [threading.Thread(target=recompute, name="recompute"),
                       threading.Thread(target=finish, name="finish")]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(60)
            assert not any(t.is_alive() for t in threads), f"round {round_}: a thread hangs"
        assert not errors, f"round {round_} ({first} first): {errors!r}"
        job.refresh_from_db()
        assert job.status == RecomputeJob.READY
        assert GameReport.objects.filter(game=game, version=Game.objects.get(pk=game.pk).version).exists()
        assert NeedsHelpFlag.objects.filter(classroom=classroom, game__isnull=False).exists()
