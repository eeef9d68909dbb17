"""A connection check: an authenticated WebSocket that echoes through the channel layer.

Used by the smoke test and as the latency floor of the play benchmark. Each message makes a
round trip through the channel layer (Redis when REDIS_URL is set), like a game update does.
"""

from channels.generic.websocket import AsyncJsonWebsocketConsumer

NOT_SIGNED_IN = 4401


class EchoConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=NOT_SIGNED_IN)
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
