"""The teacher dashboard's WebSocket (`/ws/reports/class/<id>/`).

Session-authenticated and origin-checked by config/asgi.py. Only a teacher of the (active)
class may connect; anyone else is closed with 4403. The `dashboard.changed` message carries
no data: the consumer re-checks that its teacher still teaches the class and re-renders the
live fragments (htmx out-of-band swaps), sending only the parts and table cells that changed
(live/consumer.py, live/diff.py). Changes arriving close together are rendered once.
Games starting and moves are not broadcast to dashboards (only finished games, via the
report refresh), so "playing now" is also re-rendered every REPORTS_DASHBOARD_REFRESH_SECONDS.

Access: every push (a change or the timer) re-reads the class with the teacher's access in the
same query that renders it, so a teacher taken off the class (`co_teacher_remove`) or a class
archived gets no further push and is closed with 4403. The dashboard takes no message but
`{"sync": version}` (live/consumer.py), answered by the same render. Joining the group survives a Redis that just restarted
(live/guard.py).
"""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.conf import settings

from accounts.language import browser_language
from live.consumer import LiveConsumer
from live.close_codes import CLOSE_NOT_ALLOWED

from .realtime import dashboard_group
from .rendering import render_dashboard_live, teacher_classroom


def _debounce() -> float:
    return float(getattr(settings, "REPORTS_DASHBOARD_DEBOUNCE_SECONDS", 1.0))


def _refresh_every() -> float:
    return float(getattr(settings, "REPORTS_DASHBOARD_REFRESH_SECONDS", 30.0))


class DashboardConsumer(LiveConsumer):
    push_type = "dashboard"

    async def open(self):
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
            return None
        return dashboard_group(self.classroom_id)

    async def opened(self):
        await self.refresh()  # on every (re)connect: nothing missed while away
        if _refresh_every() > 0 and not self.finished:
            self.ticker = asyncio.ensure_future(self._tick(_refresh_every()))

    async def closed(self):
        for task in (getattr(self, "pending", None), getattr(self, "ticker", None)):
            if task is not None:
                task.cancel()

    async def dashboard_changed(self, event):
        # A change that arrives while a push is waiting or rendering marks the page stale
        # again, so the running push goes round once more instead of dropping it.
        self.stale = True
        if self.pending is None or self.pending.done():
            self.pending = asyncio.ensure_future(self._push_later())

    async def _tick(self, every: float):
        while await asyncio.sleep(every, result=True) and not self.finished:
            await self.refresh()

    async def _push_later(self):
        while self.stale and not self.finished:
            delay = _debounce()
            if delay > 0:
                await asyncio.sleep(delay)
            self.stale = False  # what is committed from here on is in this render
            await self.refresh()

    async def current(self):
        parts = await database_sync_to_async(render_dashboard_live)(
            user=self.scope["user"], classroom_id=self.classroom_id,
            assignment_id=self.assignment_id, browser_language=self.browser_language)
        return None if parts is None else (None, parts)
