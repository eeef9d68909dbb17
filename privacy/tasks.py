"""Celery tasks of privacy/ (Celery autodiscovers this module)."""
from celery import shared_task

from rostering.services import roster_forget_stale_uploads

from .retention import retention_run


@shared_task(acks_late=True)
def retention_sweep() -> dict[str, int]:
    """Daily (CELERY_BEAT_SCHEDULE "archived-class-retention"): warn the teachers of archived
    classes two weeks before their erasure, then erase those whose date has come; forget roster
    uploads that were never applied (docs/privacy.md, "Rosters"). Idempotent."""
    done = retention_run()
    done["roster_uploads_forgotten"] = roster_forget_stale_uploads()
    return done
