"""Browser tests: Playwright drives Debian's Chromium against a live Daphne server.

The server runs in a forked process (daphne.testing.DaphneProcess, as Channels' own
ChannelsLiveServerTestCase does) on the test database, so tests use `transactional_db`:
what a test writes is committed and visible to the server.
"""

import os
from functools import partial

import pytest
from channels.testing.live import make_application
from daphne.testing import DaphneProcess
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

from tests.conftest import CHROMIUM, chromium_available, need


def _close_inherited_connections():
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync
    from django.db import connections

    connections.close_all()
    # The fork copies asgiref's executors but not their threads: if an earlier async test in
    # this process started them, every sync_to_async call in the server would wait forever.
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    SyncToAsync.context_to_thread_executor.clear()


@pytest.fixture(scope="session", autouse=True)
def sync_orm_beside_playwright():
    """Playwright's sync API keeps an event loop running in the main thread from the first
    browser test on; the browser tests' own (synchronous) ORM calls, and the test database's
    set-up when only browser tests run, are then made from that thread. Only for them is
    Django's async-safety check switched off (an autouse fixture of this folder, created before
    any other of a browser test's fixtures): browser tests run last, and every other test keeps
    the check, so a consumer touching the ORM from the event loop still fails its test."""
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"


@pytest.fixture(scope="session")
def live_daphne(django_db_setup, django_db_blocker):
    need(chromium_available(), f"Chromium is not installed at {CHROMIUM}")
    with django_db_blocker.unblock():
        from django.db import connections

        for conn in connections.all():
            if conn.vendor == "sqlite" and conn.is_in_memory_db():
                pytest.fail("Browser tests need a file-based test database")
        connections.close_all()
        process = DaphneProcess(
            host="127.0.0.1",
            get_application=partial(make_application, static_wrapper=ASGIStaticFilesHandler),
            setup=_close_inherited_connections,
        )
        process.start()
        if not process.ready.wait(timeout=30):
            process.terminate()
            pytest.fail("The Daphne test server did not start")
        yield f"http://127.0.0.1:{process.port.value}"
        process.terminate()
        process.join(timeout=10)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    }


@pytest.fixture(autouse=True)
def close_pages_left_open(request):
    """Close every browser context a test opened (signed_in_page makes its own) when it ends.
    A page left open keeps its socket, and its table's pushes move keyboard focus on it: the
    next test's page then reads "inactive" in a focus check."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(browser.contexts)  # shared ones (a module's journey) stay open
    yield
    for context in list(browser.contexts):
        if context not in before:
            context.close()
