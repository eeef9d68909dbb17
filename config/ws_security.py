"""What every WebSocket passes before it reaches a consumer (config/asgi.py, config/routing.py).

- `SameOriginValidator`: the page that opens a socket must come from this very site: the
  Origin's scheme, host AND port are those of the socket itself (ws -> http, wss -> https,
  the Host header's host and port), as Django's CSRF check compares them, or the Origin is one
  of CSRF_TRUSTED_ORIGINS (a proxy that ends TLS in front of Daphne); and the Host is one of
  ALLOWED_HOSTS. Channels' AllowedHostsOriginValidator compared the host name only, so a page
  on another port of the same host (another app, a developer's server) or plain http could
  open a socket with a student's cookies. A socket without an Origin is refused too: every
  browser sends one.
- `NoSuchSocket`: the route of every path no consumer serves. Channels' router raised
  "No route found" for them: a 500 and a traceback in the log. It is accepted and closed at
  once with 4404 instead.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

from live.close_codes import CLOSE_NOT_FOUND

DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) with the scheme's default port filled in; None when unreadable."""
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port
    except ValueError:
        return None
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def _parsed(origin: str) -> tuple[str, str, int] | None:
    parts = urlsplit(origin)
    return _origin(parts.scheme.lower(), parts.netloc) if parts.scheme else None


def same_origin(scope: dict) -> bool:
    """The socket's Origin is the site's own (see the module's doc)."""
    headers = dict(scope.get("headers") or [])
    origin = headers.get(b"origin", b"").decode("latin-1").strip()
    host = headers.get(b"host", b"").decode("latin-1").strip()
    domain, _ = split_domain_port(host)
    if not origin or not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    theirs = _parsed(origin)
    if theirs is None:
        return False
    ours = _origin("https" if scope.get("scheme") in ("wss", "https") else "http", host)
    trusted = {_parsed(o) for o in getattr(settings, "CSRF_TRUSTED_ORIGINS", [])}
    return theirs == ours or theirs in trusted


class SameOriginValidator:
    """Refuse (close before accepting: a 403 to the handshake) a socket from another origin."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not same_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)


class NoSuchSocket(AsyncWebsocketConsumer):
    async def connect(self):
        await self.accept()
        await self.close(code=CLOSE_NOT_FOUND)
