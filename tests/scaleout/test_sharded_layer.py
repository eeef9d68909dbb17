"""The channel layer sharded over two Redis servers, as CHANNEL_REDIS_URLS configures it
(config/settings/base.py), for both layers the site can run: two layers here stand for two
web processes, each with a socket in the same groups.

channels-redis hashes each group's name onto one shard (the same one in every process: CRC32 of
the name); the pub/sub layer subscribes each process to a group on that shard and publishes the
group's messages there, and our layer (config/channel_layer.py) keeps that for every shard it
is given. So a group push reaches the sockets of every process, whichever shard the group is on.
"""

from __future__ import annotations

import asyncio

import pytest
from channels_redis.utils import _consistent_hash
from redis import asyncio as aioredis

from config.channel_layer import CoreChannelLayer, PubSubChannelLayer
from config.settings.base import channel_layer_host, pubsub_prefix

PREFIX = "scaleout-layer:"
GROUPS = [f"game.{n}" for n in range(12)]


async def _subscribed(urls: list[str], expected: dict[int, dict[bytes, int]]) -> bool:
    for shard, url in enumerate(urls):
        client = aioredis.Redis.from_url(url)
        try:
            counts = dict(await client.pubsub_numsub(*expected[shard]))
        finally:
            await client.aclose()
        if counts != expected[shard]:
            return False
    return True


async def _until(condition, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await condition():
        assert loop.time() < deadline, "the subscriptions never reached Redis"
        await asyncio.sleep(0.02)


def _layer(kind: str, urls: list[str]):
    hosts = [channel_layer_host(url) for url in urls]
    if kind == "pubsub":
        return PubSubChannelLayer(hosts=hosts, prefix=PREFIX)
    return CoreChannelLayer(hosts=hosts, prefix=PREFIX)


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["pubsub", "core"])
async def test_a_group_push_reaches_both_processes_whichever_shard_holds_the_group(redis_shards, kind):
    urls = [shard.url() for shard in redis_shards]
    layers = [_layer(kind, urls), _layer(kind, urls)]  # two web processes
    channels = [await layer.new_channel() for layer in layers]
    try:
        for group in GROUPS:
            for layer, channel in zip(layers, channels):
                await layer.group_add(group, channel)
        if kind == "pubsub":
            # Each group on one shard, both processes listening there (a SUBSCRIBE is not
            # answered before the command returns: publish only once Redis counts them).
            names = {f"{PREFIX}__group__{g}".encode(): 2 for g in GROUPS}
            expected = {s: {n: c for n, c in names.items() if _consistent_hash(n, 2) == s} for s in (0, 1)}
            assert expected[0] and expected[1], "the groups should fall on both shards"
            await _until(lambda: _subscribed(urls, expected))
        for group in GROUPS:
            await layers[0].group_send(group, {"type": "game.changed", "group": group})
        for layer, channel in zip(layers, channels):
            heard = [await asyncio.wait_for(layer.receive(channel), 5) for _ in GROUPS]
            assert sorted(m["group"] for m in heard) == sorted(GROUPS)
        # A message for one socket's own channel, from the other process, reaches it too:
        # sockets whose names hash onto either shard (the core layer of channels-redis 4.3.0
        # lost about half of these: config/channel_layer.py).
        sockets = [await layers[1].new_channel() for _ in range(8)]
        for n, socket in enumerate(sockets):
            await layers[0].send(socket, {"type": "echo.message", "n": n})
        assert [(await asyncio.wait_for(layers[1].receive(s), 5))["n"] for s in sockets] == list(range(8))
    finally:
        for layer, channel in zip(layers, channels):
            for group in GROUPS:
                await layer.group_discard(group, channel)
            await layer.flush()
            if kind == "core":
                await layer.close_pools()


def test_the_pubsub_prefix_carries_each_shards_database_number():
    assert pubsub_prefix(["redis://a:6379/3"]) == "asgi-db3:"
    assert pubsub_prefix(["redis://a:6379/3", "redis://b:6379/3"]) == "asgi-db3:"
    assert pubsub_prefix(["redis://a:6379", "redis://b:6379/2"]) == "asgi-db0-2:"
