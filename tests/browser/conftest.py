"""Browser tests: Playwright drives Debian's Chromium against a live Daphne server.

The server runs in a forked process (daphne.testing.DaphneProcess, as Channels' own
ChannelsLiveServerTestCase does) on the test database, so tests use `transactional_db`:
what a test writes is committed and visible to the server. Each pytest-xdist worker has its
own server (on a port the system picks), test database and Redis prefix.

Every page any browser test opens is watched for Content-Security-Policy violations (an inline
script or style the policy blocked, a file from another origin): the test fails when it ends,
naming each page and directive (`csp_violations_fail_the_test`). Test code obeys the policy
too (docs/csp.md): a script goes in by `page.evaluate`, and `wait_for_function` is given a
function, not an expression.

A test ends with nothing of its own still in flight: it waits for the page its last click
leads to, and at its end its pages are closed and the server has finished every request and
socket handler they started, before the database is flushed (a query of the server's running
into the flush deadlocked with it, and the next test failed on leftover rows).
"""

import asyncio
import logging
import os
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import SyncToAsync
from channels.testing.live import make_application
from daphne.testing import DaphneProcess
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.exceptions import SynchronousOnlyOperation
from django.db import connections
from playwright.sync_api import Error as PlaywrightError

from arena import ticker as arena_ticker
from tests.conftest import CHROMIUM, chromium_available, need

ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"
QUIET_PATH = "/__tests__/quiet/"
ASYNC_SAFETY_PATH = "/__tests__/async-safety/"
QUIET_SECONDS = 30
LEAVE_MS = 10_000


class ServerUnderTest:
    """The live server's application, plus two answers only the fixtures ask for:

    - QUIET_PATH answers once no request is being served and no socket is open (every
      socket's disconnect has been handled, and a move its page sent is finished first);
      with `?shared=1` (a module keeps pages open across its tests) once no request is being
      served and no socket is handling a message;
    - ASYNC_SAFETY_PATH says whether Django's async-safety check is on in the server: "on"
      when a synchronous ORM call from its event loop is refused."""

    def __init__(self, application):
        self.application = application
        self.open: dict[int, str] = {}  # requests being served and sockets open
        self.busy: dict[int, str] = {}  # of those, the ones working now
        self.changed: asyncio.Event | None = None

    async def __call__(self, scope, receive, send):
        path = scope.get("path", "")
        if scope["type"] == "http" and path == QUIET_PATH:
            shared = scope.get("query_string", b"") == b"shared=1"
            return await self._answer(send, await self._quiet(self.busy if shared else self.open))
        if scope["type"] == "http" and path == ASYNC_SAFETY_PATH:
            return await self._answer(send, self._async_safety())
        if scope["type"] not in ("http", "websocket"):
            return await self.application(scope, receive, send)
        call, what = object(), f"{scope['type']} {path}"
        self.open[id(call)] = what
        self._mark(call, what)

        async def receive_marked():
            # A socket asking for its next message has finished handling the last one
            # (connect, a move, disconnect); a request is busy until its response is sent.
            if scope["type"] == "websocket":
                self._mark(call, None)
            message = await receive()
            self._mark(call, what)
            return message

        try:
            return await self.application(scope, receive_marked, send)
        finally:
            self.open.pop(id(call), None)
            self._mark(call, None)

    def _mark(self, call, what: str | None) -> None:
        if what is None:
            self.busy.pop(id(call), None)
        else:
            self.busy[id(call)] = what
        if self.changed is not None:
            self.changed.set()

    async def _quiet(self, calls: dict[int, str]) -> str:
        self.changed = self.changed or asyncio.Event()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + QUIET_SECONDS
        while calls and loop.time() < deadline:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), timeout=deadline - loop.time())
            except asyncio.TimeoutError:
                break
        return "quiet" if not calls else "still busy: " + ", ".join(sorted(calls.values()))

    @staticmethod
    def _async_safety() -> str:
        try:
            get_user_model().objects.exists()
        except SynchronousOnlyOperation:
            return "on"
        return "off"

    @staticmethod
    async def _answer(send, text: str) -> None:
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
        await send({"type": "http.response.body", "body": text.encode()})


def _server_application():
    return ServerUnderTest(make_application(static_wrapper=ASGIStaticFilesHandler))


def _server_process_setup():
    """In the forked server, before it serves."""
    connections.close_all()
    # The fork copies asgiref's executors but not their threads: if an earlier async test in
    # this process started them, every sync_to_async call in the server would wait forever.
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    SyncToAsync.context_to_thread_executor.clear()
    # The server serves requests from its event loop as production does: Django's async-safety
    # check stays on there (the test process may have it off, see below).
    os.environ.pop(ASYNC_UNSAFE, None)
    # The class arena's pairing rounds run in the server as in production (arena/ticker.py;
    # off in the test settings, where tests run rounds themselves), a little faster so that
    # a browser test does not wait for them.
    settings.ARENA_TICKER = True
    settings.ARENA_ROUND_SECONDS = 1.0
    settings.ARENA_BOT_AFTER_SECONDS = 4.0
    arena_ticker.start()


def server_says(base: str, path: str) -> str:
    """GET one of ServerUnderTest's own answers (straight to the server: no proxy)."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(base + path, timeout=QUIET_SECONDS + 10) as response:
        return response.read().decode()


@pytest.fixture(scope="session", autouse=True)
def sync_orm_beside_playwright():
    """Playwright's sync API keeps an event loop running in the main thread from the first
    browser test on; the browser tests' own (synchronous) ORM calls, and the test database's
    set-up when only browser tests run, are then made from that thread. Only for them is
    Django's async-safety check switched off (an autouse fixture of this folder, created before
    any other of a browser test's fixtures): browser tests run last, and every other test keeps
    the check, so a consumer touching the ORM from the event loop still fails its test. The
    live server, forked from this process, switches it back on for itself
    (`_server_process_setup`), and the variable is put back as it was when the session ends."""
    before = os.environ.get(ASYNC_UNSAFE)
    os.environ[ASYNC_UNSAFE] = "true"
    yield
    if before is None:
        os.environ.pop(ASYNC_UNSAFE, None)
    else:
        os.environ[ASYNC_UNSAFE] = before


def off_the_loop(function, /, *args, **kwargs):
    """Call a service from a browser test as a request would call it: in a thread of its own.
    Playwright's event loop runs in the test's thread, and a service's push after commit
    (async_to_sync) cannot run there: it raised, Django's robust on-commit call logged and
    swallowed it, and the pages open at the time were never told (the projector missed a
    join, the dashboard a finished game). `on_commit_errors_fail_the_test` fails a test that
    does so."""
    def call():
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()  # this thread's own connection

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


class _Heard(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(record.getMessage())


# Where Django logs, and goes on from, a push after commit or a signal's receiver that raised.
SWALLOWED = {"django.db.backends.base": "in on_commit()", "django.dispatch": "in Signal.send_robust()"}


@pytest.fixture(autouse=True)
def on_commit_errors_fail_the_test():
    """A push after commit (or a signal's receiver: the teacher's dashboard hears of a finished
    game by one) that raised in the test's own process fails the test, naming it: a page open
    then was not told of the change (`off_the_loop`)."""
    heard = _Heard()
    for name in SWALLOWED:
        logging.getLogger(name).addHandler(heard)
    yield
    for name in SWALLOWED:
        logging.getLogger(name).removeHandler(heard)
    failed = [line for line in heard.lines if any(words in line for words in SWALLOWED.values())]
    if failed:
        pytest.fail("a push failed in the test's process (call the service with off_the_loop):\n"
                    + "\n".join(failed), pytrace=False)


@pytest.fixture(scope="session")
def live_daphne(django_db_setup, django_db_blocker):
    need(chromium_available(), f"Chromium is not installed at {CHROMIUM}")
    with django_db_blocker.unblock():
        for conn in connections.all():
            if conn.vendor == "sqlite" and conn.is_in_memory_db():
                pytest.fail("Browser tests need a file-based test database")
        connections.close_all()
        process = DaphneProcess(host="127.0.0.1", get_application=_server_application,
                                setup=_server_process_setup)  # port 0: the system picks a free one
        process.start()
        if not process.ready.wait(timeout=30):
            process.terminate()
            pytest.fail("The Daphne test server did not start")
        yield f"http://127.0.0.1:{process.port.value}"
        process.terminate()
        process.join(timeout=10)


# Run in every page before its own scripts: each violation the page's policy reports is written
# to the console (which reaches the test whatever page comes next) and kept on the page.
CSP_LISTENER = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  const where = e.sourceFile ? ` from ${e.sourceFile}:${e.lineNumber}` : '';
  const line = `Content Security Policy violation on ${e.documentURI}: ${e.effectiveDirective} blocked ` +
               `${e.blockedURI || 'inline'}${where}${e.sample ? ` ("${e.sample}")` : ''}`;
  window.__cspViolations.push(line);
  console.error(line);
});
"""
CSP_WORDS = "Content Security Policy"
csp_seen: list[str] = []  # every violation this worker's browser tests met, in order


def watch_for_csp_violations(context) -> None:
    """Record `context`'s CSP violations in `csp_seen`: the listener's lines, and Chromium's
    own console error for each blocked thing (which names the directive as the policy says it)."""
    context.add_init_script(CSP_LISTENER)

    def heard(message):
        if CSP_WORDS in message.text:
            page = message.page.url if message.page else message.location.get("url", "?")
            # Chromium's own line goes on to say what would allow it ("Either 'unsafe-inline'...").
            said = message.text if message.text.startswith(CSP_WORDS) else f"on {page}: {message.text}"
            csp_seen.append(said.split(" Either the ")[0])

    context.on("console", heard)


@pytest.fixture(scope="session")
def browser(browser):
    """pytest-playwright's browser, every context of which (made by `new_context`, `new_page`
    or the `context`/`page` fixtures) is watched for CSP violations from its first page on."""
    new_context, new_page = browser.new_context, browser.new_page

    def watched_context(*args, **kwargs):
        context = new_context(*args, **kwargs)
        watch_for_csp_violations(context)
        return context

    def watched_page(*args, **kwargs):
        page = new_page(*args, **kwargs)  # its own context, still on about:blank
        watch_for_csp_violations(page.context)
        return page

    browser.new_context, browser.new_page = watched_context, watched_page
    yield browser
    browser.new_context, browser.new_page = new_context, new_page


@pytest.fixture
def csp_violations_fail_the_test():
    """Fails the test (at its end, once its pages are closed) for any CSP violation its pages
    met; asked for by `close_pages_left_open`, so every browser test has it."""
    before = len(csp_seen)
    yield
    met = csp_seen[before:]
    if met:
        pytest.fail(f"{len(met)} Content-Security-Policy violation(s) (docs/csp.md):\n" + "\n".join(met),
                    pytrace=False)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    }


def leave(page) -> None:
    """The page goes to about:blank, within LEAVE_MS, before its context is closed: its
    scripts, timers and sockets stop, and nothing on it is navigating. Chromium may never
    answer the disposal of a context whose page is navigating by itself at that moment (a
    finished arena game's page goes back to the arena 3 s after the end), and Playwright
    closes a context with no time limit: the test then hung in this fixture's end."""
    for attempt in range(3):
        if page.is_closed():
            return
        try:
            page.goto("about:blank", timeout=LEAVE_MS)
            return
        except PlaywrightError as error:
            # The page's own navigation began first: it wins, and this one is asked again.
            if "interrupted by another navigation" not in str(error) or attempt == 2:
                raise


@pytest.fixture(autouse=True)
def close_pages_left_open(request):
    """Close every browser context a test opened (signed_in_page makes its own) when it ends,
    each page first taken to about:blank (`leave`), then wait until the live server has finished
    what those pages asked of it: all before the database is flushed (this fixture asks for the
    database first, so its end comes before the flush). A page left open keeps its socket, and
    its table's pushes move keyboard focus on it: the next test's page then reads "inactive" in
    a focus check."""
    if "browser" not in request.fixturenames:
        yield
        return
    marker = request.node.get_closest_marker("django_db")
    if marker is not None:
        request.getfixturevalue("transactional_db" if marker.kwargs.get("transaction") else "db")
    browser = request.getfixturevalue("browser")
    request.getfixturevalue("csp_violations_fail_the_test")  # its check comes after this one's end
    before = set(browser.contexts)  # shared ones (a module's journey) stay open
    yield
    for context in list(browser.contexts):
        if context not in before:
            try:
                for page in context.pages:
                    leave(page)
            finally:
                context.close()
    if "live_daphne" in request.fixturenames:
        quiet = server_says(request.getfixturevalue("live_daphne"), QUIET_PATH + ("?shared=1" if before else ""))
        assert quiet == "quiet", f"the live server is still working for this test: {quiet}"
