"""Celery tasks of the skill reports. Each takes ids, tolerates ids that no longer exist (a
game or job deleted since, or another test's leftovers on a shared broker) and is safe to run
twice: a task lost with a crashed worker is simply run again (acks_late)."""

from celery import shared_task

from . import services


@shared_task(acks_late=True)
def report_game(game_id: int) -> int | None:
    """Queued when a game finishes: its evidence, then its class's roll-ups and flags."""
    report = services.game_finished(game_id=game_id)
    return None if report is None else report.decisions


@shared_task(acks_late=True)
def rollups_all() -> int:
    """The periodic roll-up (CELERY_BEAT_SCHEDULE): every class with evidence."""
    return services.all_rollups_rebuild()


@shared_task(acks_late=True)
def recompute_class(job_id: int) -> str | None:
    """A teacher's "recompute this class"; progress is written to the RecomputeJob."""
    job = services.class_recompute_run(job_id=job_id)
    return None if job is None else job.status
