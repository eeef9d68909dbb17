"""The ASGI app under cProfile, for `ws_latency.py --profile DIR` only.

Two kinds of thread do the work: the event loop (Twisted/asyncio: WebSocket framing, the
Redis channel layer) and the threads that run `database_sync_to_async` calls (queries,
rendering, moves). cProfile hooks one thread at a time, so each gets its own profiler, timed in
CPU seconds of that thread (time.thread_time), because the bench's machine is shared and wall
time would mostly measure waiting for a core. SIGUSR1 switches profiling on, SIGUSR2 off; the
profiles are written to DIR/<pid>-main.prof and DIR/<pid>-worker.prof.
"""

import cProfile
import os
import pstats
import signal
import threading
import time

from channels.db import DatabaseSyncToAsync

from config.asgi import application  # noqa: F401  (what Daphne serves)

DIR = os.environ["BENCH_PROFILE_DIR"]
_main = cProfile.Profile(time.thread_time)
_workers: dict[int, cProfile.Profile] = {}
_on = False
_original_handler = DatabaseSyncToAsync.thread_handler


def _profiled_handler(self, loop, *args, **kwargs):
    if not _on:
        return _original_handler(self, loop, *args, **kwargs)
    profile = _workers.get(threading.get_ident())
    if profile is None:
        profile = _workers[threading.get_ident()] = cProfile.Profile(time.thread_time)
    profile.enable()
    try:
        return _original_handler(self, loop, *args, **kwargs)
    finally:
        profile.disable()


DatabaseSyncToAsync.thread_handler = _profiled_handler


def _path(part: str) -> str:
    return os.path.join(DIR, f"{os.getpid()}-{part}.prof")


def _enable(signum, frame):
    global _on
    _on = True
    _main.enable()


def _dump(signum, frame):
    global _on
    _on = False
    _main.disable()
    _main.dump_stats(_path("main"))

    def dump_workers():  # once the calls in flight have finished
        profiles = list(_workers.values())
        if profiles:
            stats = pstats.Stats(profiles[0])
            for profile in profiles[1:]:
                stats.add(profile)
            stats.dump_stats(_path("worker"))

    threading.Timer(1.0, dump_workers).start()


signal.signal(signal.SIGUSR1, _enable)
signal.signal(signal.SIGUSR2, _dump)
