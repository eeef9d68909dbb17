"""One WebSocket per student arena page (`/ws/arena/<arena_id>/me/`): the student's own "You"
box and state, live.

It listens to the student's own group (arena.realtime.player_group: one per arena and
student), so a child is only ever sent what is theirs; the services tell that group after
every change that concerns the child (seated, paused, resumed, a game counted, the end). On
connect it sends the fragment at once, so a reload or a reconnect is current and a child
already seated is taken to their table (the fragment's `data-go`, static/js/app.js).
Nothing is received but `{"sync": version}` (live/consumer.py): the page's buttons are forms.
A socket that floods messages is closed with 4429; one that is not a player of this arena,
with 4403.
Each fragment is in the child's language, chosen once at connect (accounts/language.py socket_language).
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.utils import translation

from accounts.language import socket_language
from arena.me import render_me
from arena.realtime import player_group
from live.close_codes import CLOSE_NOT_ALLOWED
from live.consumer import LiveConsumer
from live.guard import current_user, join_group, leave_group


def _fragment(user_id: int, arena_id: int, language: str) -> str | None:
    """The student's fragment as the database has them now (None: not a player here)."""
    user = current_user(user_id)
    if user is None:
        return None
    with translation.override(language):
        return render_me(user=user, arena_id=arena_id)


def _connect(user, scope, arena_id: int) -> tuple[str, str | None]:
    """The language this socket speaks, and the student's first fragment in it."""
    language = socket_language(user=user, scope=scope)
    return language, _fragment(user.pk, arena_id, language)


class ArenaPlayerConsumer(LiveConsumer):
    push_type = "arena-me"

    async def open(self):
        self.arena_id = self.scope["url_route"]["kwargs"]["arena_id"]
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_NOT_ALLOWED)
            return None
        self.user_id = user.pk
        # The group is joined before the one render that both checks the student is a player
        # and is sent: a change after the render is then pushed, and one before it is in it.
        # (Rendering once to check and again after joining doubled the cost of every return
        # to the arena page, a burst after every round.) Someone who is not a player joined
        # the group for a moment and is closed without being sent anything.
        group = player_group(self.arena_id, self.user_id)
        if not await join_group(self, group):
            self.finished = True
            return None
        self.language, html = await database_sync_to_async(_connect, thread_sensitive=False)(
            user, self.scope, self.arena_id)
        if html is None:
            self.finished = True
            await leave_group(self, group)
            await self.close(code=CLOSE_NOT_ALLOWED)
            return None
        self.first = html
        self.group = group  # joined already
        return group

    async def opened(self):
        html, self.first = self.first, None
        await self.push(None, {"live": html})

    async def current(self):
        html = await database_sync_to_async(_fragment, thread_sensitive=False)(
            self.user_id, self.arena_id, self.language)
        return None if html is None else (None, {"live": html})

    async def arena_player(self, event):
        await self.refresh()
