"""When the database cannot be had for a moment (config/unavailable.py, docs/deploy.md
"Database connections"): PostgreSQL restarted and dropped every connection, cannot be reached,
or every connection of the process is lent. A page answers with the try-again page (503), a
socket is closed with 4013 (which the page retries), never a 500 or a traceback; and once
PostgreSQL is back, pages and sockets work at once, never on a dead connection.

In-process, with the site's ASGI application; tests/scaleout/test_database_pool_live.py
drives a real web process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
from django.db import close_old_connections, connection, connections
from django.test import AsyncClient, Client
from django.urls import reverse

from tests.conftest import need
from tests.sockets import connect_as, off_loop

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parent.parent
WAIT = 30  # seconds: the longest any step here may take
TRY_AGAIN_CLOSE = 4013
# What production's settings say of database connections (the rest is the test settings').
PRODUCTION_DATABASE = (
    "import json, django; from django.conf import settings; django.setup();"
    "d = settings.DATABASES['default'];"
    "print(json.dumps({k: d.get(k) for k in ('CONN_MAX_AGE', 'CONN_HEALTH_CHECKS', 'POOL')}))"
)


@pytest.fixture(autouse=True)
def postgresql_only():
    need(connection.vendor == "postgresql", "these tests drop and refuse PostgreSQL connections "
         "(set DATABASE_URL to a PostgreSQL database)")


def _pools_closed() -> None:
    """The pool made anew from the settings, this thread's connection given back first (not
    from an async test's event loop, where Django forbids it: that connection then goes back
    to the old pool, which closes it)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        connections.close_all()
    if hasattr(connection, "close_pool"):
        connection.close_pool()


@contextlib.contextmanager
def database_settings(**changes):
    """This process's database settings changed (None: removed) for the block; the pool is
    made anew before and after."""
    settings_dict = connection.settings_dict
    before = {key: settings_dict.get(key, KeyError) for key in changes}
    _pools_closed()
    for key, value in changes.items():
        if value is None:
            settings_dict.pop(key, None)
        else:
            settings_dict[key] = value
    try:
        yield
    finally:
        for key, value in before.items():
            if value is KeyError:
                settings_dict.pop(key, None)
            else:
                settings_dict[key] = value
        _pools_closed()


@pytest.fixture
def production_connections():
    """The connection settings production runs with (CONN_MAX_AGE, health checks, the pool),
    read from config.settings.production itself, in place for the test."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.production", ALLOWED_HOSTS="testserver",
               SECRET_KEY="k3Yq8-production-grade-secret-value-with-enough-entropy-0123456789")
    out = subprocess.run([sys.executable, "-c", PRODUCTION_DATABASE], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True, timeout=WAIT)
    production = json.loads(out.stdout.strip().splitlines()[-1])
    with database_settings(**production):
        yield production


@pytest.fixture
def this_threads_backend() -> int:
    """The PostgreSQL session of the test's own thread (the one that tidies the database at the
    end of the test): it is spared when the others are dropped."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def drop_every_other_session(*, spare: int) -> int:
    """What a PostgreSQL restart does to the site's connections: the server ends every session
    on the test database but `spare` (and the one that says so), and has ended them when this
    returns (pg_terminate_backend waits up to 10 s for each). Returns how many ended."""
    named = connection.settings_dict
    with psycopg.connect(host=named["HOST"] or None, port=named["PORT"] or None, user=named["USER"] or None,
                         password=named["PASSWORD"] or None, dbname=named["NAME"], autocommit=True,
                         connect_timeout=10) as admin:
        ended = admin.execute("SELECT count(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity "
                              "WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> %s",
                              [spare]).fetchone()[0]
    return ended


def closed_port() -> int:
    """A port on this machine where nothing listens: a connection there is refused, as while
    PostgreSQL restarts."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def every_connection_lent(*, timeout: float):
    """A pool of one connection, lent to a thread that keeps it: anyone else waits `timeout`
    seconds for it, in vain."""
    with database_settings(POOL={"max_size": 1, "min_size": 1, "timeout": timeout}, CONN_MAX_AGE=0):
        lent, release = threading.Event(), threading.Event()

        def keep_the_connection():
            try:
                connection.ensure_connection()
                lent.set()
                release.wait(WAIT)
            finally:
                connection.close()

        keeper = threading.Thread(target=keep_the_connection, daemon=True)
        keeper.start()
        assert lent.wait(WAIT), "the only connection could not be taken"
        try:
            yield
        finally:
            release.set()
            keeper.join(WAIT)


# ---- PostgreSQL dropped every connection (a restart) -----------------------------------------

@pytest.mark.asyncio
async def test_a_socket_opened_after_postgresql_dropped_its_connections_works(
        production_connections, this_threads_backend, teacher, classroom):
    """The handshake reads the session and the user: never on a connection the server has
    ended (it answered 500 with a traceback for ~10 s after a restart)."""
    first = connect_as(teacher, classroom.pk, "reports/class")
    assert (await first.connect(timeout=10))[0]
    assert 'id="dash-skills"' in await first.receive_from(timeout=10)
    await first.disconnect()
    assert off_loop(drop_every_other_session, spare=this_threads_backend) >= 1
    again = connect_as(teacher, classroom.pk, "reports/class")
    connected, code = await again.connect(timeout=10)
    assert connected, f"closed with {code}"
    assert 'id="dash-skills"' in await again.receive_from(timeout=10)
    await again.disconnect()


def test_a_page_after_postgresql_dropped_its_connections_is_served(
        production_connections, this_threads_backend, teacher):
    """The same web thread serves a page before and after the drop: the second is served on a
    fresh connection, not failed on the dead one."""
    browser = Client(raise_request_exception=False)
    browser.force_login(teacher)
    page = reverse("classroom:teacher_home")

    def serve():
        # What a server does around every request, and the test client leaves out (it keeps a
        # thread's connection for the whole test): Django's request_started and
        # request_finished tidy the thread's connection.
        close_old_connections()
        try:
            return browser.get(page)
        finally:
            close_old_connections()

    with ThreadPoolExecutor(max_workers=1) as web_thread:
        try:
            assert web_thread.submit(serve).result(WAIT).status_code == 200
            assert drop_every_other_session(spare=this_threads_backend) >= 1
            after = web_thread.submit(serve).result(WAIT)
            assert after.status_code == 200, after.content.decode()[:300]
            assert "Ms Rivera" in after.content.decode()
        finally:
            web_thread.submit(connections.close_all).result(WAIT)


# ---- PostgreSQL cannot be reached (restarting) -----------------------------------------------

@pytest.mark.asyncio
async def test_a_socket_that_cannot_reach_postgresql_is_closed_with_the_retried_code(teacher, classroom):
    dashboard = connect_as(teacher, classroom.pk, "reports/class")  # signed in while it could
    with database_settings(PORT=closed_port()):
        connected, code = await dashboard.connect(timeout=WAIT)
        assert connected, f"refused at the handshake ({code}) instead of closed with {TRY_AGAIN_CLOSE}"
        closing = await dashboard.receive_output(timeout=WAIT)
    assert closing == {"type": "websocket.close", "code": TRY_AGAIN_CLOSE}
    # Once PostgreSQL is back, the page's retry opens the socket.
    retry = connect_as(teacher, classroom.pk, "reports/class")
    assert (await retry.connect(timeout=10))[0]
    await retry.disconnect()


@pytest.mark.asyncio
async def test_a_page_that_cannot_reach_postgresql_says_to_try_again_in_the_readers_language(teacher):
    browser = AsyncClient(raise_request_exception=False)
    await off_loop_login(browser, teacher)
    with database_settings(PORT=closed_port()):
        page = await browser.get(reverse("classroom:teacher_home"), headers={"accept-language": "es"})
    assert page.status_code == 503 and page["Retry-After"] == "5"
    text = page.content.decode()
    assert '<html lang="es"' in text and "Espera unos segundos" in text
    assert 'http-equiv="refresh"' in text  # a page that was only read is asked for again by itself
    assert "Traceback" not in text and "Server Error" not in text


async def off_loop_login(browser, user) -> None:
    off_loop(browser.force_login, user)


# ---- Every connection of the process is lent (overload) --------------------------------------

@pytest.mark.asyncio
async def test_a_socket_that_waited_in_vain_for_a_connection_is_closed_with_the_retried_code(teacher, classroom):
    dashboard = connect_as(teacher, classroom.pk, "reports/class")
    with every_connection_lent(timeout=0.5):
        connected, code = await dashboard.connect(timeout=WAIT)
        assert connected, f"refused at the handshake ({code})"
        assert await dashboard.receive_output(timeout=WAIT) == {"type": "websocket.close",
                                                                "code": TRY_AGAIN_CLOSE}


@pytest.mark.asyncio
async def test_a_post_that_waited_in_vain_for_a_connection_gets_the_try_again_page(teacher):
    browser = AsyncClient(raise_request_exception=False)
    await off_loop_login(browser, teacher)
    with every_connection_lent(timeout=0.5):
        page = await browser.post("/language/", {"language": "es", "next": "/teach/"},
                                  headers={"accept-language": "ar", "hx-request": "true",
                                           "hx-current-url": "http://testserver/teach/"})
    assert page.status_code == 503 and page["Retry-After"] == "5"
    text = page.content.decode()
    assert '<html lang="ar" dir="rtl"' in text and "انتظر بضع ثوانٍ" in text
    assert 'http-equiv="refresh"' not in text  # a form sent is not sent again by itself
    assert 'href="http://testserver/teach/"' in text  # "Try again" goes back to the page they were on
