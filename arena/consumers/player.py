"""One WebSocket per student arena page (`/ws/arena/<arena_id>/me/`): the student's own "You"
box and state, live.

It listens to the student's own group (arena.realtime.player_group: one per arena and
student), so a child is only ever sent what is theirs; the services tell that group after
every change that concerns the child (seated, paused, resumed, a game counted, the end). On
connect it sends the fragment at once, so a reload or a reconnect is current and a child
already seated is taken to their table (the fragment's `data-go`, static/js/app.js).
Nothing is received: the page's buttons are forms. A socket that floods messages is closed
with 4429; one that is not a player of this arena, with 4403.
Each fragment is in the child's language, chosen once at connect (accounts/language.py socket_language).
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from accounts.language import socket_language
from arena.me import render_me
from arena.realtime import player_group
from live.close_codes import CLOSE_NOT_ALLOWED, CLOSE_TOO_MANY
from live.guard import TokenBucket, current_user, join_group, leave_group
from live.signed_out import ClosesWhenSignedOut


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


class ArenaPlayerConsumer(ClosesWhenSignedOut, AsyncWebsocketConsumer):
    async def connect(self):
        self.group = None
        self.finished = False
        self.bucket = TokenBucket.for_socket()
        self.arena_id = self.scope["url_route"]["kwargs"]["arena_id"]
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_NOT_ALLOWED)
            return
        self.user_id = user.pk
        # The group is joined before the one render that both checks the student is a player
        # and is sent: a change after the render is then pushed, and one before it is in it.
        # (Rendering once to check and again after joining doubled the cost of every return
        # to the arena page, a burst after every round.) Someone who is not a player joined
        # the group for a moment and is closed without being sent anything.
        group = player_group(self.arena_id, self.user_id)
        if not await join_group(self, group):
            return
        self.group = group
        self.language, html = await database_sync_to_async(_connect, thread_sensitive=False)(
            user, self.scope, self.arena_id)
        if html is None:
            self.finished = True
            await leave_group(self, group)
            self.group = None
            await self.close(code=CLOSE_NOT_ALLOWED)
            return
        await self.accept()
        await self.send(text_data=html)

    async def disconnect(self, code):
        self.finished = True
        await leave_group(self, self.group)

    async def receive(self, text_data=None, bytes_data=None):
        if not self.finished and not self.bucket.take():
            self.finished = True
            await self.close(code=CLOSE_TOO_MANY)

    async def arena_player(self, event):
        if not self.finished:
            await self.send_me()

    async def send_me(self):
        html = await database_sync_to_async(_fragment, thread_sensitive=False)(
            self.user_id, self.arena_id, self.language)
        if html is None:  # no longer a student of this arena (removed from the class)
            self.finished = True
            await self.close(code=CLOSE_NOT_ALLOWED)
            return
        await self.send(text_data=html)
