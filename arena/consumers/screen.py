"""The projector's WebSocket (`/ws/arena/<id>/screen/`): the live part of the big screen.

Only a teacher who runs the arena (arena.selectors.arena_for_teacher) may listen; anyone else
is closed with 4403. On connect it sends the live part as it is now, so a reload or a
reconnect after a dropped connection shows the latest at once. Afterwards it forwards what
arena/screen.py pushes to the arena's screen group: one fragment rendered once for every
projector (the same for all, as it holds nothing for one viewer), sent as the raw HTML that
htmx's ws extension swaps by its id, in the live envelope (live/consumer.py). Nothing is
received but `{"sync": version}`; a socket that floods messages is closed with 4429, as the
game sockets are.
Each push re-checks that the teacher still runs the arena (closed with 4403 otherwise).
A push holds the fragment in every offered language (arena/screen.py); each socket sends the
one of the teacher who opened it, chosen once at connect (accounts/language.py socket_language).
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import translation

from accounts.language import socket_language
from arena import realtime, selectors
from arena import screen as arena_screen
from live.close_codes import CLOSE_NOT_ALLOWED
from live.consumer import LiveConsumer
from live.guard import current_user


def _current_screen(user, scope, arena_id: int) -> tuple[str, str | None]:
    """The socket's language, and the live part now in it (None when the user may not see
    this arena)."""
    arena = selectors.arena_for_teacher(teacher=user, arena_id=arena_id)
    if arena is None:
        return "", None
    language = socket_language(user=user, scope=scope)
    with translation.override(language):
        return language, arena_screen.render(arena=arena)


class ArenaScreenConsumer(LiveConsumer):
    push_type = "arena-screen"

    async def open(self):
        user = self.scope.get("user")
        self.user = user
        self.arena_id = arena_id = self.scope["url_route"]["kwargs"]["arena_id"]
        self.html = None
        if user is not None and user.is_authenticated:
            self.language, self.html = await database_sync_to_async(_current_screen)(user, self.scope, arena_id)
        if self.html is None:
            await self.close(code=CLOSE_NOT_ALLOWED)
            return None
        return realtime.screen_group(arena_id)

    async def opened(self):
        html, self.html = self.html, None  # rendered with the access check: sent as it is
        await self.push(None, {"live": html})

    async def current(self):
        user = self.scope.get("user")
        language, html = await database_sync_to_async(_current_screen)(user, self.scope, self.arena_id)
        return None if html is None else (None, {"live": html})

    async def arena_screen(self, event):
        if self.finished:
            return
        # A teacher taken off the class since the connect hears no more (one small query;
        # pushes come at most about once a second).
        if not await database_sync_to_async(self._still_allowed)():
            await self.finish(CLOSE_NOT_ALLOWED)
            return
        parts = event["parts"]
        await self.push(None, {"live": parts.get(self.language) or parts[settings.LANGUAGE_CODE]})

    def _still_allowed(self) -> bool:
        user = current_user(self.user.pk)
        return user is not None and selectors.arena_for_teacher(
            teacher=user, arena_id=self.arena_id) is not None
