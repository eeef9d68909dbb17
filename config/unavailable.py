"""When the database cannot be had: a page that says to try again, never a 500.

The database can be out of reach for a moment: every connection of the process is busy past
the pool's timeout (a whole school signing in at once), PostgreSQL is restarting, or it ended
a connection mid-request. The PostgreSQL backend notes each such failure for the request it
happened in (config/postgresql/base.py, `note_database_away`), whichever thread ran the query.

- **Pages**: an error that Django would answer with its 500 page is answered, when the
  database was away during that request, with `503.html`: HTTP 503 and `Retry-After`, a page
  that says in the reader's language to wait a moment and try again, and (for a page that was
  only read) tries again by itself. It reads nothing from the database: not the session, not
  the user. (`DatabaseAwayMiddleware` gives each request its note; `server_error` is the
  site's handler500; `QuietDatabaseAwayLog` logs it as one warning line, not a traceback.)
- **Sockets**: `SocketsCloseWhenDatabaseAway` wraps every socket (config/asgi.py). A socket
  whose handshake, or whose consumer, meets the database away (reading the session and the
  user at the handshake, a consumer's first query) is accepted and closed with 4013, the close
  the page retries after a pause (static/js/app.js), instead of a 500 to the handshake.
"""

from __future__ import annotations

import contextvars
import logging
import random

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.db import InterfaceError, OperationalError
from django.shortcuts import render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import defaults

from live.close_codes import CLOSE_TRY_AGAIN

log = logging.getLogger(__name__)

# Seconds a browser is asked to wait before trying again; the page itself tries again after a
# random pause in this range, so a class that met a busy moment together does not come back
# together.
RETRY_AFTER_SECONDS = 5
RETRY_PAUSE_SECONDS = (4, 9)
# What a socket that met the database away is closed with: CLOSE_TRY_AGAIN (live/close_codes.py:
# "try again later", which the page retries after a pause).

# The request's note: a list the backend appends to. A list, not a flag, so that the threads a
# request's work runs in (each with a copy of the request's context) all write to the same one.
_note: contextvars.ContextVar[list | None] = contextvars.ContextVar("database_away", default=None)


def note_database_away(error: BaseException) -> None:
    """The database could not be had for the current request (if any): say so on its page."""
    noted = _note.get()
    if noted is not None:
        noted.append(error)


def database_was_away() -> bool:
    return bool(_note.get())


class DatabaseAwayMiddleware:
    """The first middleware: gives each request an empty note, so that the 500 handler can tell
    a database that could not be had from a bug. Sync and async, so it changes nothing about
    how the rest of the stack runs."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        token = _note.set([])
        try:
            return self.get_response(request)
        finally:
            _note.reset(token)

    async def _acall(self, request):
        token = _note.set([])
        try:
            return await self.get_response(request)
        finally:
            _note.reset(token)


def _language(request) -> str:
    """The reader's language without the database: the one the middleware had chosen, else the
    language cookie's or the browser's (a signed-in person's own may be unreadable now)."""
    return getattr(request, "LANGUAGE_CODE", None) or translation.get_language_from_request(request)


def _page_to_retry(request) -> str:
    """Where "Try again" goes: the page the person is on (an htmx request names it), else the
    path asked for."""
    current = request.headers.get("HX-Current-URL", "")
    if current and url_has_allowed_host_and_scheme(current, allowed_hosts={request.get_host()},
                                                   require_https=request.is_secure()):
        return current
    return request.get_full_path()


def try_again_response(request):
    """The try-again page: 503, Retry-After, in the reader's language."""
    with translation.override(_language(request)):
        response = render(request, "503.html", {
            "retry_url": _page_to_retry(request),
            # A page that was only read may be asked for again without asking anyone; a form
            # sent is not sent again by itself.
            "retry_in": random.randint(*RETRY_PAUSE_SECONDS) if request.method in ("GET", "HEAD") else None,
        }, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        response["Content-Language"] = translation.get_language()
    return response


def server_error(request, template_name=defaults.ERROR_500_TEMPLATE_NAME):
    """The site's handler500: the try-again page when the database was away during this
    request, Django's 500 otherwise."""
    if database_was_away():
        return try_again_response(request)
    return defaults.server_error(request, template_name)


class QuietDatabaseAwayLog(logging.Filter):
    """On `django.request`: a try-again answer is logged as one warning line, not an error with
    a traceback (a busy or restarting database is an operator's matter, not a bug to chase)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 503 and database_was_away() \
                and not getattr(record, "database_away", False):
            record.database_away = True  # said once, however many times the filter is met
            error = record.exc_info[1] if record.exc_info else None
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg = f"{record.msg} (the database could not be had: %s; answered with the try-again page)"
            record.args = (*record.args, error) if isinstance(record.args, tuple) else record.args
        return True


class SocketsCloseWhenDatabaseAway:
    """ASGI middleware for sockets: a database error that no consumer handled, before or after
    the socket was accepted, closes it with CLOSE_TRY_AGAIN (the page tries again after a
    pause) instead of failing the handshake with a 500 and a traceback."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.application(scope, receive, send)
        seen = {"connect": False, "accepted": False, "closed": False}

        async def receiving():
            message = await receive()
            if message["type"] == "websocket.connect":
                seen["connect"] = True
            elif message["type"] == "websocket.disconnect":
                seen["closed"] = True
            return message

        async def sending(message):
            if message["type"] == "websocket.accept":
                seen["accepted"] = True
            elif message["type"] == "websocket.close":
                seen["closed"] = True
            await send(message)

        try:
            return await self.application(scope, receiving, sending)
        except (OperationalError, InterfaceError) as error:
            log.warning("socket %s: the database could not be had (%s); closed with %s, the page "
                        "tries again", scope.get("path", "?"), str(error).strip() or type(error).__name__,
                        CLOSE_TRY_AGAIN)
            if seen["closed"]:
                return None
            if not seen["accepted"]:
                if not seen["connect"]:
                    await receive()  # the handshake's websocket.connect, before any answer
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN})
            return None
