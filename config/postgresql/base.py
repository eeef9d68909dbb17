"""Django's PostgreSQL backend, with two changes (docs/deploy.md, "Database connections"):

- `DATABASES[...]["POOL"]` (a dict of `pool.ConnectionPool` options: min_size, max_size,
  timeout, ...) puts the process's connections in one bounded pool. Django's own pooling code
  runs unchanged on it: a thread's connection is borrowed when it first queries and given back
  when Django closes it (the end of a request, of each `database_sync_to_async` call, of each
  Celery task), so CONN_MAX_AGE must be 0, as Django requires of its pool. The options are not
  under OPTIONS["pool"], Django's key for psycopg_pool: Celery's worker closes a pool named
  there after every task (its guard against a pool shared by forked processes), which would
  open a new connection per task; this pool is fork-safe itself.
- A query or connection that fails because the database could not be had (no connection came
  free in time, the server cannot be reached, or it hung up) is noted for the request
  (`config.unavailable.note_database_away`): the page then says to try again in a moment, with a
  503, instead of a 500.
"""

from __future__ import annotations

import threading

import psycopg
from django.core.exceptions import ImproperlyConfigured
from django.db.backends.postgresql import base as postgresql
from django.db.utils import DatabaseErrorWrapper
from django.utils.functional import cached_property

from config.postgresql.pool import ConnectionPool, PoolTimeout, process
from config.unavailable import note_database_away

_pools: dict[str, ConnectionPool] = {}  # per alias, in this process
_pools_lock = threading.Lock()


class AwayNotingErrorWrapper(DatabaseErrorWrapper):
    """Django's translation of psycopg's errors into its own, noting first the ones that mean
    the database could not be had."""

    def __exit__(self, exc_type, exc_value, traceback):
        if exc_type is not None and issubclass(exc_type, (psycopg.OperationalError, psycopg.InterfaceError)):
            conn = self.wrapper.connection
            if isinstance(exc_value, PoolTimeout) or conn is None or conn.closed:
                note_database_away(exc_value)
        return super().__exit__(exc_type, exc_value, traceback)


class DatabaseWrapper(postgresql.DatabaseWrapper):
    @cached_property
    def wrap_database_errors(self):
        return AwayNotingErrorWrapper(self)

    @property
    def pool(self) -> ConnectionPool | None:
        options = self.settings_dict.get("POOL")
        if not options or self.alias == postgresql.NO_DB_ALIAS:
            return None
        pool = _pools.get(self.alias)
        if pool is not None and self._pool_is_current(pool):
            return pool
        with _pools_lock:
            pool = _pools.get(self.alias)
            if pool is not None and self._pool_is_current(pool):
                return pool
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
            if pool is not None and pool.pid == process["pid"]:
                pool.close()
            connect_kwargs = self.get_connection_params()
            connect_kwargs["autocommit"] = True  # Django sets what it needs on each borrow
            enable_checks = self.settings_dict["CONN_HEALTH_CHECKS"]
            pool = ConnectionPool(kwargs=connect_kwargs, configure=self._configure_connection,
                                  check=ConnectionPool.check_connection if enable_checks else None,
                                  name=f"{self.alias}:{self.settings_dict['NAME']}", **options)
            pool.database = self.settings_dict["NAME"]
            _pools[self.alias] = pool
            return pool

    def _pool_is_current(self, pool: ConnectionPool) -> bool:
        """A pool is for one process and one database: a forked child, or the test runner
        switching to the test database, gets a new one."""
        return not pool.closed and pool.pid == process["pid"] and pool.database == self.settings_dict["NAME"]

    def close_pool(self):
        with _pools_lock:
            pool = _pools.pop(self.alias, None)
        if pool is not None and pool.pid == process["pid"]:
            pool.close()

