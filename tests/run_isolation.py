"""One run's Redis keys (config/settings/test.py gives each run and xdist worker its own
prefix): deleted at the end of the run, and nobody else's with them."""

import re

import redis


def run_keys(*, url: str, prefix: str) -> list[bytes]:
    """The keys under `prefix` (channel groups and messages, cache entries, Celery's queue,
    bindings and unacked messages)."""
    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        return list(client.scan_iter(match=f"{_glob_escaped(prefix)}*", count=1000))
    finally:
        client.close()


def run_keys_delete(*, url: str, prefix: str) -> int:
    """Delete every key under `prefix` (never a FLUSHDB: other runs, and other programs, may
    share the database); returns how many there were."""
    keys = run_keys(url=url, prefix=prefix)
    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        for start in range(0, len(keys), 500):
            client.unlink(*keys[start:start + 500])
    finally:
        client.close()
    return len(keys)


def _glob_escaped(text: str) -> str:
    return re.sub(r"([\\*?\[\]])", r"\\\1", text)
