"""Django's Redis cache, keeping one client per connection pool.

Django's RedisCacheClient makes a new `redis.Redis` for every cache call, and building one
fills a table of ~170 response callbacks: about 0.1 ms of CPU, more than the GET itself.
Open sockets read the class's membership version before every move and push
(accounts/membership.py), so that was a measurable share of a move's cost. A `redis.Redis`
is safe to share between threads (each command takes a connection from the pool), so one
per pool is kept and reused.
"""

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class ReusedClientRedisCacheClient(RedisCacheClient):
    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        clients = self.__dict__.setdefault("_clients_by_pool", {})
        client = clients.get(id(pool))
        if client is None:
            client = clients[id(pool)] = self._client(connection_pool=pool)
        return client


class ReusedClientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient

    def count_and_get_many(self, key: str, *, timeout: float, keys: list[str]) -> tuple[int, dict]:
        """Add one to `key` (made with `timeout` when new) and read `keys`: one round trip,
        where Django's incr (EXISTS, INCR) and get_many (MGET) take three. A person's move
        limit counts every move this way (live/limits.py)."""
        counted = self.make_and_validate_key(key)
        read = {self.make_and_validate_key(k): k for k in keys}
        pipeline = self._cache.get_client(counted, write=True).pipeline(transaction=False)
        pipeline.incr(counted)
        pipeline.expire(counted, max(1, int(timeout)), nx=True)
        pipeline.mget(list(read))
        count, _, values = pipeline.execute()
        return count, {read[k]: self._cache._serializer.loads(v)
                       for k, v in zip(read, values) if v is not None}
