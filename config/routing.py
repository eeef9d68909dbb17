"""WebSocket URL routes, gathered from the apps."""

from django.urls import path

from accounts.consumers import EchoConsumer
from games.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/echo/", EchoConsumer.as_asgi()),
    path("ws/game/<int:game_id>/", GameConsumer.as_asgi()),
]
