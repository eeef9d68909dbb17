"""A real web process (Daphne, as production runs it) whose pool of database connections is
smaller than the load (docs/deploy.md, "Database connections").

- Twenty children open their home page at the same moment on a process allowed two
  connections: every page is served (the requests wait their turn for a connection), and
  PostgreSQL never sees more than two sessions from the process.
- When a connection does not come free within the pool's timeout, the child gets the try-again
  page (503, Retry-After, in their language), not a 500, and the log says so in one line, with
  no traceback.

The process runs the test settings on this run's test database, without Redis (the in-memory
channel layer, Celery eager): only its database connections matter here. PostgreSQL only.
"""

from __future__ import annotations

import os
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from tests.conftest import need
from tests.sockets import session_cookie

from .conftest import WebProcess, database_url

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parent.parent.parent
WAIT = 60  # seconds: the longest any request or wait here may take
CHILDREN = 20
HOME = "/play/"


def server_name() -> str:
    """The web process's `application_name` in PostgreSQL: its sessions, counted apart from
    the test's own."""
    return f"nd-pool-live-{os.getpid()}"


def pooled_web_env(*, max_size: int, timeout: float) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in {"REDIS_URL", "CHANNEL_REDIS_URLS", "CACHE_REDIS_URL", "CELERY_BROKER_URL",
                        "CHANNEL_LAYER", "DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL"}}
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": f"{database_url()}?application_name={server_name()}",
        "DB_POOL_MAX_SIZE": str(max_size),
        "DB_POOL_MIN_SIZE": "1",
        "DB_POOL_TIMEOUT": str(timeout),
        "CELERY_BROKER_URL": "memory://",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    })
    return env


@pytest.fixture
def start_web_process(tmp_path):
    need(connection.vendor == "postgresql", "the pool is PostgreSQL's (set DATABASE_URL to a PostgreSQL database)")
    started = []

    def start(**pool) -> WebProcess:
        process = WebProcess(env=pooled_web_env(**pool), log=tmp_path / f"web-{len(started)}.log")
        started.append(process)
        process.wait_ready()
        return process

    yield start
    for process in started:
        process.stop()


def admin_connection() -> psycopg.Connection:
    """A connection of the test's own to the test database, outside Django and its pool."""
    named = connection.settings_dict
    return psycopg.connect(host=named["HOST"] or None, port=named["PORT"] or None, user=named["USER"] or None,
                           password=named["PASSWORD"] or None, dbname=named["NAME"], autocommit=True,
                           connect_timeout=10)


class SessionCounter:
    """Samples, every 20 ms in a thread of its own, how many PostgreSQL sessions the web
    process has open; `most` is the largest count seen."""

    def __init__(self):
        self.most = 0
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        with admin_connection() as admin:
            while not self._stop.is_set():
                count = admin.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                                      [server_name()]).fetchone()[0]
                self.most = max(self.most, count)
                self.samples += 1
                self._stop.wait(0.02)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(WAIT)


def get(process: WebProcess, path: str, *, cookie: str, language: str = "en") -> tuple[int, dict, str]:
    """GET `path` as a browser with `cookie`: (status, headers, body), an error status too."""
    request = urllib.request.Request(f"http://127.0.0.1:{process.port}{path}",
                                     headers={"Cookie": cookie, "Accept-Language": language})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=WAIT) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def test_more_children_at_once_than_connections_are_all_served_on_two_connections(
        start_web_process, student):
    cookie = session_cookie(student).decode()
    process = start_web_process(max_size=2, timeout=10)
    assert get(process, HOME, cookie=cookie)[0] == 200
    with SessionCounter() as sessions, ThreadPoolExecutor(max_workers=CHILDREN) as children:
        began = time.monotonic()
        answers = list(children.map(lambda _n: get(process, HOME, cookie=cookie), range(CHILDREN)))
        took = time.monotonic() - began
    statuses = sorted(status for status, _headers, _body in answers)
    assert statuses == [200] * CHILDREN, statuses
    assert all("My games" in body for _status, _headers, body in answers)
    assert sessions.samples > 0 and 1 <= sessions.most <= 2, sessions.most
    print(f"\n{CHILDREN} home pages at once on a pool of 2: all 200 in {took:.2f} s; "
          f"the process's PostgreSQL sessions: at most {sessions.most} ({sessions.samples} samples)")
    log = process.log.read_text(errors="replace")
    assert "Traceback" not in log and "too many clients" not in log, process.log_tail()


def test_a_child_whose_wait_for_a_connection_times_out_gets_the_try_again_page(start_web_process, student):
    cookie = session_cookie(student).decode()
    process = start_web_process(max_size=1, timeout=1)
    assert get(process, HOME, cookie=cookie)[0] == 200
    with admin_connection() as admin, ThreadPoolExecutor(max_workers=1) as first_child:
        # The first child's page waits for the sessions table (locked here), holding the
        # process's only connection meanwhile.
        admin.autocommit = False
        admin.execute("LOCK TABLE django_session IN ACCESS EXCLUSIVE MODE")
        first = first_child.submit(get, process, HOME, cookie=cookie)
        deadline = time.monotonic() + WAIT
        while not admin.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s "
                                "AND wait_event_type = 'Lock'", [server_name()]).fetchone()[0]:
            assert time.monotonic() < deadline, "the first page never reached the lock"
            time.sleep(0.05)
        status, headers, body = get(process, HOME, cookie=cookie, language="es")
        admin.rollback()  # the lock goes: the first child's page is served after its wait
        assert first.result(WAIT)[0] == 200
    assert status == 503, body[:500]
    assert headers["Retry-After"] == "5"
    assert '<html lang="es"' in body and "Espera unos segundos" in body and "Intentar otra vez" in body
    log = process.log.read_text(errors="replace")
    assert "Traceback" not in log, process.log_tail()
    assert "Service Unavailable: /play/" in log and "the database could not be had" in log, process.log_tail()
