"""A bounded pool of PostgreSQL connections, one per process (config/postgresql/base.py).

It offers the part of psycopg_pool's `ConnectionPool` that Django 5.2's PostgreSQL backend uses
(`getconn`, `putconn`, `open`, `close`, `check_connection`), so the backend's own pooling code
runs on it unchanged; psycopg_pool itself is not a dependency of the site.

- **Bounded**: at most `max_size` connections exist at once in the process, lent or idle. A
  thread that asks when all are lent waits, first come first served, for one to come back; after
  `timeout` seconds it gets `PoolTimeout` (an OperationalError: the page then says to try again
  in a moment, config/unavailable.py).
- **Never a dead connection**: an idle connection whose server has hung up (PostgreSQL
  restarted, or ended the session) has something to read on its socket, and is closed instead
  of lent: a poll, no round trip. `check` adds a round trip of its own when asked for
  (Django passes one when CONN_HEALTH_CHECKS is on).
- **Clean on return**: a connection comes back with no transaction open (what was left open is
  rolled back; behind PgBouncer in transaction mode an open transaction would hold a server
  connection), in autocommit; a broken one, or one older than `max_lifetime`, is closed. Idle
  connections above `min_size` are closed after `max_idle` seconds unused.
- **A lent connection whose thread has ended** (its code never gave it back) is closed and its
  place freed when the pool is full, so such a leak cannot shrink the pool for good.
- **Fork-safe**: a forked child (a Celery worker's process, a test's server) never uses nor
  closes a connection it inherited (the socket is shared with the parent, whose session a close
  would end): its pools start empty.

Connections are opened when first needed, never in the background: the pool has no threads.
"""

from __future__ import annotations

import logging
import math
import os
import select
import threading
import time
from collections import deque
from typing import Any, Callable

import psycopg
from psycopg import pq

log = logging.getLogger(__name__)


class PoolTimeout(psycopg.OperationalError):
    """No connection came free in time (psycopg_pool's name for it)."""


class PoolClosed(psycopg.OperationalError):
    """The pool was closed while a connection was asked for."""


# Every pool made in this process, so that a forked child can set them aside (below).
_pools: list["ConnectionPool"] = []
# Pools, and so connections, a forked child inherited: kept referenced and never touched, so
# no close (which would end the parent's session on the shared socket) ever runs on them.
_inherited: list["ConnectionPool"] = []


# This process's id, kept up to date across forks (cheaper to read than os.getpid(), and read
# on every borrow).
process = {"pid": os.getpid()}


def _forget_inherited_pools() -> None:
    process["pid"] = os.getpid()
    _inherited.extend(_pools)
    _pools.clear()


os.register_at_fork(after_in_child=_forget_inherited_pools)


RECLAIM_EVERY = 1.0  # seconds: how often a waiting thread looks for connections of ended threads


class _Waiter:
    """A thread waiting for a connection: it is handed one, or a place to open one in."""

    __slots__ = ("event", "conn", "may_open")

    def __init__(self):
        self.event = threading.Event()
        self.conn: psycopg.Connection | None = None
        self.may_open = False


class ConnectionPool:
    def __init__(self, conninfo: str = "", *, kwargs: dict[str, Any] | None = None,
                 min_size: int = 2, max_size: int | None = None, timeout: float = 10.0,
                 max_idle: float = 300.0, max_lifetime: float = 3600.0,
                 check: Callable[[psycopg.Connection], None] | None = None,
                 configure: Callable[[psycopg.Connection], Any] | None = None,
                 open: bool = False, name: str | None = None,  # noqa: A002 - psycopg_pool's name
                 connection_class: type[psycopg.Connection] = psycopg.Connection):
        self.max_size = int(max_size if max_size is not None else min_size)
        if self.max_size < 1:
            raise ValueError("max_size must be at least 1")
        self.min_size = max(0, min(int(min_size), self.max_size))
        self.timeout = float(timeout)
        self.max_idle = float(max_idle)
        self.max_lifetime = float(max_lifetime)
        self.conninfo = conninfo
        self.kwargs = dict(kwargs or {})
        # libpq waits forever for a server that does not answer: never longer than a request
        # would wait for a connection.
        self.kwargs.setdefault("connect_timeout", max(2, math.ceil(self.timeout)))
        self.check = check
        self.configure = configure
        self.name = name or f"pool-{len(_pools) + 1}"
        self.connection_class = connection_class
        self.database = self.kwargs.get("dbname")  # which database (the backend says, for its check)
        self.pid = os.getpid()
        self.closed = False
        self._lock = threading.Lock()
        # Every connection of the pool is in exactly one of: idle (LIFO, with the time it came
        # back), lent (to a thread), handed (on its way to a waiting thread); and a place being
        # opened counts in `_opening`. Their sum never passes max_size.
        self._idle: list[tuple[psycopg.Connection, float]] = []
        self._lent: dict[int, tuple[psycopg.Connection, threading.Thread]] = {}
        self._handed = 0
        self._opening = 0
        self._waiting: deque[_Waiter] = deque()
        self._stats = {"requests_num": 0, "requests_waited": 0, "requests_wait_ms": 0,
                       "requests_errors": 0, "connections_num": 0, "connections_errors": 0,
                       "connections_lost": 0, "connections_reclaimed": 0}
        _pools.append(self)

    # ---- psycopg_pool's interface, as Django's backend calls it ----------------------------

    def open(self, wait: bool = False, timeout: float = 30.0) -> None:
        """Nothing to do: connections are opened when first asked for."""

    def getconn(self, timeout: float | None = None) -> psycopg.Connection:
        """A connection of this pool for the calling thread, waiting up to `timeout` seconds
        (the pool's own when None) for one to come free, first come first served;
        PoolTimeout after that."""
        if process["pid"] != self.pid:
            raise PoolClosed("this pool belongs to the process this one was forked from")
        started = time.monotonic()
        deadline = started + (self.timeout if timeout is None else float(timeout))
        conn, waiter = self._take()
        if waiter is not None:
            conn = self._wait(waiter, deadline)
            with self._lock:
                self._stats["requests_waited"] += 1
                self._stats["requests_wait_ms"] += int((time.monotonic() - started) * 1000)
        if conn is not None and not self._usable(conn):
            # Its server hung up while it was idle: closed, and this thread opens a new one
            # in its place (keeping its turn).
            self._close_quietly(conn)
            with self._lock:
                self._lent.pop(id(conn), None)
                self._opening += 1
                self._stats["connections_lost"] += 1
            conn = None
        return conn if conn is not None else self._open()

    def putconn(self, conn: psycopg.Connection) -> None:
        """Take back a connection lent by this pool: cleaned, then handed to the first waiting
        thread, or kept idle; closed if it is broken, too old, or the pool is closed."""
        if process["pid"] != self.pid:  # inherited through a fork: never ours to use or close
            _inherited.append(self)
            return
        with self._lock:
            if id(conn) not in self._lent:  # taken back after its thread ended, and closed
                return
        ready = not self.closed and self._reset(conn)  # still counted as lent meanwhile
        with self._lock:
            if self._lent.pop(id(conn), None) is None:
                return
            if ready and not self.closed:
                if self._waiting:
                    waiter = self._waiting.popleft()
                    waiter.conn = conn
                    self._handed += 1
                    waiter.event.set()
                else:
                    self._idle.append((conn, time.monotonic()))
                return
            if not self.closed:
                self._stats["connections_lost"] += 1
            self._place_freed()
        self._close_quietly(conn)

    def close(self, timeout: float = 5.0) -> None:
        """Close the idle connections now, and each lent one when it comes back; a thread
        still waiting gets PoolClosed."""
        with self._lock:
            self.closed = True
            idle, self._idle = self._idle, []
            waiting, self._waiting = list(self._waiting), deque()
            dead = self._reclaim()
        for waiter in waiting:
            waiter.event.set()
        for conn in (*(c for c, _since in idle), *dead):
            self._close_quietly(conn)

    @staticmethod
    def check_connection(conn: psycopg.Connection) -> None:
        """A round trip to the server (psycopg_pool's check): raises if it does not answer."""
        if conn.autocommit:
            conn.execute("")
        else:
            conn.autocommit = True
            try:
                conn.execute("")
            finally:
                conn.autocommit = False

    def get_stats(self) -> dict[str, int]:
        """psycopg_pool's figures that make sense here: the bound, how many connections
        exist, are idle, lent, waited for; and since the start, requests, waits, timeouts."""
        with self._lock:
            return {"pool_min": self.min_size, "pool_max": self.max_size, "pool_size": self._size(),
                    "pool_available": len(self._idle), "pool_lent": len(self._lent),
                    "requests_waiting": len(self._waiting), **self._stats}

    # ---- inside ---------------------------------------------------------------------------

    def _size(self) -> int:
        return len(self._idle) + len(self._lent) + self._handed + self._opening

    def _take(self) -> tuple[psycopg.Connection | None, _Waiter | None]:
        """An idle connection (lent to this thread), or (None, None): a place to open one in
        was reserved, or (None, waiter): this thread's place in the queue."""
        closing: list[psycopg.Connection] = []
        try:
            with self._lock:
                if self.closed:
                    raise PoolClosed(f"the connection pool {self.name} is closed")
                self._stats["requests_num"] += 1
                closing = self._expired_idle()
                if not self._waiting:
                    if self._idle:
                        conn = self._idle.pop()[0]
                        self._lent[id(conn)] = (conn, threading.current_thread())
                        return conn, None
                    if self._size() >= self.max_size:
                        closing += self._reclaim()
                    if self._size() < self.max_size:
                        self._opening += 1
                        return None, None
                waiter = _Waiter()
                self._waiting.append(waiter)
                closing += self._reclaim()
                return None, waiter
        finally:
            for conn in closing:
                self._close_quietly(conn)

    def _wait(self, waiter: _Waiter, deadline: float) -> psycopg.Connection | None:
        """Wait in the queue: the connection handed over (lent to this thread now), or None
        when a place to open one in was given; PoolTimeout at the deadline."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining > 0 and not waiter.event.wait(min(remaining, RECLAIM_EVERY)):
                with self._lock:
                    dead = self._reclaim() if not (waiter.conn or waiter.may_open) else []
                for conn in dead:
                    self._close_quietly(conn)
                continue
            with self._lock:
                if waiter.conn is not None:
                    conn = waiter.conn
                    self._handed -= 1
                    self._lent[id(conn)] = (conn, threading.current_thread())
                    return conn
                if waiter.may_open:
                    return None
                if self.closed:
                    raise PoolClosed(f"the connection pool {self.name} was closed")
                if remaining > 0:  # woken for nothing: wait on
                    continue
                self._waiting.remove(waiter)
                self._stats["requests_errors"] += 1
                size, lent = self._size(), len(self._lent)
            raise PoolTimeout(f"no connection of {self.name} came free in {self.timeout:g} s "
                              f"({size} open, {lent} lent)")

    def _open(self) -> psycopg.Connection:
        """A new connection, lent to this thread (its place was reserved in `_opening`)."""
        conn = None
        try:
            conn = self.connection_class.connect(self.conninfo, **self.kwargs)
            conn._pool = self
            conn._created_at = time.monotonic()
            conn._expire_at = conn._created_at + self.max_lifetime
            if self.configure is not None:
                self.configure(conn)
                if conn.info.transaction_status != pq.TransactionStatus.IDLE:
                    conn.rollback()
        except BaseException:
            with self._lock:
                self._opening -= 1
                self._stats["connections_errors"] += 1
                self._place_freed()
            if conn is not None:
                self._close_quietly(conn)
            raise
        with self._lock:
            self._opening -= 1
            self._stats["connections_num"] += 1
            self._lent[id(conn)] = (conn, threading.current_thread())
        return conn

    @staticmethod
    def _quiet(conn: psycopg.Connection) -> bool:
        """Nothing to read on an idle connection's socket: the server has not hung up. (It
        sends nothing to an idle session of ours but its goodbye: an error, then the end.)"""
        try:
            poller = select.poll()
            poller.register(conn.fileno(), select.POLLIN | select.POLLPRI)
            return not poller.poll(0)
        except (OSError, ValueError, psycopg.Error):
            return False

    def _usable(self, conn: psycopg.Connection) -> bool:
        if conn.closed or conn.info.transaction_status != pq.TransactionStatus.IDLE:
            return False
        if not self._quiet(conn):
            return False
        if self.check is not None:
            try:
                self.check(conn)
            except Exception:  # noqa: BLE001 - any failure means: not this one
                return False
        return True

    def _reset(self, conn: psycopg.Connection) -> bool:
        """Ready for the next thread? Rolls back what was left open. False: close it."""
        if conn.closed:
            return False
        status = conn.info.transaction_status
        if status in (pq.TransactionStatus.INTRANS, pq.TransactionStatus.INERROR):
            try:
                conn.rollback()
            except psycopg.Error:
                return False
        elif status != pq.TransactionStatus.IDLE:  # a query still running, or broken
            return False
        if time.monotonic() >= getattr(conn, "_expire_at", math.inf):
            return False
        try:
            if not conn.autocommit:
                conn.autocommit = True
        except psycopg.Error:
            return False
        return True

    def _place_freed(self) -> None:
        """Under the lock: a place came free (a connection closed, or an opening failed): the
        first waiting thread may open a connection in it."""
        if self._waiting and not self.closed:
            waiter = self._waiting.popleft()
            waiter.may_open = True
            self._opening += 1
            waiter.event.set()

    def _expired_idle(self) -> list[psycopg.Connection]:
        """Under the lock: take out the idle connections unused for max_idle above min_size
        (the oldest are first in the list)."""
        now = time.monotonic()
        expired = []
        while (self._idle and self._size() > self.min_size
               and now - self._idle[0][1] > self.max_idle):
            expired.append(self._idle.pop(0)[0])
        return expired

    def _reclaim(self) -> list[psycopg.Connection]:
        """Under the lock: take back the connections lent to threads that have ended (to be
        closed), and give their places to the waiting threads."""
        dead = [key for key, (_conn, thread) in self._lent.items() if not thread.is_alive()]
        taken = [self._lent.pop(key)[0] for key in dead]
        if taken:
            self._stats["connections_reclaimed"] += len(taken)
            log.warning("%s: %d connection(s) lent to threads that ended without giving them back "
                        "were closed", self.name, len(taken))
            for _ in taken:
                self._place_freed()
        return taken

    @staticmethod
    def _close_quietly(conn: psycopg.Connection) -> None:
        try:
            conn.close()
        except Exception:  # noqa: BLE001 - closing a broken connection may fail: it is gone anyway
            pass
