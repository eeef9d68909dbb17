"""Sending to a channel-layer group from synchronous code (a service after its commit, a
Celery task, the arena's ticker): the one way every live page is told that something changed.

A send is a courtesy, never part of the change: it is sent after the change committed, and
when the channel layer cannot take it (Redis stopped or restarting) the failure is logged and
the caller carries on. Nothing is lost: every live page reads its state again when its socket
(re)connects, and asks for what it lacks when it has heard nothing for a while (docs/live.md).

In a web process the send is handed to the server's event loop and the calling thread goes
on at once. Waiting for it (asgiref's `async_to_sync`) held one of the process's few database
threads for a round trip through a busy loop on every move: a quarter of a move's time in a
600-student arena, and moves queued behind it (devtools/bench/README.md).
"""

import asyncio
import logging
import os
import threading
from collections.abc import Callable

import redis.exceptions
from asgiref.sync import SyncToAsync, async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer
from django.db import close_old_connections

log = logging.getLogger(__name__)

# What a channel layer raises when its transport is away: channels-redis lets redis-py's
# errors through (ConnectionError, TimeoutError), or the socket's own OSError; a full channel
# raises ChannelFull. Anything else is a bug and is raised.
LAYER_ERRORS = (redis.exceptions.RedisError, OSError, TimeoutError, ChannelFull)


def send_to_group(group: str, message: dict, *, on_failure: Callable[[], None] | None = None) -> bool:
    """Send one message to a channel-layer group from synchronous code; False (logged) when
    the channel layer is unavailable: its pages catch up when their socket reconnects. In a
    web process the message is handed to the server's loop (True: on its way; a failure there
    is logged the same way).

    `on_failure` is called, in a thread that may use the database, when the message was not
    sent, wherever that was found out: a sender that remembers what it sent (the projector's
    digest, arena/screen.py) forgets it, so the next change sends again."""
    layer = get_channel_layer()
    if layer is None:
        return False
    loop = _server_loop()
    if loop is not None:
        sending = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        sending.add_done_callback(lambda done: _after_send(group, done, on_failure))
        return True
    try:
        async_to_sync(layer.group_send)(group, message)
    except LAYER_ERRORS as exc:
        _log_not_told(group, exc)
        if on_failure is not None:
            on_failure()
        return False
    return True


_loop: tuple[int, asyncio.AbstractEventLoop] | None = None  # (pid, this web process's loop)


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The running server loop to hand a send to, from a thread that is not its own: the loop
    that called this database thread (asgiref notes it), else the one the last such thread
    named (the arena's ticker thread is no database thread). None outside a server (a
    Celery worker, a management command, a test's own thread): send and wait. A loop noted
    before a fork belongs to the parent process and is never used."""
    global _loop
    pid = os.getpid()
    named = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if named is not None and getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == pid:
        _loop = (pid, named)
        loop = named
    elif _loop is not None and _loop[0] == pid:
        loop = _loop[1]
    else:
        return None
    if not loop.is_running() or loop.is_closed():
        return None
    try:
        if asyncio.get_running_loop() is loop:
            return None  # on the loop's own thread: handing over would not be waited for anyway
    except RuntimeError:
        pass
    return loop


def _after_send(group: str, sending, on_failure: Callable[[], None] | None) -> None:
    """On the server's loop, when a handed-over send finished: log a failure and, off the
    loop (it may touch the database), call `on_failure`."""
    if sending.cancelled():
        return
    exc = sending.exception()
    if exc is None:
        return
    if isinstance(exc, LAYER_ERRORS):
        _log_not_told(group, exc)
    else:
        log.error("%s: a push failed", group, exc_info=exc)
    if on_failure is not None:
        threading.Thread(target=_call_and_close, args=(on_failure,), daemon=True).start()


def _call_and_close(function: Callable[[], None]) -> None:
    try:
        function()
    except Exception:
        log.exception("after a failed push")
    finally:
        close_old_connections()


def _log_not_told(group: str, exc: BaseException) -> None:
    log.warning("%s changed but its pages were not told (channel layer: %r); they catch "
                "up when their socket reconnects", group, exc)
