"""The bounded pool of PostgreSQL connections each process borrows from (config/postgresql/pool.py,
docs/deploy.md "Database connections"): never more than its size open, first come first served
with a bounded wait, never a connection whose server hung up, clean when lent again, a leak
of an ended thread taken back, and nothing shared with a forked child."""

from __future__ import annotations

import os
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from django.db import connection, connections

from tests.conftest import need

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 30  # seconds: the longest any step here may take


@pytest.fixture
def make_pool():
    """Pools on the test database, each with an application_name of its own (its sessions are
    counted by it); closed at the end."""
    need(connection.vendor == "postgresql", "the pool is PostgreSQL's (set DATABASE_URL to a PostgreSQL database)")
    from config.postgresql.pool import ConnectionPool

    made = []

    def make(**options):
        named = connection.settings_dict
        name = f"nd-pool-test-{uuid.uuid4().hex[:8]}"
        pool = ConnectionPool(kwargs={"host": named["HOST"] or None, "port": named["PORT"] or None,
                                      "user": named["USER"] or None, "password": named["PASSWORD"] or None,
                                      "dbname": named["NAME"], "application_name": name, "autocommit": True},
                              name=name, **options)
        made.append(pool)
        return pool

    yield make
    for pool in made:
        pool.close()


def sessions_of(pool) -> int:
    """How many PostgreSQL sessions the pool has open, as the server counts them."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [pool.name])
        return cursor.fetchone()[0]


def backend_pid(conn) -> int:
    return conn.execute("SELECT pg_backend_pid()").fetchone()[0]


def test_many_threads_share_a_few_connections_and_all_get_one(make_pool):
    pool = make_pool(max_size=3, min_size=1, timeout=WAIT)
    most = 0
    lock = threading.Lock()
    lent = {"now": 0}

    def work(_n):
        nonlocal most
        conn = pool.getconn()
        try:
            with lock:
                lent["now"] += 1
                most = max(most, lent["now"])
            conn.execute("SELECT pg_sleep(0.02)")
            with lock:
                lent["now"] -= 1
        finally:
            pool.putconn(conn)
        return True

    with ThreadPoolExecutor(max_workers=12) as threads:
        assert all(threads.map(work, range(60), timeout=WAIT))
    assert most == 3  # the twelve threads had no more than three connections at once
    assert sessions_of(pool) == 3
    stats = pool.get_stats()
    assert stats["pool_size"] == 3 and stats["requests_num"] == 60 and stats["requests_waited"] > 0
    assert stats["requests_errors"] == 0 and stats["connections_num"] == 3


def test_waiting_threads_are_served_in_the_order_they_came(make_pool):
    pool = make_pool(max_size=1, timeout=WAIT)
    held = pool.getconn()
    served = []

    def wait_then_note(n):
        conn = pool.getconn()
        served.append(n)
        pool.putconn(conn)

    waiting = []
    for n in range(4):
        thread = threading.Thread(target=wait_then_note, args=(n,))
        thread.start()
        waiting.append(thread)
        deadline = time.monotonic() + WAIT
        while pool.get_stats()["requests_waiting"] < n + 1:  # each in the queue before the next
            assert time.monotonic() < deadline
            time.sleep(0.005)
    pool.putconn(held)
    for thread in waiting:
        thread.join(WAIT)
    assert served == [0, 1, 2, 3]


def test_a_wait_past_the_timeout_is_a_pool_timeout_an_operational_error(make_pool):
    from config.postgresql.pool import PoolTimeout

    pool = make_pool(max_size=1, timeout=0.3)
    held = pool.getconn()
    began = time.monotonic()
    with pytest.raises(PoolTimeout) as waited:
        pool.getconn()
    assert 0.25 <= time.monotonic() - began < 5
    assert isinstance(waited.value, psycopg.OperationalError)  # what Django turns into its own
    assert pool.get_stats()["requests_errors"] == 1 and pool.get_stats()["requests_waiting"] == 0
    pool.putconn(held)
    pool.putconn(pool.getconn(timeout=1))  # once it is back, it is lent again at once


def test_a_connection_whose_server_hung_up_is_never_lent(make_pool):
    pool = make_pool(max_size=2)
    first = pool.getconn()
    ended = backend_pid(first)
    pool.putconn(first)
    with connection.cursor() as cursor:  # what a PostgreSQL restart does to it
        cursor.execute("SELECT pg_terminate_backend(%s, 10000)", [ended])
    again = pool.getconn()
    assert backend_pid(again) != ended  # a fresh one: the dead one was closed, not lent
    pool.putconn(again)
    assert pool.get_stats()["connections_lost"] == 1 and sessions_of(pool) == 1


def test_a_connection_comes_back_with_nothing_left_open(make_pool):
    pool = make_pool(max_size=1)
    conn = pool.getconn()
    conn.autocommit = False
    conn.execute("CREATE TEMPORARY TABLE left_open (n int)")  # a transaction left open
    pool.putconn(conn)
    again = pool.getconn()
    assert again is conn and again.autocommit
    assert again.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    assert again.execute("SELECT to_regclass('pg_temp.left_open')").fetchone()[0] is None  # rolled back
    pool.putconn(again)


def test_a_connection_its_thread_never_gave_back_is_taken_back_when_needed(make_pool):
    pool = make_pool(max_size=1, timeout=WAIT)
    leaked = threading.Thread(target=pool.getconn)  # borrows, and ends without giving it back
    leaked.start()
    leaked.join(WAIT)
    began = time.monotonic()
    conn = pool.getconn()
    assert time.monotonic() - began < 5
    assert pool.get_stats()["connections_reclaimed"] == 1
    pool.putconn(conn)
    assert sessions_of(pool) == 1


def test_a_forked_child_never_uses_its_parents_connections(make_pool):
    """The child (a Celery worker's process, a test's live server) opens its own; closing the
    ones it inherited would end the parent's sessions on their shared sockets."""
    pool = make_pool(max_size=2)
    conn = pool.getconn()
    parent_backend = backend_pid(conn)
    pool.putconn(conn)  # idle in the pool when the child is made
    connections.close_all()
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # the child: Django's connection is its own, its parent's pool unusable
        code = 1
        try:
            os.close(reading)
            connections.close_all()
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                mine = cursor.fetchone()[0]
            connections.close_all()
            try:
                pool.getconn(timeout=1)
            except psycopg.OperationalError:
                refused = True
            else:
                refused = False
            pool.putconn(conn)  # inherited: set aside, not closed
            os.write(writing, f"{mine} {refused}".encode())
            code = 0
        finally:
            os._exit(code)
    os.close(writing)
    with os.fdopen(reading) as said:
        child_backend, refused = said.read().split()
    assert os.waitpid(child, 0)[1] == 0
    assert int(child_backend) != parent_backend and refused == "True"
    again = pool.getconn()
    assert backend_pid(again) == parent_backend  # the parent's session lives on
    pool.putconn(again)
