"""Celery tasks for play. Bots pause briefly (settings.BOT_DELAY_SECONDS, 0 in tests) so a
child can follow what happened.

A change's after-commit path (games/services/after_commit.py) wakes the computer players by
running `wake_bots`, looked up by name, in the thread that committed. That step is best
effort: when the broker is away (Redis stopped), or the database went away just after the
commit (PostgreSQL restarting), the failure is logged and the change that asked for it stands.
Nothing then would ever move the bot, so a stalled bot's turn is found again:
- by `wake_stalled_bots`, every BOT_SWEEP_SECONDS (Celery beat): every game whose turn has
  belonged to a computer player for longer than its pause plus BOT_STALL_SECONDS;
- by the table's page: when it connects, and when it has heard nothing for a while during a
  computer player's turn it asks for the table (games/consumers/table.py, "sync"), which wakes
  a stalled bot of that game first (`wake_bots_if_stalled`).
A bot's moves are idempotent, so a second wake-up changes nothing.
"""

import logging
import threading

import kombu.exceptions
import redis.exceptions
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from games.services.after_commit import WAKE_BOTS_TASK
from games.services.bots import next_bot_seat, play_bot_moves
from games.services.tables import games_close_idle
from games.models import Game, Seat

log = logging.getLogger(__name__)

# What publishing a task raises when the broker is away: kombu wraps connection errors in its
# OperationalError once its publish retries are spent; redis-py's and the socket's own errors
# are caught as well in case one gets through unwrapped.
BROKER_ERRORS = (kombu.exceptions.OperationalError, redis.exceptions.RedisError, OSError)


def queue_bot_task(task, *, game_id: int, countdown: float | None = None) -> bool:
    """Queue one of the computer players' tasks, best effort: False (logged) when the broker
    cannot take it. The bots are woken again when a page of their table connects, and their
    moves are idempotent, so a second wake-up changes nothing."""
    try:
        task.apply_async((game_id,), countdown=countdown)
    except BROKER_ERRORS as exc:
        log.warning("game %s: the computer player's turn could not be queued (broker: %r); "
                    "it is woken again when a page of the table connects", game_id, exc)
        return False
    return True


@shared_task(name=WAKE_BOTS_TASK, acks_late=True)
def wake_bots(game_id: int) -> bool:
    """After a table's change committed: let the computer player whose turn it is play. Run
    in the committing thread by games/services/after_commit.py (a task so that it can be
    found by name there without an import cycle)."""
    return schedule_bot_moves(game_id=game_id)


@shared_task(acks_late=True)
def play_bot_move(game_id: int) -> int:
    """One bot decision, then schedule the next one (after its own pause)."""
    played = play_bot_moves(game_id=game_id, one_only=True)
    if played:
        schedule_bot_moves(game_id=game_id)
    return played


def _bot_delay() -> float:
    return float(getattr(settings, "BOT_DELAY_SECONDS", 0.8))


def schedule_bot_moves(*, game_id: int) -> bool:
    """Let the computer player whose turn it is play (now, after its pause, or in a worker).
    False when nothing was scheduled: no bot's turn, or the broker is away (logged)."""
    # Most moves are made at tables without computer players: one cheap query says so.
    if not Seat.objects.filter(game_id=game_id).exclude(bot_level="").exists():
        return False
    game = Game.objects.filter(pk=game_id).first()
    if game is None or next_bot_seat(game) is None:
        return False
    delay = _bot_delay()
    if delay <= 0:
        play_bot_moves(game_id=game_id)  # no pause wanted: play every bot turn now
    elif settings.CELERY_TASK_ALWAYS_EAGER:
        # No broker (make run without REDIS_URL): pause on a timer thread, not in a request.
        timer = threading.Timer(delay, _run_in_thread, args=(game_id,))
        timer.daemon = True
        timer.start()
    else:
        return queue_bot_task(play_bot_move, game_id=game_id, countdown=delay)
    return True


def _stalled_before():
    """A computer player's turn started before this has waited far longer than its pause."""
    waited = _bot_delay() + float(getattr(settings, "BOT_STALL_SECONDS", 5))
    return timezone.now() - timedelta(seconds=waited)


def wake_bots_if_stalled(*, game_id: int) -> bool:
    """Wake the game's computer player if its turn has lasted far longer than its pause (a
    page that heard nothing asks, games/consumers/table.py); False when nothing was due."""
    stalled = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE,
                                  turn_started_at__lt=_stalled_before()).exists()
    return stalled and schedule_bot_moves(game_id=game_id)


STALLED_PER_SWEEP = 200


@shared_task(acks_late=True)
def wake_stalled_bots() -> int:
    """Celery beat (CELERY_BEAT_SCHEDULE "stalled-bots"): wake every computer player whose turn
    has lasted far longer than its pause, within the last day (an older game waits for its
    page: it is woken when a page connects). Returns how many were woken."""
    since = timezone.now() - timedelta(days=1)
    ids = (Game.objects.filter(status=Game.Status.ACTIVE, turn_started_at__lt=_stalled_before(),
                               turn_started_at__gt=since)
           .filter(pk__in=Seat.objects.exclude(bot_level="").values("game_id"))
           .order_by("turn_started_at").values_list("pk", flat=True)[:STALLED_PER_SWEEP])
    woken = 0
    for game_id in list(ids):
        try:
            woken += schedule_bot_moves(game_id=game_id)
        except Exception:  # noqa: BLE001 - one game's trouble must not stop the others
            log.exception("game %s: a stalled computer player could not be woken", game_id)
    return woken


def _run_in_thread(game_id: int) -> None:
    try:
        play_bot_move(game_id)
    finally:
        close_old_connections()


@shared_task(acks_late=True)
def close_idle_games() -> int:
    """Celery beat (CELERY_BEAT_SCHEDULE "idle-games"): stop the games nobody has moved in for
    GAME_IDLE_CLOSE_MINUTES. Idempotent: a second run, or two at once, stops nothing more."""
    return games_close_idle()
