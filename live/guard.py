"""What every socket of the site shares: a per-socket message budget, re-checking access on a
long-lived socket, and joining a group when the channel layer (Redis) has just come back. The
close codes are in live/close_codes.py.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, Callable

from django.conf import settings

from accounts.membership import membership_version
from accounts.models import User

from .close_codes import CLOSE_TRY_AGAIN

log = logging.getLogger(__name__)


class TokenBucket:
    """At most `burst` messages at once, then `rate` a second. A child double-tapping, or
    tapping through a whole turn, stays far inside it; a script flooding moves does not."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic):
        self.rate = max(float(rate), 0.0)
        self.burst = max(float(burst), 1.0)
        self.tokens = self.burst
        self.clock = clock
        self.at = clock()

    @classmethod
    def for_socket(cls) -> "TokenBucket":
        return cls(rate=getattr(settings, "SOCKET_MAX_MESSAGES_PER_SECOND", 10),
                   burst=getattr(settings, "SOCKET_BURST", 20))

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


@dataclass
class Checked:
    """A socket's last access check: what it allowed (None: nothing), and the class's
    membership version it was made at (accounts/membership.py)."""

    classroom_id: int | None
    version: int | None
    access: Any


def recheck_if_changed(checked: Checked, check: Callable[[], Any], *, force: bool = False) -> Any:
    """The socket's access now. One cache read when the class's membership is unchanged; the
    database (`check()`) when it changed, when its version is unknown, or when `force`d (before
    acting on a move). Synchronous: call it in the consumer's database thread.

    The version is read before the check, so a change committed in between is caught by the
    next comparison at the latest; changes bump the version only once committed.
    """
    version = membership_version(checked.classroom_id)
    if force or version is None or version != checked.version:
        checked.access = check()
        checked.version = version
    return checked.access


def current_user(user_id: int | None) -> User | None:
    """The viewer as the database has them now (the socket's own copy is from its connect:
    it would still say "active, in class 5B" after the teacher removed or moved them)."""
    if user_id is None:
        return None
    return User.objects.filter(pk=user_id).first()


_layer_trouble_logged = False


async def join_group(consumer, group: str, attempts: int = 3) -> bool:
    """Add the consumer to `group`; False (and the socket accepted and closed with 4013, so the
    page reconnects after a pause) when the channel layer cannot be reached.

    After Redis restarts, each connection its client pool held from before fails once
    ("Connection closed by server") and is then dropped and made afresh; a few immediate
    attempts get past those. A real outage is logged once, not once per socket."""
    global _layer_trouble_logged
    error: BaseException | None = None
    for _ in range(max(1, attempts)):
        try:
            await consumer.channel_layer.group_add(group, consumer.channel_name)
        except Exception as exc:  # noqa: BLE001 - any layer's connection error
            error = exc
            continue
        if _layer_trouble_logged:
            log.warning("Channel layer reachable again: sockets connect as usual.")
            _layer_trouble_logged = False
        return True
    if not _layer_trouble_logged:
        _layer_trouble_logged = True
        log.warning("Channel layer unreachable: sockets are closed with %s and their pages reconnect "
                    "(further failures are not logged until it is back).", CLOSE_TRY_AGAIN,
                    exc_info=error)
    await consumer.accept()
    await consumer.close(code=CLOSE_TRY_AGAIN)
    return False


async def leave_group(consumer, group: str | None) -> None:
    """Leave `group` on disconnect; an unreachable layer only means the entry expires there."""
    if not group:
        return
    try:
        await consumer.channel_layer.group_discard(group, consumer.channel_name)
    except Exception:  # noqa: BLE001
        log.info("Could not leave group %s (the channel layer is unreachable)", group)
