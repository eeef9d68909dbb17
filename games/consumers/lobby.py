"""One WebSocket per lobby page (`/ws/lobby/<id>/`): who has joined, live.

It listens to the same `game.<id>` group as the game page, since every lobby change (a classmate
joins or leaves, a computer player is added, the host starts) is a change of that game. Each
consumer renders the lobby for its own viewer; once the game starts, it sends a fragment
that takes the page to the game page. Nothing is received but `{"sync": version}`
(live/consumer.py): lobby changes are ordinary POSTs.

Before every push the viewer's access is re-checked when the class's membership version has
changed (live/guard.py); a student removed from or moved out of the class is told
so and closed with 4403. A socket that floods messages (which the lobby never needs) is
closed with 4429.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.utils import translation

from accounts.membership import membership_version
from games.models import Game
from games.realtime import game_group
from games.rendering import render_lobby
from games.selectors.lobby import lobby_access

from accounts.language import socket_language
from live.close_codes import CLOSE_NOT_ALLOWED
from live.consumer import LiveConsumer
from live.guard import Checked, current_user, recheck_if_changed

from .notices import NO_LONGER_IN_CLASS, TOO_MANY_MESSAGES, lobby_notice


class LostAccess(Exception):
    """The viewer may no longer see this lobby."""


class LobbyViewer:
    """One lobby socket's viewer; its methods run in the database thread."""

    def __init__(self, *, user, game_id: int):
        self.user = user
        self.game_id = game_id
        self.checked = Checked(classroom_id=None, version=None, access=None)

    def connect(self):
        self.checked.classroom_id = (Game.objects.filter(pk=self.game_id)
                                     .values_list("classroom_id", flat=True).first())
        self.checked.version = membership_version(self.checked.classroom_id)
        self.checked.access = lobby_access(user=self.user, game_id=self.game_id)
        return self.checked.access

    def _check(self):
        user = current_user(self.user.pk)
        if user is None:
            return None
        self.user = user  # render with who they are now (their class, whether still active)
        return lobby_access(user=user, game_id=self.game_id)

    def lobby(self) -> str:
        if recheck_if_changed(self.checked, self._check) is None:
            raise LostAccess
        if getattr(self, "language", None) is None:  # read once, at the first render
            self.language = socket_language(scope=getattr(self, "scope", {}) or {}, user=self.user)
        with translation.override(self.language):
            html = render_lobby(user=self.user, game_id=self.game_id)
        if not html:  # render_lobby's own access check said no
            raise LostAccess
        return html


class LobbyConsumer(LiveConsumer):
    push_type = "lobby"

    async def open(self):
        user = self.scope.get("user")
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        access = None
        if user is not None and user.is_authenticated:
            self.viewer = LobbyViewer(user=user, game_id=self.game_id)
            self.viewer.scope = self.scope  # its handshake: the browser's language
            access = await database_sync_to_async(self.viewer.connect)()
        if access is None:
            await self.close(code=CLOSE_NOT_ALLOWED)
            return None
        return game_group(self.game_id)

    async def game_changed(self, event):
        await self.refresh()

    async def current(self):
        try:
            html = await database_sync_to_async(self.viewer.lobby)()
        except LostAccess:
            return None
        return None, {"lobby": html}

    async def goodbye(self, code):
        words = NO_LONGER_IN_CLASS if code == CLOSE_NOT_ALLOWED else TOO_MANY_MESSAGES
        with translation.override(getattr(self.viewer, "language", None)):
            return {"lobby": lobby_notice(words)}
