"""The thread pools the game sockets' database work runs on.

Everything a socket does in the database (connecting, rendering a table, a child's move) runs
in a thread (`database_sync_to_async(thread_sensitive=False)`), by default on the event loop's
executor: six threads per process (Python's default for two cores). In a class arena that
pool also renders the students' arena boxes and connects the tables of every new round, so a
move could wait in line behind them. With MOVE_THREADS > 0 the moves get a pool of their own
of that many threads (each holds one database connection, so a process holds up to six plus
MOVE_THREADS); 0 keeps them on the shared pool.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.conf import settings

_lock = threading.Lock()
_move_pool: ThreadPoolExecutor | None = None


def move_pool() -> ThreadPoolExecutor | None:
    """This process's pool for moves (None: the shared pool), made on first use."""
    global _move_pool
    threads = int(getattr(settings, "MOVE_THREADS", 0) or 0)
    if threads <= 0:
        return None
    with _lock:
        if _move_pool is None:
            _move_pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="moves")
        return _move_pool


def in_db_thread(func):
    """Run database work in the shared pool. Channels' default runs every consumer of a process
    in one thread, so one table's queries (or a move waiting for its broadcast) would stall
    every other table; each consumer still handles its own messages one at a time, in order."""
    return database_sync_to_async(func, thread_sensitive=False)


def in_move_thread(func):
    """Run a move in the moves' pool (see the module's doc), or the shared pool without one."""
    pool = move_pool()
    if pool is None:
        return in_db_thread(func)
    return database_sync_to_async(func, thread_sensitive=False, executor=pool)
