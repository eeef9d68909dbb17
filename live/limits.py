"""Limits per person across all their sockets and web processes, kept in the cache (Redis in
production, so every web process counts the same moves and sockets):

- Moves: at most USER_MOVES_PER_WINDOW game-socket messages in any USER_MOVE_WINDOW_SECONDS,
  whatever number of sockets they come from. The per-socket bucket (live/guard.py) cannot see a
  script that opens twenty sockets. The count is a sliding window (this window's count plus
  the part of the last one still inside it), so a flood stops at the limit, not at twice it.
  The message that first goes over starts a pause of FLOOD_PAUSE_SECONDS in which every move
  of that person is refused unread, and their refused moves of the last two windows are set
  aside as a flood (the caller's `set_aside`: a game's socket passes
  `games.services.moves.moves_set_aside_flood`): a script's junk is not a child's rule
  errors, so it never becomes skill evidence or a "many rule errors" flag.
- Sockets: at most SOCKETS_PER_GAME sockets of one person on one game at once (a child with
  the game open in a few tabs is far inside it). Each open socket holds a slot, a cache key
  that expires SOCKET_SLOT_SECONDS after the socket last renewed it: a web process killed
  with its sockets open frees their slots by itself.

When the cache cannot be reached (Redis stopped) nothing is refused: the per-socket bucket
still applies, and a child's move is worth more than a count.
"""

from __future__ import annotations

import logging
import time
from typing import Callable

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)

KEY = "play-limits:"  # every key of this module starts with it (the tests give each test its own)


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


SetAside = Callable[..., object]  # (user_id=, since_seconds=): a flood's refused moves set aside


def move_allowed(*, user_id: int, set_aside: SetAside, clock=time.time) -> bool:
    """Count one move message of `user_id`; False when it is over the limit (or they are
    paused after a flood). The first message over the limit starts the pause and sets their
    recent refused moves aside (see the module's doc). Synchronous (the cache and the
    database): call it in a database thread."""
    window = _setting("USER_MOVE_WINDOW_SECONDS", 10)
    limit = _setting("USER_MOVES_PER_WINDOW", 30)
    now = clock()
    number, into = divmod(now, window)
    here, before, paused = (f"{KEY}{user_id}:{int(number)}", f"{KEY}{user_id}:{int(number) - 1}",
                            f"{KEY}{user_id}:paused")
    try:
        count, known = _count_and_read(here, timeout=window * 2 + 1, keys=[before, paused])
    except Exception:  # noqa: BLE001 - the cache is away: count nothing, refuse nothing
        log.info("The move limit could not be counted (cache unreachable)", exc_info=True)
        return True
    if paused in known:
        return False
    if count + known.get(before, 0) * (1 - into / window) <= limit:
        return True
    try:
        if cache.add(paused, 1, timeout=_setting("FLOOD_PAUSE_SECONDS", 30)):
            set_aside(user_id=user_id, since_seconds=2 * window)
            log.warning("user %s sent moves faster than the limit: paused, and their refused moves "
                        "of the last %ss set aside as a flood", user_id, int(2 * window))
    except Exception:  # noqa: BLE001
        log.info("A flood's pause could not be recorded (cache unreachable)", exc_info=True)
    return False


def refused_move_stored(*, user_id: int, set_aside: SetAside) -> None:
    """A refused move of `user_id` was just stored: if they are paused after a flood it is part
    of it (it passed the count in another socket's thread just before the flood was seen), so
    it is set aside too. One cache read, and only for refused moves."""
    try:
        paused = cache.get(f"{KEY}{user_id}:paused")
    except Exception:  # noqa: BLE001
        return
    if paused:
        set_aside(user_id=user_id, since_seconds=2 * _setting("USER_MOVE_WINDOW_SECONDS", 10))


def _count_and_read(key: str, *, timeout: float, keys: list[str]) -> tuple[int, dict]:
    """Add one to `key` and read `keys`: in one round trip on Redis (config/cache.py), every
    move counts; with another cache (tests, `make run`), in three calls."""
    together = getattr(cache, "count_and_get_many", None)
    if together is not None:
        return together(key, timeout=timeout, keys=keys)
    known = cache.get_many(keys)
    return _incr(key, timeout=timeout), known


def _incr(key: str, *, timeout: float) -> int:
    """Add one to `key` (made with the timeout when it is new); atomic in Redis and locmem."""
    try:
        return cache.incr(key)
    except ValueError:  # not there yet
        if cache.add(key, 1, timeout=timeout):
            return 1
        return cache.incr(key)  # another socket made it first


def claim_socket(*, user_id: int, game_id: int, channel: str) -> str | None:
    """A slot for one more socket of `user_id` on `game_id`: its key, or None when all
    SOCKETS_PER_GAME are held. "" when the cache is away (nothing to renew or free)."""
    seconds = _setting("SOCKET_SLOT_SECONDS", 120)
    try:
        for slot in range(int(_setting("SOCKETS_PER_GAME", 4))):
            key = f"{KEY}{user_id}:game:{game_id}:{slot}"
            if cache.add(key, channel, timeout=seconds):
                return key
    except Exception:  # noqa: BLE001
        log.info("Socket slots could not be counted (cache unreachable)", exc_info=True)
        return ""
    return None


def renew_every() -> float:
    """How often an open socket renews its slot: well within the slot's lifetime."""
    return _setting("SOCKET_SLOT_SECONDS", 120) / 3


def renew_socket(key: str) -> None:
    """Keep a slot while its socket is open (call more often than SOCKET_SLOT_SECONDS)."""
    if key:
        try:
            cache.touch(key, timeout=_setting("SOCKET_SLOT_SECONDS", 120))
        except Exception:  # noqa: BLE001
            log.info("A socket slot could not be renewed (cache unreachable)", exc_info=True)


def free_socket(key: str, channel: str) -> None:
    """Give the slot back on disconnect, unless it expired and another socket holds it now."""
    if key:
        try:
            if cache.get(key) == channel:
                cache.delete(key)
        except Exception:  # noqa: BLE001
            log.info("A socket slot could not be freed (cache unreachable); it expires", exc_info=True)
