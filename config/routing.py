"""WebSocket URL routes, gathered from the apps."""

from django.urls import path

from accounts.consumers import EchoConsumer

websocket_urlpatterns = [
    path("ws/echo/", EchoConsumer.as_asgi()),
]
