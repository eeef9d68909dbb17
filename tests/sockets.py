"""One socket helper for the game, lobby and dashboard consumer tests.

The suite keeps Django's async-safety check on (DJANGO_ALLOW_ASYNC_UNSAFE is set for the
browser tests only), so a consumer that touched the ORM from the event loop fails its test.
The tests' own database work from an async test runs with `off_loop`, on a thread of its own,
as Django requires.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from django.test import Client

from config.asgi import application


def off_loop(func, *args, **kwargs):
    """Run synchronous database work from an async test, on a thread of its own (whose
    database connection is closed before the thread ends: an open one would keep PostgreSQL
    from dropping the test database at the end of the run)."""
    def run():
        try:
            return func(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def session_cookie(user) -> bytes:
    """The Cookie header of a session signed in as `user` (synchronous: it writes the session)."""
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


def cookie_for(user) -> bytes:
    return off_loop(session_cookie, user)


def connect_as(user, object_id: int, socket: str = "game", query: str = "") -> WebsocketCommunicator:
    """A socket to /ws/<socket>/<id>/[?query] ("game", "lobby", "reports/class"),
    signed in as `user` (None: anonymous), from the site's own origin."""
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
    if user is not None:
        headers.append((b"cookie", cookie_for(user)))
    path = f"/ws/{socket}/{object_id}/" + (f"?{query}" if query else "")
    return WebsocketCommunicator(application, path, headers=headers)
