"""Celery tasks of privacy/ (Celery autodiscovers this module)."""
from celery import shared_task

from .retention import retention_run


@shared_task(acks_late=True)
def retention_sweep() -> dict[str, int]:
    """Daily (CELERY_BEAT_SCHEDULE "archived-class-retention"): warn the teachers of archived
    classes two weeks before their erasure, then erase those whose date has come. Idempotent."""
    return retention_run()
