"""Celery tasks for play. Bots pause briefly (settings.BOT_DELAY_SECONDS, 0 in tests) so a
child can follow what happened."""

import threading

from celery import shared_task
from django.conf import settings
from django.db import close_old_connections

from .bot_turns import next_bot_seat, play_bot_moves
from .models import Game, Seat


@shared_task(acks_late=True)
def play_bot_move(game_id: int) -> int:
    """One bot decision, then schedule the next one (after its own pause)."""
    played = play_bot_moves(game_id=game_id, one_only=True)
    if played:
        schedule_bot_moves(game_id=game_id)
    return played


def _bot_delay() -> float:
    return float(getattr(settings, "BOT_DELAY_SECONDS", 0.8))


def schedule_bot_moves(*, game_id: int) -> None:
    # Most moves are made at tables without computer players: one cheap query says so.
    if not Seat.objects.filter(game_id=game_id).exclude(bot_level="").exists():
        return
    game = Game.objects.filter(pk=game_id).first()
    if game is None or next_bot_seat(game) is None:
        return
    delay = _bot_delay()
    if delay <= 0:
        play_bot_moves(game_id=game_id)  # no pause wanted: play every bot turn now
    elif settings.CELERY_TASK_ALWAYS_EAGER:
        # No broker (make run without REDIS_URL): pause on a timer thread, not in a request.
        timer = threading.Timer(delay, _run_in_thread, args=(game_id,))
        timer.daemon = True
        timer.start()
    else:
        play_bot_move.apply_async((game_id,), countdown=delay)


def _run_in_thread(game_id: int) -> None:
    try:
        play_bot_move(game_id)
    finally:
        close_old_connections()
