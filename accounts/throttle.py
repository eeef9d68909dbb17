"""Sign-in limits: slow guessing down without letting a stranger shut a real user out.

Wrong tries are counted in the database, so every web process agrees, and an attempt is
counted *before* its password is checked (`attempt_start` takes and bumps the counts under row
locks in one transaction): 40 guesses sent at once cannot all be checked against a limit that
none of them has counted yet. A right answer then gives its count back (`attempt_succeeded`).

The counts one attempt adds to (each with its own number of free tries, settings "Sign-in
limits"):
- this account from this device (the device cookie, accounts/middleware.py);
- and, only for a device that has never signed in to this account: this account from this
  network address, this account from everywhere, and this network address over every account
  (class codes: this network address, over every code). A device that has signed in to the account before is held back by its own
  wrong tries alone, so wrong tries from other devices or addresses, a prankster's, a botnet's
  or a whole school's (which shares one address), never stop the owner on their own tablet.

Past a count's free tries, each wrong try makes the next one wait: 2 s, 4 s, 8 s ... up to 15
minutes (growing delays, not a hard lock). While a wait runs even a right answer is refused
unchecked, so guessing gains nothing. A count with no wrong try for an hour starts again.

Scopes: "picture" (a student's pictures or text password; account = student id), "password"
(a teacher's sign-in and /admin/'s; account = the e-mail or username, lower case: one count
for both doors), "class_code" (no account). A password reset, new pictures or a teacher's
"let them try again" forgive every count of the account, keeping the devices it knows.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import ngettext

from .addresses import client_address, network_of
from .models import SignInCount

DEVICE_COOKIE = "nd_device"
NETWORK = "network"
CLASS_CODE = "class_code"


@dataclass(frozen=True)
class Source:
    """Where an attempt comes from."""

    address: str  # the client's network address (accounts/addresses.py)
    device: str  # this browser's device cookie


@dataclass(frozen=True)
class Count:
    scope: str
    key: str
    free: int  # wrong tries before the first wait


@dataclass(frozen=True)
class Attempt:
    allowed: bool
    wait_seconds: int  # refused: how long until the next try; allowed: the wait a wrong answer starts
    counts: tuple[Count, ...] = ()  # what it added to: the device's count first


def source_of(request) -> Source:
    device = getattr(request, "device_id", "") or request.COOKIES.get(DEVICE_COOKIE, "")
    return Source(address=network_of(client_address(request)), device=device)


def new_device_id() -> str:
    return secrets.token_hex(12)


def too_many_tries(wait_seconds: int) -> str:
    """The words for someone who must wait, a child included (in the active language)."""
    if wait_seconds < 60:
        return ngettext("Too many wrong tries. Wait %(count)s second and try again.",
                        "Too many wrong tries. Wait %(count)s seconds and try again.",
                        wait_seconds) % {"count": wait_seconds}
    minutes = math.ceil(wait_seconds / 60)
    return ngettext("Too many wrong tries. Wait %(count)s minute and try again.",
                    "Too many wrong tries. Wait %(count)s minutes and try again.",
                    minutes) % {"count": minutes}


# ----- the counts ---------------------------------------------------------------------

def _h(text: str) -> str:
    # Keyed, so a table of counts names no address or account to whoever reads it.
    return salted_hmac("accounts.throttle", text).hexdigest()[:20]


def _free(name: str) -> int:
    return getattr(settings, f"{name}_MAX_FAILURES")


def _per_device_free(scope: str) -> int:
    return _free({"password": "TEACHER_SIGNIN", CLASS_CODE: "CLASS_CODE"}.get(scope, "PICTURE_SIGNIN"))


def _device_count(*, scope: str, account: str, source: Source) -> Count:
    return Count(scope, f"{_h(account)}:device:{_h(source.device)}", _per_device_free(scope))


def _wider_counts(*, scope: str, account: str, source: Source) -> list[Count]:
    """The counts that hold back a device new to the account, in one fixed (lock) order."""
    address = _h(source.address)
    if scope == CLASS_CODE:
        return [Count(scope, f"address:{address}", _free("CLASS_CODE_NETWORK"))]
    counts = [Count(scope, f"{_h(account)}:address:{address}", _per_device_free(scope)),
              Count(scope, f"{_h(account)}:*", _free("ACCOUNT_SIGNIN")),
              Count(NETWORK, address, _free("NETWORK_SIGNIN"))]
    return sorted(counts, key=lambda c: (c.scope, c.key))


def wait_after(failures: int, free: int) -> float:
    """Seconds to wait after `failures` wrong tries when `free` of them cost nothing."""
    if failures < free:
        return 0.0
    doublings = min(failures - free, 30)
    return float(min(settings.SIGNIN_FIRST_WAIT_SECONDS * 2 ** doublings, settings.SIGNIN_LONGEST_WAIT_SECONDS))


def _failures(row: SignInCount | None, now: datetime) -> int:
    if row is None or row.last_failure_at is None:
        return 0
    if now - row.last_failure_at > timedelta(seconds=settings.SIGNIN_FORGET_SECONDS):
        return 0
    return row.failures


def _retry_at(row: SignInCount | None, free: int, now: datetime) -> datetime | None:
    wait = wait_after(_failures(row, now), free)
    return row.last_failure_at + timedelta(seconds=wait) if wait else None


def _seconds_left(until: datetime | None, now: datetime) -> int:
    return max(0, math.ceil((until - now).total_seconds())) if until else 0


def _rows(counts: list[Count], *, lock: bool) -> dict[tuple[str, str], SignInCount]:
    if not counts:
        return {}
    wanted = Q()
    for count in counts:
        wanted |= Q(scope=count.scope, key=count.key)
    rows = SignInCount.objects.filter(wanted).order_by("scope", "key")
    if lock:
        SignInCount.objects.bulk_create([SignInCount(scope=c.scope, key=c.key) for c in counts],
                                        ignore_conflicts=True)
        rows = rows.select_for_update()
    return {(row.scope, row.key): row for row in rows}


def _counts_for(device: Count, device_row: SignInCount | None, *, scope: str, account: str,
                source: Source) -> list[Count]:
    """The device's own count, and for a device the account does not know the wider ones."""
    if device_row is not None and device_row.known_at is not None:
        return [device]
    return [device, *_wider_counts(scope=scope, account=account, source=source)]


# ----- an attempt -----------------------------------------------------------------------

@transaction.atomic
def attempt_start(*, scope: str, account: str, source: Source) -> Attempt:
    """Count one try before it is checked, or refuse it while a wait runs."""
    now = timezone.now()
    device = _device_count(scope=scope, account=account, source=source)
    # The device's row first, then the wider ones in their fixed order: one lock order.
    device_row = _rows([device], lock=True)[(device.scope, device.key)]
    counts = _counts_for(device, device_row, scope=scope, account=account, source=source)
    rows = {(device.scope, device.key): device_row, **_rows(counts[1:], lock=True)}
    waiting = max(_seconds_left(_retry_at(rows[(c.scope, c.key)], c.free, now), now) for c in counts)
    if waiting:
        return Attempt(allowed=False, wait_seconds=waiting)
    wait_if_wrong = 0.0
    for count in counts:
        row = rows[(count.scope, count.key)]
        row.failures = _failures(row, now) + 1
        row.last_failure_at = now
        row.save(update_fields=["failures", "last_failure_at"])
        wait_if_wrong = max(wait_if_wrong, wait_after(row.failures, count.free))
    return Attempt(allowed=True, wait_seconds=math.ceil(wait_if_wrong), counts=tuple(counts))


@transaction.atomic
def attempt_succeeded(attempt: Attempt) -> None:
    """A right answer: the device is now known to the account and its count starts again;
    the wider counts get back the try they were given."""
    device, *wider = attempt.counts
    SignInCount.objects.filter(scope=device.scope, key=device.key).update(
        failures=0, last_failure_at=None, known_at=timezone.now())
    for count in wider:
        SignInCount.objects.filter(scope=count.scope, key=count.key, failures__gt=0).update(
            failures=F("failures") - 1)


def wait_seconds(*, scope: str, account: str, source: Source) -> int:
    """How long this device must wait before its next try (0: it may try now). Only reads."""
    now = timezone.now()
    device = _device_count(scope=scope, account=account, source=source)
    device_row = _rows([device], lock=False).get((device.scope, device.key))
    counts = _counts_for(device, device_row, scope=scope, account=account, source=source)
    rows = _rows(counts, lock=False)
    return max(_seconds_left(_retry_at(rows.get((c.scope, c.key)), c.free, now), now) for c in counts)


def account_wait_until(*, scope: str, account: str) -> datetime | None:
    """The latest time some device must wait until before its next try at this account
    (for a teacher's page)."""
    now = timezone.now()
    prefix = f"{_h(account)}:"
    ends = []
    for row in SignInCount.objects.filter(scope=scope, key__startswith=prefix, failures__gt=0):
        everywhere = row.key == f"{prefix}*"
        until = _retry_at(row, _free("ACCOUNT_SIGNIN") if everywhere else _per_device_free(scope), now)
        if until and until > now:
            ends.append(until)
    return max(ends, default=None)


def account_forgive(*, scope: str, account: str) -> None:
    """Every count of one account starts again, from every device and address (a password
    reset, new pictures, or a teacher letting a student try again at once). The devices the
    account knows stay known."""
    SignInCount.objects.filter(scope=scope, key__startswith=f"{_h(account)}:").update(
        failures=0, last_failure_at=None)


def forget_old() -> int:
    """Delete counts nobody needs any more: no wrong try for SIGNIN_FORGET_SECONDS and not a
    device the account knows. Returns how many went."""
    cutoff = timezone.now() - timedelta(seconds=settings.SIGNIN_FORGET_SECONDS)
    stale = Q(last_failure_at__lt=cutoff) | Q(last_failure_at__isnull=True)
    deleted, _ = SignInCount.objects.filter(stale, known_at__isnull=True).delete()
    return deleted
