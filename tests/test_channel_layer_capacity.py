"""A burst of pushes to the sockets of one web process all arrive, in order.

channels-redis's core layer keeps every message for one process's sockets in one Redis key and
drops a group message over its capacity (logged only at INFO). Its default, 100, was passed in a
600-student arena's bursts, and tables silently missed moves (devtools/bench/README.md,
"Arena"). The site now uses the pub/sub layer (config/channel_layer.py), which keeps no such
queue; with CHANNEL_LAYER=core the core layer is configured with more room
(config/settings/base.py `CHANNEL_LAYER_CAPACITY`). Against the real Redis layer, as configured
for the site."""

import asyncio

import pytest
from channels.layers import get_channel_layer

pytestmark = pytest.mark.asyncio

BURST = 300  # pushes queued for one process before its sockets read any (3x the default)


async def test_a_burst_of_group_pushes_to_one_process_is_not_dropped(require_redis):
    layer = get_channel_layer()
    socket = await layer.new_channel()  # one socket of one web process, not reading yet
    group = "capacity-test"
    await layer.group_add(group, socket)
    try:
        for number in range(BURST):
            await layer.group_send(group, {"type": "game.changed", "number": number})
        # A dropped push would never come: wait a few seconds at most for each.
        received = [(await asyncio.wait_for(layer.receive(socket), timeout=5))["number"]
                    for _ in range(BURST)]
        assert received == list(range(BURST))
    finally:
        await layer.group_discard(group, socket)
