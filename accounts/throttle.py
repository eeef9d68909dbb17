"""Sign-in lockouts, kept in the database so every server process agrees.

`record_failure` counts failures of one (scope, key) in a sliding window; reaching the limit
creates a lock that lasts a fixed time. A success clears the count. Scopes: "picture" (a
student's picture sign-in, keyed by student id) and "teacher" (keyed by e-mail).
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .models import SignInFailure, SignInLock


@dataclass(frozen=True)
class Limit:
    max_failures: int
    window: timedelta
    lock: timedelta


def limit_for(scope: str) -> Limit:
    if scope == "teacher":
        return Limit(settings.TEACHER_SIGNIN_MAX_FAILURES,
                     timedelta(seconds=settings.TEACHER_SIGNIN_WINDOW_SECONDS),
                     timedelta(seconds=settings.TEACHER_SIGNIN_LOCK_SECONDS))
    return Limit(settings.PICTURE_SIGNIN_MAX_FAILURES,
                 timedelta(seconds=settings.PICTURE_SIGNIN_WINDOW_SECONDS),
                 timedelta(seconds=settings.PICTURE_SIGNIN_LOCK_SECONDS))


def locked_until(*, scope: str, key: str) -> datetime | None:
    lock = SignInLock.objects.filter(scope=scope, key=key, until__gt=timezone.now()).first()
    return lock.until if lock else None


@transaction.atomic
def record_failure(*, scope: str, key: str) -> datetime | None:
    """Count a failure; return the lock's end time if this failure locked the key."""
    now = timezone.now()
    limit = limit_for(scope)
    SignInFailure.objects.create(scope=scope, key=key, created_at=now)
    SignInFailure.objects.filter(scope=scope, key=key, created_at__lt=now - limit.window).delete()
    if SignInFailure.objects.filter(scope=scope, key=key).count() < limit.max_failures:
        return None
    until = now + limit.lock
    SignInLock.objects.update_or_create(scope=scope, key=key, defaults={"until": until})
    SignInFailure.objects.filter(scope=scope, key=key).delete()
    return until


def clear(*, scope: str, key: str) -> None:
    SignInFailure.objects.filter(scope=scope, key=key).delete()
    SignInLock.objects.filter(scope=scope, key=key).delete()
