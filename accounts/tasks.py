"""Scheduled account jobs (config/settings/base.py, CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from . import throttle


@shared_task
def sign_in_counts_forget() -> int:
    """Sign-in counts nobody needs any more go (a fresh browser's wrong try leaves one)."""
    return throttle.forget_old()
