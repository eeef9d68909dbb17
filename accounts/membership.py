"""A per-class membership version, so open sockets notice cheaply that access may have changed.

Who may see a class's tables and dashboard is decided by the selectors (accounts/permissions.py,
games/selectors, reports) and checked when a socket connects. A socket can stay open for an
hour, though, and meanwhile a student may be removed or moved, a co-teacher taken off the
class, the class archived or deleted. Every such change calls `membership_changed(classroom_id)`
(after its transaction commits); every open socket compares `membership_version(classroom_id)`
with the version it last checked access at, and re-checks access in the database only when the
two differ. The comparison is one cache read (Redis in production, local memory otherwise),
never a query.

The version is an opaque number. A missing key (never set, evicted, the cache restarted) must
force a re-check, never skip one: reading a missing version stores a fresh random one, so it
differs from whatever a socket recorded before; a change on a missing key does the same. Random
starting points also rule out a key evicted and bumped back up to a value a socket recorded.
When the cache cannot be reached the version is None, which never equals a recorded version,
so sockets re-check every time until it is back.
"""

from __future__ import annotations

import logging
import secrets

from django.core.cache import cache
from django.db import transaction

log = logging.getLogger(__name__)

TIMEOUT = 7 * 24 * 3600  # long enough to outlive any socket; a lost key only costs a re-check


def _key(classroom_id: int) -> str:
    return f"membership:{int(classroom_id)}"


def _fresh() -> int:
    return secrets.randbits(52) + 1


def membership_version(classroom_id: int | None) -> int | None:
    """The class's current membership version (None: unknown, so re-check)."""
    if classroom_id is None:
        return None
    key = _key(classroom_id)
    try:
        version = cache.get(key)
        if version is None:
            cache.add(key, _fresh(), TIMEOUT)
            version = cache.get(key)
    except Exception:  # noqa: BLE001 - an unreachable cache means "re-check", not an error page
        log.warning("membership version of class %s could not be read", classroom_id, exc_info=True)
        return None
    return version


def _bump(classroom_id: int) -> None:
    key = _key(classroom_id)
    try:
        try:
            cache.incr(key)
        except ValueError:  # missing or evicted: a fresh random version differs from any recorded
            if not cache.add(key, _fresh(), TIMEOUT):
                cache.incr(key)  # somebody else just added it: still move it on
    except Exception:  # noqa: BLE001 - sockets still re-check before every move
        log.warning("membership version of class %s could not be changed", classroom_id, exc_info=True)


def membership_changed(*classroom_ids: int | None) -> None:
    """Who belongs to these classes changed: once the current transaction commits (at once
    outside one), every open socket of theirs re-checks its access before its next push."""
    ids = {int(pk) for pk in classroom_ids if pk is not None}
    if not ids:
        return
    transaction.on_commit(lambda: [_bump(pk) for pk in sorted(ids)], robust=True)
