"""WebSocket URL routes, gathered from the apps."""

from django.urls import path

from accounts.consumers import EchoConsumer
from classroom.reports.consumers import DashboardConsumer
from games.consumers import GameConsumer
from games.lobby_consumer import LobbyConsumer

websocket_urlpatterns = [
    path("ws/echo/", EchoConsumer.as_asgi()),
    path("ws/game/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/reports/class/<int:classroom_id>/", DashboardConsumer.as_asgi()),
    path("ws/table/<int:game_id>/", LobbyConsumer.as_asgi()),
]
