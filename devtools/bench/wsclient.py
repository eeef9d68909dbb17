"""A small asyncio WebSocket client on Autobahn (already installed: Daphne is built on it).

Each `Socket` is one real TCP connection with the browser's handshake: the session cookie and
an Origin header the server's AllowedHostsOriginValidator accepts. Arrival times are taken in
`onMessage`, before any parsing, and handed to the caller's `on_text(text, t)`.
"""

from __future__ import annotations

import asyncio
import time
from typing import Callable

from autobahn.asyncio.websocket import WebSocketClientFactory, WebSocketClientProtocol
from autobahn.exception import Disconnected  # noqa: F401  (raised by Socket.send)

now = time.perf_counter


class _Protocol(WebSocketClientProtocol):
    def onOpen(self):
        sock = self.factory.socket
        sock.proto = self
        if not sock.opened.done():
            sock.opened.set_result(True)

    def onMessage(self, payload, isBinary):
        t = now()
        self.factory.socket.on_text(payload.decode("utf-8"), t)

    def onClose(self, wasClean, code, reason):
        sock = self.factory.socket
        sock.closed_code = code
        if not sock.opened.done():
            sock.opened.set_exception(ConnectionError(f"closed before open: {code} {reason}"))
        if not sock.closed.done():
            sock.closed.set_result(code)


class Socket:
    def __init__(self, *, host: str, port: int, path: str, session_key: str,
                 on_text: Callable[[str, float], None]):
        self.host, self.port, self.path = host, port, path
        self.session_key = session_key
        self.on_text = on_text
        self.proto: _Protocol | None = None
        self.closed_code: int | None = None

    async def connect(self, timeout: float = 60.0) -> None:
        loop = asyncio.get_running_loop()
        self.opened = loop.create_future()
        self.closed = loop.create_future()
        url = f"ws://{self.host}:{self.port}{self.path}"
        factory = WebSocketClientFactory(url, origin=f"http://{self.host}:{self.port}",
                                         headers={"Cookie": f"sessionid={self.session_key}"})
        factory.protocol = _Protocol
        # The server's frames are trusted here, and validating ~10 kB of UTF-8 per frame in
        # pure Python would only slow the client that shares the machine with the server.
        factory.setProtocolOptions(utf8validateIncoming=False, openHandshakeTimeout=timeout,
                                   closeHandshakeTimeout=5)
        factory.socket = self
        await asyncio.wait_for(loop.create_connection(factory, self.host, self.port), timeout)
        await asyncio.wait_for(self.opened, timeout)

    def send(self, text: str) -> None:
        self.proto.sendMessage(text.encode("utf-8"), isBinary=False)

    async def close(self) -> None:
        if self.proto is not None and not self.closed.done():
            self.proto.sendClose(1000)
            try:
                await asyncio.wait_for(asyncio.shield(self.closed), 5)
            except asyncio.TimeoutError:
                self.proto.transport.close()


class Arrivals:
    """When each numbered update (a game version, an echo sequence number) first arrived on
    one socket, and a way to wait for one."""

    def __init__(self):
        self.first_seen: dict[int, float] = {}
        self._waiters: list[tuple[int, asyncio.Future]] = []
        self._first: asyncio.Future | None = None

    async def first(self, timeout: float) -> float:
        """When the first update of any number arrived (waiting for it if need be)."""
        if self.first_seen:
            return min(self.first_seen.values())
        self._first = self._first or asyncio.get_running_loop().create_future()
        return await asyncio.wait_for(asyncio.shield(self._first), timeout)

    def seen(self, number: int, t: float) -> None:
        if number in self.first_seen:
            return
        self.first_seen[number] = t
        if self._first is not None and not self._first.done():
            self._first.set_result(t)
        still = []
        for wanted, fut in self._waiters:
            if wanted == number and not fut.done():
                fut.set_result(t)
            elif not fut.done():
                still.append((wanted, fut))
        self._waiters = still

    async def wait(self, number: int, timeout: float) -> float:
        if number in self.first_seen:
            return self.first_seen[number]
        fut = asyncio.get_running_loop().create_future()
        self._waiters.append((number, fut))
        return await asyncio.wait_for(fut, timeout)
