"""channels-redis's layers as the site runs them: the pub/sub layer publishing without waiting
in line, and the core layer keeping a process's own channels on one shard.

Each web process keeps one `RedisSingleShardConnection` per Redis host, and channels-redis holds
one asyncio lock around every publish, subscribe and unsubscribe on it: a process's pushes went
out one Redis round trip at a time, and in a 600-student arena a burst (a round seating
students, sockets opening) queued the moves' pushes behind it (p95 ~45 ms per publish, ~180 ms
for the arena's; devtools/bench/README.md, "What the arena runs taught"). A PUBLISH needs no
ordering with the subscriptions, and redis-py runs concurrent commands on connections of its own
from the pool, so publishing here takes no lock. Two pushes to one group may then arrive out of
order; each table socket drops a table older than the one it already sent
(games/consumers/table.py `Sent`); a student's arena page and a dashboard re-read the database
whatever the push says, and a projector shown an older fragment gets the next one a round later.
Subscriptions keep the lock: the layer's book of who listens to what must change one step at a
time.
"""

from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection


class UnqueuedShardConnection(RedisSingleShardConnection):
    async def publish(self, channel, message):
        self._ensure_redis()
        await self._redis.publish(channel, message)


class PubSubChannelLayer(RedisPubSubChannelLayer):
    """The pub/sub layer whose per-loop layers publish through `UnqueuedShardConnection`s."""

    def _get_layer(self):
        layer = super()._get_layer()
        if not getattr(layer, "unqueued", False):
            # Swapped as the loop's layer is made, before any use (a shard connects lazily).
            layer._shards = [UnqueuedShardConnection(shard.host, layer) for shard in layer._shards]
            layer.unqueued = True
        return layer


class CoreChannelLayer(RedisChannelLayer):
    """channels-redis's core layer (CHANNEL_LAYER=core), sharded correctly over several Redis
    servers (CHANNEL_REDIS_URLS).

    A process's own channels ("specific.<process>!<socket>") are read from one list per
    process, on the shard its name up to the "!" hashes to; a group send hashes that same part,
    but a direct `send` to one socket's channel (4.3.0) hashes the whole name: with two shards
    about half such messages went to a list nobody reads (tests/scaleout/test_sharded_layer.py).
    Hashing only the process's part everywhere sends each where it is read. Group names cannot
    hold a "!", and with one server every name is on it: nothing else changes.
    """

    def consistent_hash(self, value):
        if isinstance(value, str) and "!" in value:
            value = value[:value.index("!") + 1]
        return super().consistent_hash(value)
