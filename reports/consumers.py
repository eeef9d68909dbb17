"""The teacher dashboard's WebSocket (`/ws/reports/class/<id>/`).

Session-authenticated and origin-checked by config/asgi.py. Only a teacher of the (active)
class may connect; anyone else is closed with 4403. The `dashboard.changed` message carries
no data: the consumer re-checks that its teacher still teaches the class and re-renders the
live fragments (htmx out-of-band swaps), sending only the parts and table rows that changed
(reports/live_diff.py). Changes arriving close together are rendered once.
Games starting and moves are not broadcast to dashboards (only finished games, via the
report refresh), so "playing now" is also re-rendered every REPORTS_DASHBOARD_REFRESH_SECONDS.

Access: every push (a change or the timer) re-reads the class with the teacher's access in the
same query that renders it, so a teacher taken off the class (`co_teacher_remove`) or a class
archived gets no further push and is closed with 4403. The dashboard takes no messages, so
there is nothing else to re-check. Joining the group survives a Redis that just restarted
(live/guard.py).
"""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from accounts.language import browser_language
from live.close_codes import CLOSE_NOT_ALLOWED
from live.guard import join_group, leave_group
from live.signed_out import ClosesWhenSignedOut

from .live_diff import LiveDiff, LivePart
from .realtime import dashboard_group
from .rendering import render_dashboard_live, teacher_classroom

def _debounce() -> float:
    return float(getattr(settings, "REPORTS_DASHBOARD_DEBOUNCE_SECONDS", 1.0))


def _refresh_every() -> float:
    return float(getattr(settings, "REPORTS_DASHBOARD_REFRESH_SECONDS", 30.0))


class DashboardConsumer(ClosesWhenSignedOut, AsyncWebsocketConsumer):
    async def connect(self):
        self.group = None
        self.pending = None
        self.stale = False
        self.ticker = None
        user = self.scope.get("user")
        self.classroom_id = self.scope["url_route"]["kwargs"]["classroom_id"]
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.assignment_id = (query.get("assignment") or [None])[0]
        self.browser_language = browser_language(self.scope)
        allowed = None
        if user is not None and user.is_authenticated:
            allowed = await database_sync_to_async(teacher_classroom)(
                user=user, classroom_id=self.classroom_id)
        if allowed is None:
            await self.close(code=CLOSE_NOT_ALLOWED)
            return
        group = dashboard_group(self.classroom_id)
        if not await join_group(self, group):
            return
        self.group = group
        await self.accept()
        self.diff = LiveDiff()  # a new socket (and so every reconnect) gets everything
        parts = await self.render()  # on every (re)connect: nothing missed while away
        if parts is not None:
            await self._send_changes(parts)
        if _refresh_every() > 0:
            self.ticker = asyncio.ensure_future(self._tick(_refresh_every()))

    async def disconnect(self, code):
        for task in (self.pending, self.ticker):
            if task is not None:
                task.cancel()
        await leave_group(self, self.group)

    async def receive(self, text_data=None, bytes_data=None):
        pass  # the dashboard only listens

    async def dashboard_changed(self, event):
        # A change that arrives while a push is waiting or rendering marks the page stale
        # again, so the running push goes round once more instead of dropping it.
        self.stale = True
        if self.pending is None or self.pending.done():
            self.pending = asyncio.ensure_future(self._push_later())

    async def _tick(self, every: float):
        while await asyncio.sleep(every, result=True) and await self._push():
            pass

    async def _push_later(self):
        while self.stale:
            delay = _debounce()
            if delay > 0:
                await asyncio.sleep(delay)
            self.stale = False  # what is committed from here on is in this render
            if not await self._push():
                return

    async def _push(self) -> bool:
        parts = await self.render()
        if parts is None:  # no longer a teacher of this class
            await self.close(code=CLOSE_NOT_ALLOWED)
            return False
        await self._send_changes(parts)
        return True

    async def _send_changes(self, parts: dict[str, LivePart]) -> None:
        """Only what changed since the last push (reports/live_diff.py): a finished game
        sends its student's row and the class's, not the whole skill table again."""
        for frame in self.diff.frames(parts):
            await self.send(text_data=frame)

    async def render(self) -> dict[str, LivePart] | None:
        return await database_sync_to_async(render_dashboard_live)(
            user=self.scope["user"], classroom_id=self.classroom_id,
            assignment_id=self.assignment_id, browser_language=self.browser_language)
