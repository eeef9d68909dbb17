"""WebSocket URL routes, gathered from the apps; any other path is closed with 4404."""

from django.conf import settings
from django.urls import path, re_path

from arena.consumers.player import ArenaPlayerConsumer
from arena.consumers.screen import ArenaScreenConsumer
from config.echo import EchoConsumer, WriteEchoConsumer
from config.ws_security import NoSuchSocket
from games.consumers.table import GameConsumer
from games.consumers.lobby import LobbyConsumer
from reports.consumers import DashboardConsumer

websocket_urlpatterns = [
    path("ws/game/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/reports/class/<int:classroom_id>/", DashboardConsumer.as_asgi()),
    path("ws/lobby/<int:game_id>/", LobbyConsumer.as_asgi()),
    path("ws/arena/<int:arena_id>/screen/", ArenaScreenConsumer.as_asgi()),
    path("ws/arena/<int:arena_id>/me/", ArenaPlayerConsumer.as_asgi()),
]

if settings.WS_ECHO:
    # The latency benchmark's floor and the socket smoke tests only (WS_ECHO=1): production
    # serves no echo.
    websocket_urlpatterns += [path("ws/echo/", EchoConsumer.as_asgi()),
                              path("ws/echo/write/", WriteEchoConsumer.as_asgi())]

# Last: every path nothing above serves (config/ws_security.py says why).
websocket_urlpatterns += [re_path(r"", NoSuchSocket.as_asgi())]
