"""One WebSocket per game page (`/ws/game/<id>/`).

Session-authenticated and origin-checked by config/asgi.py. On connect (and so on every
reconnect) the consumer sends the whole current table for *its* viewer; after every committed
change the group `game.<id>` is told, and each consumer renders its own viewer's view, so no
fragment ever holds another player's hidden cards. Moves go through the same service as
everything else; errors go to the sender only.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from .messages import BadMessage, parse_move_message
from .realtime import game_group
from .rendering import render_table
from .selectors import game_access
from .services import game_apply_move
from .tasks import schedule_bot_moves

CLOSE_NOT_ALLOWED = 4403


def _db(func):
    """Run database work in the thread pool. Channels' default runs every consumer of a process
    in one thread, so one table's queries (or a move waiting for its broadcast) would stall
    every other table; each consumer still handles its own messages one at a time, in order."""
    return database_sync_to_async(func, thread_sensitive=False)


class GameConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        user = self.scope.get("user")
        game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.access = None
        if user is not None and user.is_authenticated:
            self.access = await _db(game_access)(user=user, game_id=game_id)
        if self.access is None or self.access.game.state is None:
            # Not theirs to see, or a table still gathering players (its page is the lobby).
            await self.close(code=CLOSE_NOT_ALLOWED)
            return
        self.game_id = game_id
        self.group = game_group(game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_table()
        # A bot whose turn it is may have been interrupted (a server restart): wake it. Its
        # moves are idempotent, so a second wake-up from another viewer changes nothing.
        await _db(schedule_bot_moves)(game_id=game_id)

    async def disconnect(self, code):
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if not self.access.can_move:
            await self.send_table(notice="You are watching this game, so you can't make moves here.")
            return
        try:
            message = parse_move_message(text_data)
        except BadMessage as exc:
            await self.send_table(notice=str(exc))
            return
        result = await _db(game_apply_move)(
            game_id=self.game_id, seat=self.access.seat, action=message.action,
            expected_version=message.expected_version, idempotency_key=message.idempotency_key,
            answer=message.answer,
        )
        if not result.applied:
            # The broadcast only follows applied moves; the sender alone hears why not.
            await self.send_table(notice=result.message)

    async def game_changed(self, event):
        await self.send_table()

    async def send_table(self, notice: str = ""):
        html = await _db(render_table)(
            game_id=self.game_id, seat=self.access.seat, coach=self.access.coach, notice=notice)
        await self.send(text_data=html)
