"""ASGI WebSocket smoke test through the real application stack (origin check, session auth,
channel layer: Redis when REDIS_URL is set)."""

import os

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from config.asgi import application
from games.models import Game
from games.services import SeatSpec, game_create
from tests.sockets import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def communicator(cookie: bytes | None, origin: bytes = b"http://127.0.0.1",
                 path: str = "/ws/echo/") -> WebsocketCommunicator:
    headers = [(b"origin", origin), (b"host", b"127.0.0.1")]
    if cookie:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, path, headers=headers)


@pytest.mark.asyncio
async def test_signed_in_user_gets_an_echo(teacher_async):
    comm = communicator(teacher_async)
    connected, _ = await comm.connect()
    assert connected
    await comm.send_json_to({"hello": "world"})
    reply = await comm.receive_json_from(timeout=5)
    assert reply == {"echo": {"hello": "world"}, "user": "Ms Echo"}
    await comm.disconnect()


@pytest.mark.asyncio
async def test_anonymous_is_refused():
    comm = communicator(None)
    connected, code = await comm.connect()
    assert not connected and code == 4401


@pytest.mark.asyncio
@pytest.mark.parametrize("origin, host", [
    (b"http://evil.example", b"127.0.0.1"),
    (b"http://127.0.0.1:8001", b"127.0.0.1"),  # another port of the same host
    (b"https://127.0.0.1", b"127.0.0.1"),  # another scheme (the socket is plain ws)
    (b"http://127.0.0.1", b"127.0.0.1:8000"),  # the page's port is not the socket's
    (b"http://evil.example", b"evil.example"),  # a host the site does not serve
    (b"", b"127.0.0.1"),  # no Origin at all
])
async def test_a_socket_from_another_origin_is_refused(teacher_async, origin, host):
    headers = [(b"host", host), (b"cookie", teacher_async)] + ([(b"origin", origin)] if origin else [])
    comm = WebsocketCommunicator(application, "/ws/echo/", headers=headers)
    connected, _ = await comm.connect()
    assert not connected


@pytest.mark.asyncio
@pytest.mark.parametrize("origin, host", [(b"http://127.0.0.1:8000", b"127.0.0.1:8000"),
                                          (b"http://localhost", b"localhost:80")])
async def test_the_sites_own_origin_with_its_port_is_accepted(teacher_async, origin, host):
    comm = WebsocketCommunicator(application, "/ws/echo/",
                                 headers=[(b"origin", origin), (b"host", host), (b"cookie", teacher_async)])
    connected, _ = await comm.connect()
    assert connected
    await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.parametrize("path", ["/ws/nothing/", "/ws/game/abc/", "/favicon.ico"])
async def test_an_unknown_socket_path_is_closed_cleanly(teacher_async, path):
    """Channels' router raised "No route found" for these: a 500 and a traceback."""
    comm = communicator(teacher_async, path=path)
    connected, _ = await comm.connect()
    assert connected
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    await comm.wait()


def test_channel_layer_matches_environment():
    # With Redis: channels-redis's pub/sub layer (ours publishes without a lock) unless
    # CHANNEL_LAYER=core asks for its core layer (config/settings/base.py says why).
    if not os.environ.get("REDIS_URL"):
        expected = "channels.layers.InMemoryChannelLayer"
    elif os.environ.get("CHANNEL_LAYER", "pubsub") == "pubsub":
        expected = "config.channel_layer.PubSubChannelLayer"
    else:
        expected = "config.channel_layer.CoreChannelLayer"
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == expected


@pytest.fixture
def teacher_async(make_teacher):
    return session_cookie(make_teacher(name="Ms Echo"))


@pytest.mark.asyncio
async def test_the_write_floor_echoes_after_writing_the_game_row_and_changes_nothing_a_player_sees(
        classroom, student):
    """The latency bench's write floor (devtools/bench): the echo comes once the game's row was
    locked, read with its seats and written back; the game itself is as it was."""
    game = await sync_to_async(game_create)(key="multiplication", classroom=classroom, seed=3,
                                            seats=[SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="beginner")])
    comm = communicator(await sync_to_async(session_cookie)(student), path="/ws/echo/write/")
    assert (await comm.connect())[0]
    await comm.send_json_to({"n": 1})
    assert (await comm.receive_json_from(timeout=5))["echo"] == {"n": 1}
    await comm.disconnect()
    after = await Game.objects.aget(pk=game.pk)
    assert after.updated_at > game.updated_at
    assert (after.version, after.state, after.recent_events) == (game.version, game.state, game.recent_events)
