"""A connection check: an authenticated WebSocket that echoes through the channel layer.

Used by the smoke test and as the latency floor of the play benchmark. Each message makes a
round trip through the channel layer (Redis when REDIS_URL is set), like a game update does.
`WriteEchoConsumer` (`/ws/echo/write/`) is the benchmark's write floor: the same echo, after the
database work every move needs and nothing else.
"""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import transaction

from live.close_codes import CLOSE_SIGNED_OUT
from live.dispatch import DispatchWithoutSweep
from games.models import Game
from games.services import move_store

class EchoConsumer(DispatchWithoutSweep, AsyncJsonWebsocketConsumer):
    # Dispatched as the game's sockets are (without Channels' per-message connection sweep),
    # so the floor holds no cost a move's own path does not pay.
    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        self.group = f"echo.{user.pk}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        await self.channel_layer.group_send(self.group, {"type": "echo.message", "content": content})

    async def echo_message(self, event):
        await self.send_json({"echo": event["content"], "user": self.scope["user"].display_name})

    @classmethod
    async def decode_json(cls, text_data):
        try:
            return await super().decode_json(text_data)
        except ValueError:
            return {"error": "not JSON"}


def first_game_of(user_id: int) -> int | None:
    return Game.objects.filter(seats__user_id=user_id).order_by("pk").values_list("pk", flat=True).first()


def touch_game(game_id: int) -> None:
    """A move's database work without the move: in one transaction, lock the game and read it
    and its seats (the move service's two reads), write the game's row back (its `updated_at`;
    nothing a player sees changes), and commit. No engine, no insert, no rendering: a lower
    bound on what any move costs the database."""
    with transaction.atomic():
        game, _ = move_store.lock_game(game_id=game_id, idempotency_key="")
        move_store.update(game, ["updated_at"])


class WriteEchoConsumer(EchoConsumer):
    """The echo, sent only once a move's smallest durable write has committed (`touch_game` on
    the signed-in student's first game), so the latency bench can measure what the database
    alone adds to the floor. Served with WS_ECHO=1 only, as the echo is."""

    async def connect(self):
        user = self.scope.get("user")
        self.game_id = (await database_sync_to_async(first_game_of)(user.pk)
                        if user is not None and user.is_authenticated else None)
        await super().connect()

    async def receive_json(self, content, **kwargs):
        if self.game_id is not None:
            await database_sync_to_async(touch_game, thread_sensitive=False)(self.game_id)
        await super().receive_json(content, **kwargs)
