"""One base for every live page's socket (the game table and its lobby, the teacher's
dashboard, the arena's projector and student pages): docs/live.md.

What the base does for each of them:
- joins the page's channel-layer group (surviving a Redis that just restarted, live/guard.py)
  and the user's own (closed when their sessions end, live/signed_out.py); leaves both;
- sends every push in one envelope (live/envelope.py) with only the parts that changed since
  this socket's last push (live/diff.py `Sent`), and never an older game version than it sent;
- answers `{"sync": version}`: a page that says it shows another version than this socket
  last sent is sent everything, else only what changed since (nothing when nothing did);
- closes a flooding socket (a per-socket budget, live/guard.py `TokenBucket`) with 4429, and
  says why first when the page has a place for words (`goodbye`).

What each page says (its hooks): `open()` checks who may connect and names the group;
`current()` renders the page's parts as they are now, re-checking access (None: no longer
allowed, closed with 4403); `received()` handles any other message (a move); `goodbye()`
the parts that say why before a close.
"""

from __future__ import annotations

import json
import logging

from channels.generic.websocket import AsyncWebsocketConsumer

from .close_codes import CLOSE_NOT_ALLOWED, CLOSE_TOO_MANY
from .diff import LivePart, Sent, as_parts
from .envelope import envelope
from .guard import TokenBucket, join_group, leave_group
from .signed_out import ClosesWhenSignedOut

log = logging.getLogger(__name__)


def sync_version(text: str | None):
    """The version of a `{"sync": version}` message, else None (any other message)."""
    if not text or not text.startswith("{") or '"sync"' not in text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if isinstance(data, dict) and set(data) == {"sync"} and isinstance(data["sync"], int):
        return data["sync"]
    return None


class LiveConsumer(ClosesWhenSignedOut, AsyncWebsocketConsumer):
    push_type: str = ""  # its key in live/pushes.py
    counts_pushes = True  # the envelope's version counts this socket's pushes (else: the game's)

    # ----- hooks -------------------------------------------------------------------------
    async def open(self) -> str | None:
        """Check who connects; the group to join, or None (after closing the socket). It may
        join the group itself (and set `self.group`) when it must render after joining."""
        raise NotImplementedError

    async def current(self) -> tuple[int | None, dict[str, str | LivePart]] | None:
        """The page's version and parts now (access re-checked); None: no longer allowed."""
        raise NotImplementedError

    async def opened(self) -> None:
        """After joining and accepting: a new socket (so every reconnect) is sent everything."""
        await self.refresh()

    async def received(self, text: str | None) -> None:
        """A message other than a sync (the default: ignored, the page only listens)."""

    async def goodbye(self, code: int) -> dict[str, str]:
        """The parts that say why, sent before closing with `code` (none by default)."""
        return {}

    async def closed(self) -> None:
        """After the socket closed: stop whatever the page runs."""

    # ----- the protocol ------------------------------------------------------------------
    def new_sent(self) -> Sent:
        return Sent(count=self.counts_pushes)

    async def connect(self):
        self.group = None
        self.finished = False  # closed by us: nothing more is read or sent
        self.bucket = TokenBucket.for_socket()
        self.sent = self.new_sent()
        group = await self.open()
        if group is None or self.finished:
            return
        if self.group != group:  # (a page whose `open` joined it itself, to render after joining)
            if not await join_group(self, group):
                self.finished = True
                return
            self.group = group
        await self.accept()
        await self.opened()

    async def disconnect(self, code):
        self.finished = True
        await self.closed()
        await leave_group(self, self.group)

    async def receive(self, text_data=None, bytes_data=None):
        if self.finished:
            return
        if not self.bucket.take():
            await self.finish(CLOSE_TOO_MANY)
            return
        await self.counted(text_data)

    async def counted(self, text: str | None) -> None:
        """A message within the socket's budget: a sync is answered, anything else `received`."""
        version = sync_version(text)
        if version is not None:
            await self.resync(version)
        else:
            await self.received(text)

    async def resync(self, version: int) -> None:
        if self.sent.stale(version):
            self.sent.forget()  # the page missed a push: send all of it
        await self.refresh()

    async def refresh(self) -> None:
        """Render the page now and send what changed (close with 4403 when no longer allowed)."""
        if self.finished:
            return
        now = await self.current()
        if self.finished:
            return
        if now is None:
            await self.finish(CLOSE_NOT_ALLOWED)
            return
        await self.push(*now)

    async def push(self, version: int | None, parts: dict[str, str | LivePart],
                   always: tuple[str, ...] = ()) -> bool:
        """Send the parts (and items) that differ from this socket's last push; True when
        anything was sent. A game version older than one already sent is dropped."""
        if self.finished or self.sent.newer_than(version):
            return False
        return await self.send_changes(version, parts, always=always)

    async def send_changes(self, version: int | None, parts: dict[str, str | LivePart],
                           always: tuple[str, ...] = ()) -> bool:
        """`push` without its check for an older version (an answer to the page's own message)."""
        if self.finished:
            return False
        changes = self.sent.changes(version, as_parts(parts), always=always)
        version = self.sent.version
        for frame in (changes.parts, changes.items):
            if frame:
                await self.send(text_data=envelope(type=self.push_type, version=version, parts=frame))
        return bool(changes)

    async def finish(self, code: int) -> None:
        """Say why (when the page has a place for it), close, and send nothing more."""
        if self.finished:
            return
        self.finished = True
        words = await self.goodbye(code)
        if words:
            await self.send(text_data=envelope(type=self.push_type, version=self.sent.version, parts=words))
        await self.close(code=code)
