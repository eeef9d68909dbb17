"""Celery task for large exports (imported by ReportsConfig.ready() so workers register it).
The work is in exports/jobs.py, imported when the task runs (it pulls in reportlab and
openpyxl, which web processes need only when exporting)."""

from celery import shared_task


@shared_task(acks_late=True)
def export_run(job_id: int) -> None:
    from .exports.jobs import export_run_job

    export_run_job(job_id=job_id)


@shared_task(acks_late=True)
def exports_expire() -> int:
    """Daily (CELERY_BEAT_SCHEDULE): old export files are deleted."""
    from .exports.jobs import exports_expire as expire

    return expire()
