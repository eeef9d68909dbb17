"""Sign-in lockouts, kept in the database so every server process agrees.

A lockout must stop guessing without becoming a weapon: before, five wrong taps from anyone
locked a classmate out. So failures are counted per *account and source* together (the
source is the network address plus this browser's device cookie, see `source_of`): wrong
tries from a classmate's tablet lock that tablet out of that account, not the account's
owner on their own tablet. Two wider counts stop a guesser who clears cookies or spreads out:
- per account, from every source together (a higher limit: the account itself rests);
- per network address, over every account and class code (a much higher limit, since a
  whole school may share one address).

Scopes: "picture" (a student's picture or text password, account = student id), "teacher"
(account = e-mail), "class_code" (guessing a class's join code, no account). A success clears
that account-and-source count; a password reset or a teacher's "let them try again" clears
every lock of the account.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .models import SignInFailure, SignInLock

DEVICE_COOKIE = "nd_device"
NETWORK = "network"


@dataclass(frozen=True)
class Limit:
    max_failures: int
    window: timedelta
    lock: timedelta


def _limit(prefix: str) -> Limit:
    return Limit(getattr(settings, f"{prefix}_MAX_FAILURES"),
                 timedelta(seconds=getattr(settings, f"{prefix}_WINDOW_SECONDS")),
                 timedelta(seconds=getattr(settings, f"{prefix}_LOCK_SECONDS")))


def limit_for(scope: str) -> Limit:
    """The limit for one account from one source."""
    return _limit({"teacher": "TEACHER_SIGNIN", "class_code": "CLASS_CODE"}.get(scope, "PICTURE_SIGNIN"))


def account_limit() -> Limit:
    return _limit("ACCOUNT_SIGNIN")


def network_limit() -> Limit:
    return _limit("NETWORK_SIGNIN")


def _h(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _keys(*, scope: str, account: str, source: str) -> list[tuple[str, str, Limit]]:
    """(scope, key, limit) of every count one failure adds to."""
    ip = source.split("/", 1)[0]
    keys = [(scope, f"{_h(account)}:{_h(source)}", limit_for(scope)),
            (NETWORK, _h(ip), network_limit())]
    if account:
        keys.append((scope, f"{_h(account)}:*", account_limit()))
    return keys


def source_of(request) -> str:
    """Where an attempt comes from: the network address and this browser's device id (a
    random cookie set by DeviceCookieMiddleware; a request without one counts as its own
    device, so only the network count holds it back)."""
    ip = request.META.get("REMOTE_ADDR") or "unknown"
    device = getattr(request, "device_id", "") or request.COOKIES.get(DEVICE_COOKIE, "")
    return f"{ip}/{device}"


def new_device_id() -> str:
    return secrets.token_hex(12)


def locked_until(*, scope: str, account: str, source: str) -> datetime | None:
    keys = _keys(scope=scope, account=account, source=source)
    now = timezone.now()
    locks = SignInLock.objects.filter(until__gt=now, scope__in={s for s, _, _ in keys},
                                      key__in=[k for _, k, _ in keys])
    wanted = {(s, k) for s, k, _ in keys}
    ends = [lock.until for lock in locks if (lock.scope, lock.key) in wanted]
    return max(ends) if ends else None


@transaction.atomic
def record_failure(*, scope: str, account: str, source: str) -> datetime | None:
    """Count a failure; return the end of the longest lock it caused, if any."""
    now = timezone.now()
    until = None
    for key_scope, key, limit in _keys(scope=scope, account=account, source=source):
        SignInFailure.objects.create(scope=key_scope, key=key, created_at=now)
        SignInFailure.objects.filter(scope=key_scope, key=key, created_at__lt=now - limit.window).delete()
        if SignInFailure.objects.filter(scope=key_scope, key=key).count() < limit.max_failures:
            continue
        end = now + limit.lock
        SignInLock.objects.update_or_create(scope=key_scope, key=key, defaults={"until": end})
        SignInFailure.objects.filter(scope=key_scope, key=key).delete()
        until = max(until, end) if until else end
    return until


def clear(*, scope: str, account: str, source: str) -> None:
    """A success from this source: its own count starts again (the wider counts stay)."""
    key = f"{_h(account)}:{_h(source)}"
    SignInFailure.objects.filter(scope=scope, key=key).delete()
    SignInLock.objects.filter(scope=scope, key=key).delete()


def account_locked_until(*, scope: str, account: str) -> datetime | None:
    """The latest lock on this account from any source (for a teacher's page)."""
    locks = SignInLock.objects.filter(scope=scope, key__startswith=f"{_h(account)}:",
                                      until__gt=timezone.now()).values_list("until", flat=True)
    return max(locks, default=None)


def clear_account(*, scope: str, account: str) -> None:
    """Every count and lock of one account, from every source (a password reset, or a
    teacher letting a student try again at once)."""
    prefix = f"{_h(account)}:"
    SignInFailure.objects.filter(scope=scope, key__startswith=prefix).delete()
    SignInLock.objects.filter(scope=scope, key__startswith=prefix).delete()
