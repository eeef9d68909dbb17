"""The ASGI app with timing probes, for `arena_bench.py --probe DIR` only: where a move waits.

A live-play latency is the sum of waits in one web process: the event loop (WebSocket framing,
the channel layer), the thread pool that runs `database_sync_to_async` calls (queries,
rendering, moves) and the GIL that all threads share. The probes time each of them, so a tail
can be put down to one:

- **loop lag**: a task asks to wake every 5 ms and records how late it woke (a loop blocked or
  starved of the GIL wakes late);
- **each pool call**, by the function's name: queued (called on the loop -> started in a
  thread), ran (in the thread), and resumed (finished in the thread -> the caller running on
  the loop again);
- **the arena ticker's passes**: wall and thread CPU time.

SIGUSR1 clears the figures (the measured window starts), SIGUSR2 writes DIR/<pid>.json.
"""

import asyncio
import copy
import json
import os
import signal
import sys
import threading
import time

from channels.db import DatabaseSyncToAsync

from config.asgi import application  # noqa: F401  (what Daphne serves)

DIR = os.environ["BENCH_PROBE_DIR"]
if os.environ.get("BENCH_SWITCH_INTERVAL"):  # an experiment: the GIL's switch interval (s)
    sys.setswitchinterval(float(os.environ["BENCH_SWITCH_INTERVAL"]))
_lock = threading.Lock()
_figures: dict[str, list[float]] = {}


def _record(name: str, value_ms: float) -> None:
    with _lock:
        _figures.setdefault(name, []).append(value_ms)


_original_call = DatabaseSyncToAsync.__call__


async def _probed_call(self, *args, **kwargs):
    # asgiref runs `self.func` in the worker thread: wrapped, it notes when it started and ended.
    times = [time.perf_counter(), None, None]
    func = self.func

    def timed(*a, **kw):
        times[1] = time.perf_counter()
        try:
            return func(*a, **kw)
        finally:
            times[2] = time.perf_counter()

    call = copy.copy(self)  # one instance may serve concurrent calls (a decorated function)
    call.func = timed
    try:
        return await _original_call(call, *args, **kwargs)
    finally:
        done = time.perf_counter()
        if times[1] is not None and times[2] is not None:
            name = getattr(func, "__qualname__", repr(func))
            _record(f"pool queued {name}", (times[1] - times[0]) * 1000)
            _record(f"pool ran {name}", (times[2] - times[1]) * 1000)
            _record(f"pool resumed {name}", (done - times[2]) * 1000)


DatabaseSyncToAsync.__call__ = _probed_call


def _probe_ticker() -> None:
    from arena import ticker

    original_tick = ticker.tick

    def tick():
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return original_tick()
        finally:
            _record("ticker pass wall", (time.perf_counter() - wall) * 1000)
            _record("ticker pass cpu", (time.thread_time() - cpu) * 1000)

    ticker.tick = tick


_probe_ticker()


def _probe_layer_and_cache() -> None:
    """A group_send's time on the loop; a send_to_group's time in its thread (the hop to the
    loop and back included); a cache read's time (the membership version, in threads)."""
    from channels_redis.core import RedisChannelLayer
    from channels_redis.pubsub import RedisPubSubLoopLayer  # the site's layer extends it
    from django.core.cache import caches

    from live import groups as realtime

    original_group_send = RedisChannelLayer.group_send

    async def group_send(self, group, message, original=original_group_send):
        t = time.perf_counter()
        message = {**message, "_probe_sent": time.time()}  # read back on arrival (below)
        try:
            return await original(self, group, message)
        finally:
            kind = group.split(".")[0] + ("." + group.split(".")[2] if group.startswith("arena.") else "")
            _record(f"layer group_send {kind}", (time.perf_counter() - t) * 1000)

    RedisChannelLayer.group_send = group_send
    original_pubsub_group_send = RedisPubSubLoopLayer.group_send

    async def pubsub_group_send(self, group, message):
        return await group_send(self, group, message, original=original_pubsub_group_send)

    RedisPubSubLoopLayer.group_send = pubsub_group_send

    from channels.consumer import AsyncConsumer
    original_dispatch = AsyncConsumer.dispatch

    async def dispatch(self, message):
        sent = message.get("_probe_sent") if isinstance(message, dict) else None
        if sent is not None:
            _record(f"layer transit {message.get('type')}", (time.time() - sent) * 1000)
        return await original_dispatch(self, message)

    AsyncConsumer.dispatch = dispatch

    original_send_to_group = realtime.send_to_group

    def send_to_group(group, message):
        t = time.perf_counter()
        try:
            return original_send_to_group(group, message)
        finally:
            name = threading.current_thread().name.split("_")[0]
            _record(f"send_to_group from {name}", (time.perf_counter() - t) * 1000)

    realtime.send_to_group = send_to_group
    import arena.realtime
    import games.realtime
    import reports.realtime
    for module in (arena.realtime, games.realtime, reports.realtime):
        module.send_to_group = send_to_group

    backend = type(caches["default"])
    original_get = backend.get

    def get(self, *args, **kwargs):
        t = time.perf_counter()
        try:
            return original_get(self, *args, **kwargs)
        finally:
            _record("cache get", (time.perf_counter() - t) * 1000)

    backend.get = get


_probe_layer_and_cache()


async def _loop_lag(every: float = 0.005) -> None:
    while True:
        t = time.perf_counter()
        await asyncio.sleep(every)
        _record("loop lag", (time.perf_counter() - t - every) * 1000)


_started = False


def _start_lag_probe() -> None:
    """On the server's loop, once it runs (Daphne's asyncio reactor)."""
    global _started
    if _started:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    _started = True
    loop.create_task(_loop_lag())


_app = application


async def application(scope, receive, send):  # noqa: F811 - the probed app Daphne serves
    _start_lag_probe()
    return await _app(scope, receive, send)


def _clear(signum, frame):
    with _lock:
        _figures.clear()


def _dump(signum, frame):
    with _lock:
        figures = {k: list(v) for k, v in _figures.items()}
    with open(os.path.join(DIR, f"{os.getpid()}.json"), "w") as f:
        json.dump(figures, f)


signal.signal(signal.SIGUSR1, _clear)
signal.signal(signal.SIGUSR2, _dump)
