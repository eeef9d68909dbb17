"""One WebSocket per lobby page (`/ws/table/<id>/`): who has joined, live.

It listens to the same `game.<id>` group as the table, since every lobby change (a classmate
joins or leaves, a computer player is added, the host starts) is a change of that game. Each
consumer renders the lobby for its own viewer; once the game starts, it sends a fragment
that takes the page to the table. Nothing is received: lobby changes are ordinary POSTs.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from .realtime import game_group
from .table_selectors import lobby_access

CLOSE_NOT_ALLOWED = 4403


def render_lobby(*, user, game_id: int) -> str:
    from .views_tables import lobby_context  # late: views import forms and the app registry

    access = lobby_access(user=user, game_id=game_id)
    if access is None:
        return ""
    return render_to_string("games/_lobby.html", {**lobby_context(access), "user": user, "oob": True})


class LobbyConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        user = self.scope.get("user")
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        access = None
        if user is not None and user.is_authenticated:
            access = await database_sync_to_async(lobby_access)(user=user, game_id=self.game_id)
        if access is None:
            await self.close(code=CLOSE_NOT_ALLOWED)
            return
        self.user = user
        self.group = game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_lobby()

    async def disconnect(self, code):
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        pass  # the lobby takes no messages; its buttons are forms

    async def game_changed(self, event):
        await self.send_lobby()

    async def send_lobby(self):
        html = await database_sync_to_async(render_lobby)(user=self.user, game_id=self.game_id)
        if html:
            await self.send(text_data=html)
