"""A push sent from a web process's database thread is handed to the server's loop: the
thread goes on without waiting for it (it held one of the few database threads for a round
trip through the loop on every move), the message still arrives, and a failure on the way is
logged, never raised into the move that already committed."""

import asyncio
import logging

import pytest
import redis.exceptions
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from live import groups as realtime


class GatedLayer:
    """A channel layer whose group_send waits until the test opens the gate."""

    def __init__(self, fail: bool = False):
        self.gate = asyncio.Event()
        self.sent: list[tuple[str, dict]] = []
        self.fail = fail

    async def group_send(self, group, message):
        await self.gate.wait()
        if self.fail:
            raise redis.exceptions.ConnectionError("Redis went away")
        self.sent.append((group, message))


@pytest.mark.asyncio
async def test_a_database_thread_does_not_wait_for_the_push(monkeypatch):
    layer = GatedLayer()
    monkeypatch.setattr(realtime, "get_channel_layer", lambda: layer)
    # If the thread waited for the send, this would never return while the gate is shut.
    told = await asyncio.wait_for(
        database_sync_to_async(realtime.send_to_group, thread_sensitive=False)(
            "game.7", {"type": "game.changed", "version": 3}), timeout=5)
    assert told is True and layer.sent == []
    layer.gate.set()
    for _ in range(100):
        if layer.sent:
            break
        await asyncio.sleep(0.01)
    assert layer.sent == [("game.7", {"type": "game.changed", "version": 3})]


@pytest.mark.asyncio
async def test_a_push_that_fails_on_the_loop_is_logged(monkeypatch, caplog):
    layer = GatedLayer(fail=True)
    monkeypatch.setattr(realtime, "get_channel_layer", lambda: layer)
    with caplog.at_level(logging.WARNING, logger="live.groups"):
        told = await database_sync_to_async(realtime.send_to_group, thread_sensitive=False)(
            "game.8", {"type": "game.changed"})
        layer.gate.set()
        for _ in range(100):
            if "were not told" in caplog.text:
                break
            await asyncio.sleep(0.01)
    assert told is True
    assert "game.8 changed but its pages were not told" in caplog.text


@pytest.mark.asyncio
async def test_a_handed_over_push_reaches_a_socket_of_the_group():
    layer = get_channel_layer()
    socket = await layer.new_channel()
    await layer.group_add("handover-test", socket)
    try:
        await database_sync_to_async(realtime.send_to_group, thread_sensitive=False)(
            "handover-test", {"type": "game.changed", "version": 5})
        message = await asyncio.wait_for(layer.receive(socket), timeout=5)
        assert message["version"] == 5
    finally:
        await layer.group_discard("handover-test", socket)


def test_outside_a_server_the_send_is_made_and_waited_for(monkeypatch):
    layer = GatedLayer()
    layer.gate.set()
    monkeypatch.setattr(realtime, "get_channel_layer", lambda: layer)
    assert realtime.send_to_group("game.9", {"type": "game.changed"}) is True
    assert layer.sent == [("game.9", {"type": "game.changed"})]  # already there: it waited


def test_the_ticker_thread_hands_over_to_its_own_process_loop_only(monkeypatch):
    """A thread that is no database thread (the arena's ticker) uses the loop a database thread
    of this process named; a loop named before a fork (another pid) is never used."""
    import os
    import threading
    import time

    from asgiref.sync import SyncToAsync

    # This thread names no loop of its own (an earlier test's async_to_sync may have left one).
    monkeypatch.delattr(SyncToAsync.threadlocal, "main_event_loop", raising=False)
    loop = asyncio.new_event_loop()
    running = threading.Thread(target=loop.run_forever, daemon=True)
    running.start()
    try:
        layer = GatedLayer()
        monkeypatch.setattr(realtime, "get_channel_layer", lambda: layer)
        monkeypatch.setattr(realtime, "_loop", (os.getpid() + 1, loop))  # the parent's, after a fork
        layer.gate.set()
        assert realtime.send_to_group("game.10", {"type": "game.changed"}) is True
        assert layer.sent == [("game.10", {"type": "game.changed"})]  # sent here, and waited for

        gated = GatedLayer()
        monkeypatch.setattr(realtime, "get_channel_layer", lambda: gated)
        monkeypatch.setattr(realtime, "_loop", (os.getpid(), loop))  # this process's server loop
        assert realtime.send_to_group("game.11", {"type": "game.changed"}) is True
        assert gated.sent == []  # handed to the loop, where it waits for the gate
        loop.call_soon_threadsafe(gated.gate.set)
        for _ in range(100):
            if gated.sent:
                break
            time.sleep(0.01)
        assert gated.sent == [("game.11", {"type": "game.changed"})]
    finally:
        loop.call_soon_threadsafe(loop.stop)
        running.join(5)
        loop.close()
