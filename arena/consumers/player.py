"""Placeholder: replaced by the arena UI work."""
from channels.generic.websocket import AsyncWebsocketConsumer


class ArenaPlayerConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        await self.close(code=4403)
