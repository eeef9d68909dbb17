"""Connecting while the channel layer (Redis) is unreachable, or has just come back.

After Redis restarts, each connection the layer's client pool held from before fails once with
"Connection closed by server" (redis-py's pools do not retry by default). A socket connecting
then must not crash: joining its group is tried again at once, and if the layer is really
down the socket is accepted and closed with 4013 ("try again later": Daphne cannot send 1013),
after which the page reconnects by itself. The outage is logged once, not once per socket.
"""

import logging
import os
import uuid

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer
from django.db import OperationalError

from config.settings.base import channel_layer_host

from live import close_codes, guard
from games.consumers.table import Viewer
from games.services import SeatSpec, game_create
from tests.conftest import redis_available
from tests.sockets import connect_as

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def game(classroom, student):
    return game_create(key="multiplication", classroom=classroom, seed=3,
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="expert")])


@pytest.fixture(autouse=True)
def fresh_log_state(monkeypatch):
    monkeypatch.setattr(guard, "_layer_trouble_logged", False)


@pytest.fixture
def in_memory_layer(settings):
    """These tests break the in-memory layer on purpose, also where REDIS_URL gives a Redis
    layer (CI): the setting change makes Channels build its layers again."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def failing_group_add(monkeypatch, failures: int):
    """The in-memory layer's group_add fails `failures` times, as a dead connection would."""
    real = InMemoryChannelLayer.group_add
    left = {"n": failures}

    async def group_add(self, group, channel):
        if left["n"] > 0:
            left["n"] -= 1
            raise ConnectionError("Connection closed by server.")
        return await real(self, group, channel)

    monkeypatch.setattr(InMemoryChannelLayer, "group_add", group_add)


@pytest.mark.asyncio
async def test_a_connection_that_fails_once_is_tried_again(in_memory_layer, game, student, monkeypatch,
                                                           caplog):
    failing_group_add(monkeypatch, failures=1)
    comm = connect_as(student, game.pk)
    connected, _ = await comm.connect()
    assert connected
    assert 'id="table-board"' in await comm.receive_from(timeout=5)
    assert "unreachable" not in caplog.text
    await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.parametrize("socket", ["game", "lobby", "reports/class"])
async def test_an_unreachable_layer_closes_politely_and_is_logged_once(
        socket, in_memory_layer, game, student, teacher, classroom, monkeypatch, caplog):
    failing_group_add(monkeypatch, failures=100)
    user, object_id = (teacher, classroom.pk) if socket == "reports/class" else (student, game.pk)
    if socket == "lobby":
        user = teacher  # a dealt game's lobby page is still open to its class's teacher
    caplog.set_level(logging.WARNING, logger="live.guard")
    for _ in range(3):
        comm = connect_as(user, object_id, socket=socket)
        connected, _ = await comm.connect()
        assert connected  # accepted, so the page is told "try again later", not "refused"
        output = await comm.receive_output(timeout=5)
        assert output == {"type": "websocket.close", "code": 4013}
        await comm.wait()
    assert caplog.text.count("Channel layer unreachable") == 1
    monkeypatch.undo()
    monkeypatch.setattr(guard, "_layer_trouble_logged", True)
    comm = connect_as(user, object_id, socket=socket)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    assert "reachable again" in caplog.text
    await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", ["config.channel_layer.PubSubChannelLayer",
                                     "config.channel_layer.CoreChannelLayer"])
async def test_the_first_connect_after_redis_dropped_its_connections(require_redis, settings, game, student,
                                                                    backend):
    """Against a real Redis, with either layer the site can run (config/settings/base.py): the
    layer's connections are cut (as a Redis restart does, but only this test's own connections,
    found by their client name), then a page connects."""
    name = f"numberdeck-test-{uuid.uuid4().hex[:8]}"
    url = os.environ["REDIS_URL"]
    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": backend,
        # The site's own host options (a retry on a connection Redis closed, among them).
        "CONFIG": {"hosts": [{**channel_layer_host(url), "client_name": name}],
                   "prefix": f"{name}:"}}}
    admin = redis.Redis.from_url(url)

    def cut_our_connections() -> int:
        ids = [c["id"] for c in admin.client_list() if c.get("name") == name]
        for client_id in ids:
            admin.client_kill_filter(_id=client_id)
        return len(ids)

    for _ in range(2):  # fill the pool with connections that then go stale
        comm = connect_as(student, game.pk)
        assert (await comm.connect())[0]
        await comm.receive_from(timeout=5)
        await comm.disconnect()
    assert await sync_to_async(cut_our_connections)() >= 1
    comm = connect_as(student, game.pk)
    connected, _ = await comm.connect()
    assert connected
    assert 'id="table-board"' in await comm.receive_from(timeout=5)
    await comm.disconnect()


def test_every_close_code_the_sockets_send_is_one_daphne_can_send():
    """Daphne closes through autobahn, which refuses any code but 1000 and 3000-4999 ("invalid
    close code"): the socket is then dropped with no code, and 1011 and 1013 were refused."""
    from autobahn.twisted.websocket import WebSocketServerProtocol

    codes = {name: getattr(close_codes, name) for name in dir(close_codes) if name.startswith("CLOSE_")}
    assert codes["CLOSE_TRY_AGAIN"] not in (1011, 1013) and codes["CLOSE_FAILED"] != 1011
    # Every row the server closes with (not the browser's own "dropped" codes) is one of them.
    assert {row.code for row in close_codes.CODES if row.then != "retried"} == set(codes.values())
    for name, code in codes.items():
        try:
            WebSocketServerProtocol().sendClose(code=code)
        except Exception as exc:  # noqa: BLE001 - past the check, a bare protocol has no transport
            assert "invalid close code" not in str(exc), name


@pytest.mark.asyncio
@pytest.mark.parametrize("method, error, code", [
    # A message whose handling failed (a bug): before, 1011, which Daphne cannot send.
    ("answer", RuntimeError("a bug"), 4011),
    # PostgreSQL restarting as the socket connects: before, a 500 and a traceback.
    ("connect", OperationalError("the database system is shutting down"), 4013),
])
async def test_a_socket_whose_work_fails_closes_with_a_code_the_page_reconnects_on(
        in_memory_layer, game, student, monkeypatch, method, error, code):
    def fails(self, arg):
        raise error

    monkeypatch.setattr(Viewer, method, fails)
    comm = connect_as(student, game.pk, query="v=0")
    assert (await comm.connect())[0]
    if method == "answer":
        await comm.send_to(text_data="{}")
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": code}
    await comm.wait()
