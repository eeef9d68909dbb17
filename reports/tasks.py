"""Celery tasks of the skill reports: every one of them is reachable from this module, the one
Celery autodiscovers. Each takes ids, tolerates ids that no longer exist (a game or job deleted
since, or another test's leftovers on a shared broker) and is safe to run twice: a task lost
with a crashed worker is simply run again (acks_late).

Tasks that a service queues are defined beside that service, which keeps the imports one way
(tasks -> services): `recompute_class` in services.py, `export_run` in exports/jobs.py.
`report_game` is queued by receivers.py when games says a game finished.
"""

from celery import shared_task

from . import services
from .exports import jobs
from .exports.jobs import export_run
from .services import recompute_class

__all__ = ["export_run", "exports_expire", "recompute_class", "report_game", "report_jobs_sweep",
           "rollups_all"]


@shared_task(acks_late=True)
def report_game(game_id: int) -> int | None:
    """Queued when a game finishes: its evidence, then its class's roll-ups and flags."""
    report = services.game_finished(game_id=game_id)
    return None if report is None else report.decisions


@shared_task(acks_late=True)
def rollups_all() -> int:
    """The periodic roll-up (CELERY_BEAT_SCHEDULE): every class with evidence."""
    return services.all_rollups_rebuild()


# Registered under the name it had in the former reports/export_tasks.py, which the beat
# schedule (config/settings/base.py) names.
@shared_task(name="reports.export_tasks.exports_expire", acks_late=True)
def exports_expire() -> int:
    """Daily (CELERY_BEAT_SCHEDULE): old export files are deleted."""
    return jobs.exports_expire()


@shared_task(acks_late=True)
def report_jobs_sweep() -> dict[str, int]:
    """Every minute (CELERY_BEAT_SCHEDULE): jobs whose worker died are marked failed, and jobs
    Redis could not take (it was down) or no worker started are sent again
    (`services.jobs_sweep`; docs/reports.md, "When a worker dies or Redis stops")."""
    return services.jobs_sweep()
