"""A small WebSocket client on asyncio streams (RFC 6455), for tests that talk to real web
processes over TCP.

Not Autobahn's asyncio client (devtools/bench/wsclient.py): Autobahn picks its event framework
once per process, and the browser tests' live server, forked from the test process, runs
Autobahn on Twisted. It sends what a browser sends (the session cookie, the page's Origin) and
reads text frames, answering pings; nothing more is needed here.
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct

TEXT, CLOSE, PING, PONG = 0x1, 0x8, 0x9, 0xA
ABNORMAL = 1006  # what a browser reports when the connection ended without a close frame


class Refused(Exception):
    """The server did not upgrade the connection."""


class WireSocket:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer
        self.close_code: int | None = None

    @classmethod
    async def open(cls, *, port: int, path: str, cookie: str, timeout: float = 10.0) -> "WireSocket":
        host = f"127.0.0.1:{port}"
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                      f"Sec-WebSocket-Version: 13\r\nOrigin: http://{host}\r\nCookie: {cookie}\r\n\r\n")
                     .encode())
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            writer.close()
            raise Refused(f"no answer to the upgrade: {exc!r}") from exc
        if not head.startswith(b"HTTP/1.1 101"):
            writer.close()
            raise Refused(head.split(b"\r\n", 1)[0].decode())
        return cls(reader, writer)

    async def send_text(self, text: str) -> None:
        self._frame(TEXT, text.encode())
        await self.writer.drain()

    async def receive_text(self) -> str | None:
        """The next text message; None once the connection has ended (`close_code` says how)."""
        if self.close_code is not None:
            return None
        parts: list[bytes] = []
        try:
            while True:
                first, second = await self.reader.readexactly(2)
                length = second & 0x7F
                if length == 126:
                    length = struct.unpack("!H", await self.reader.readexactly(2))[0]
                elif length == 127:
                    length = struct.unpack("!Q", await self.reader.readexactly(8))[0]
                payload = await self.reader.readexactly(length)  # a server never masks
                opcode = first & 0x0F
                if opcode == CLOSE:
                    self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                    self.writer.close()
                    return None
                if opcode == PING:
                    self._frame(PONG, payload)
                    continue
                if opcode == PONG:
                    continue
                parts.append(payload)  # a text frame, or a continuation of one
                if first & 0x80:
                    return b"".join(parts).decode()
        except (asyncio.IncompleteReadError, ConnectionError):
            self.close_code = ABNORMAL
            self.writer.close()
            return None

    async def close(self) -> None:
        if self.close_code is None:
            try:
                self._frame(CLOSE, struct.pack("!H", 1000))
                await self.writer.drain()
            except ConnectionError:
                pass
            self.close_code = 1000
        self.writer.close()

    def _frame(self, opcode: int, payload: bytes) -> None:
        """A client's frame: final, masked."""
        mask = os.urandom(4)
        size = len(payload)
        if size < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
        elif size < 1 << 16:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.writer.write(head + mask + masked)
