"""config/cache.py `count_and_get_many`: a count and a read in one round trip on Redis, with the
same answers Django's incr and get_many would give (a person's move limit counts each move so)."""

import pytest
from django.core.cache import caches

from config.cache import ReusedClientRedisCache


@pytest.mark.redis
def test_counts_sets_the_lifetime_once_and_reads_the_other_keys(require_redis, settings):
    cache = caches.create_connection("default")
    assert isinstance(cache, ReusedClientRedisCache)
    cache.delete_many(["count", "other", "missing"])
    cache.set("other", {"paused": True}, 60)
    assert cache.count_and_get_many("count", timeout=30, keys=["other", "missing"]) == (1, {"other": {"paused": True}})
    assert cache.count_and_get_many("count", timeout=30, keys=[]) == (2, {})
    client = cache._cache.get_client(cache.make_and_validate_key("count"))
    assert 0 < client.ttl(cache.make_and_validate_key("count")) <= 30
    cache.touch("count", 5)  # a later count keeps the lifetime it has (it is a window's count)
    cache.count_and_get_many("count", timeout=30, keys=[])
    assert client.ttl(cache.make_and_validate_key("count")) <= 5
    assert cache.incr("count") == 4 and cache.get("count") == 4  # Django reads the same number
    cache.delete_many(["count", "other"])
