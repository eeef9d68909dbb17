"""Two runs of the suite (or two xdist workers) sharing one Redis never see each other's
channel groups, cache entries or Celery tasks, and a run removes its own keys, only those.

Game ids restart at 1 in every test database, so without a prefix per run the table of game 1
in one run would be the table of game 1 in the other (config/settings/test.py)."""

import asyncio
import uuid

import pytest
import redis
from django.utils.module_loading import import_string
from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache

from config.celery import app
from config.settings.test import redis_settings_for_run, run_key_prefix
from tests.run_isolation import run_keys, run_keys_delete

RUN, NEIGHBOUR = "3f9c0a1b2d-gw0", "3f9c0a1b2d-gw1"


def test_two_run_ids_give_different_prefixes_queues_and_channel_groups():
    mine, theirs = redis_settings_for_run(RUN), redis_settings_for_run(NEIGHBOUR)
    assert run_key_prefix(RUN) != run_key_prefix(NEIGHBOUR)
    for run_id, made in ((RUN, mine), (NEIGHBOUR, theirs)):
        prefix = run_key_prefix(run_id)
        assert made["CHANNEL_LAYERS"]["default"]["CONFIG"]["prefix"].startswith(prefix)
        assert made["CACHES"]["default"]["KEY_PREFIX"].startswith(prefix)
        assert made["CELERY_BROKER_TRANSPORT_OPTIONS"]["global_keyprefix"].startswith(prefix)
        assert made["CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS"]["global_keyprefix"].startswith(prefix)
        assert run_id in made["CELERY_TASK_DEFAULT_QUEUE"]
    assert mine["CELERY_TASK_DEFAULT_QUEUE"] != theirs["CELERY_TASK_DEFAULT_QUEUE"]
    # The broker's other options (visibility timeout) are kept.
    assert mine["CELERY_BROKER_TRANSPORT_OPTIONS"]["visibility_timeout"] == \
        settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]


def test_this_run_uses_its_own_id_everywhere(require_redis):
    own = redis_settings_for_run(settings.TEST_RUN_ID)
    assert settings.TEST_RUN_KEY_PREFIX == run_key_prefix(settings.TEST_RUN_ID)
    assert settings.CHANNEL_LAYERS == own["CHANNEL_LAYERS"]
    assert settings.CACHES == own["CACHES"]
    assert app.conf.task_default_queue == own["CELERY_TASK_DEFAULT_QUEUE"]
    assert app.conf.broker_transport_options["global_keyprefix"] == \
        own["CELERY_BROKER_TRANSPORT_OPTIONS"]["global_keyprefix"]


def _layer_of(layers: dict):
    """A layer of the site's kind (pub/sub or core) with these settings' config."""
    return import_string(layers["default"]["BACKEND"])(**layers["default"]["CONFIG"])


async def _close(layer) -> None:
    if hasattr(type(layer), "close_pools"):
        await layer.close_pools()  # the core layer
    else:
        await layer.flush()  # the pub/sub layer: its subscriptions and connections on this loop


@pytest.mark.asyncio
async def test_a_push_to_a_table_of_another_run_never_arrives(require_redis):
    # Layers of their own (this run's settings, another run's), not the process's shared one:
    # a receive cut short by the timeout below would leave that one's lock on this test's loop.
    ours = _layer_of(settings.CHANNEL_LAYERS)
    theirs = _layer_of(redis_settings_for_run(f"{uuid.uuid4().hex[:10]}-gw9")["CHANNEL_LAYERS"])
    channel = await ours.new_channel()
    await ours.group_add("game-1", channel)
    # One receive, never cut short: the pub/sub layer takes a cancelled receive for a socket
    # that closed and drops its queue.
    receiving = asyncio.ensure_future(ours.receive(channel))
    try:
        await theirs.group_send("game-1", {"type": "game.changed", "version": 7})
        done, _ = await asyncio.wait({receiving}, timeout=0.5)
        assert not done, "another run's push arrived"
        await ours.group_send("game-1", {"type": "game.changed", "version": 8})
        assert (await asyncio.wait_for(receiving, timeout=5))["version"] == 8
    finally:
        receiving.cancel()
        await ours.group_discard("game-1", channel)
        await theirs.flush()  # its own prefix only
        await _close(ours)
        await _close(theirs)


def test_a_cache_entry_of_another_run_is_not_read(require_redis):
    theirs = RedisCache(settings.CACHE_REDIS_URL,
                        {"KEY_PREFIX": redis_settings_for_run(f"{uuid.uuid4().hex[:10]}-gw9")
                         ["CACHES"]["default"]["KEY_PREFIX"]})
    theirs.set("membership:1", 41)
    try:
        cache.set("membership:1", 1)
        assert cache.get("membership:1") == 1 and theirs.get("membership:1") == 41
    finally:
        theirs.delete("membership:1")
        cache.delete("membership:1")


def test_the_cleanup_deletes_the_runs_keys_and_no_others(require_redis):
    client = redis.Redis.from_url(settings.REDIS_URL)
    runs = [run_key_prefix(f"{uuid.uuid4().hex[:10]}-gw{n}") for n in range(2)]
    finished, still_running = runs
    for prefix in runs:
        client.set(f"{prefix}cache:1:membership:1", 1)
        client.rpush(f"{prefix}celery:numberdeck-test-queue", "a task")
    outsider = f"numberdeck-test-not-a-run-{uuid.uuid4().hex}"  # another program's key
    client.set(outsider, 1, ex=60)
    try:
        assert run_keys_delete(url=settings.REDIS_URL, prefix=finished) == 2
        assert run_keys(url=settings.REDIS_URL, prefix=finished) == []
        assert len(run_keys(url=settings.REDIS_URL, prefix=still_running)) == 2
        assert client.exists(outsider)
    finally:
        run_keys_delete(url=settings.REDIS_URL, prefix=still_running)
        client.delete(outsider)
        client.close()
