"""Dispatching a socket's messages without Channels' per-message connection sweep.

Channels (4.2 and later) runs `close_old_connections` before handing any message to a
consumer (a frame from the browser, a push from the channel layer), through `sync_to_async`
with its default thread_sensitive=True: every message of every socket of the process waits for
the same single thread, to tidy that thread's own database connection, which none of our
consumers uses. Each consumer does its database work through `database_sync_to_async`, which
already closes stale connections in the thread doing the work, before and after. So the sweep
is skipped: under a busy class it was a queue every move and every push waited in (and about a
tenth of a web process's CPU, measured with py-spy: devtools/bench/README.md, "Where a move's CPU goes").
"""

from __future__ import annotations

from channels.consumer import get_handler_name


class DispatchWithoutSweep:
    """A mixin for Channels consumers (listed before the Channels base class)."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
