"""Scaling out (docs/deploy.md): real web processes (Daphne subprocesses, as production runs them)
sharing the test database, with the channel layer sharded over private redis-servers.

Each test gets two web processes started for it, on this run's test database (PostgreSQL or the
file-based SQLite one: the subprocesses open the same database by its URL) and on two
redis-servers of this module's own: the channel layer is sharded over both, the cache is on the
first, and Celery runs eagerly in each web process (no broker is needed: these tests play
between two children). Nothing here touches the machine's shared Redis. Without a
`redis-server` binary the tests skip and say so (and fail on CI, which must run them).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest
import redis
from django.conf import settings
from django.db import connection

from devtools.bench.redis_servers import redis_server_binary, start_shards, stop_all, stop_process_group
from tests.conftest import need

ROOT = Path(__file__).resolve().parent.parent.parent
READY_SECONDS = 60


class WebProcess:
    """One Daphne process on a listening socket made here and handed over (no port to race
    another program for). Killed, its socket goes with it: a new connection is refused, as a
    load balancer's health check would see."""

    def __init__(self, *, env: dict, log: Path):
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1024)
        self.port = listener.getsockname()[1]
        self.log = log
        with open(log, "w") as out:
            self.proc = subprocess.Popen(
                [str(Path(sys.executable).parent / "daphne"), "--fd", str(listener.fileno()),
                 "config.asgi:application"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                pass_fds=[listener.fileno()], start_new_session=True)
        listener.close()  # the process holds it now; when it dies, connections are refused

    def wait_ready(self) -> None:
        """Until the process answers HTTP (any status): Django is loaded and serving."""
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"The web process exited ({self.proc.returncode}):\n{self.log_tail()}")
            try:
                opener.open(f"http://127.0.0.1:{self.port}/robots.txt", timeout=READY_SECONDS).close()
                return
            except urllib.error.HTTPError:
                return  # an answer
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        pytest.fail(f"The web process did not answer in {READY_SECONDS} s:\n{self.log_tail()}")

    def kill(self) -> None:
        """SIGKILL: the process ends at once, with its sockets and whatever it was doing."""
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        stop_process_group(self.proc)

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


def database_url() -> str:
    """The URL of this run's test database, for the web processes."""
    named = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{named['NAME']}"
    if connection.vendor == "postgresql":
        return urlparse(os.environ["DATABASE_URL"])._replace(path=f"/{named['NAME']}").geturl()
    pytest.skip(f"web processes cannot share a {connection.vendor} test database")


@pytest.fixture(scope="module")
def redis_shards():
    need(redis_server_binary() is not None,
         "redis-server is not installed (apt-get install redis-server): the scaling-out tests "
         "start two of their own")
    shards = start_shards(2)
    yield shards
    stop_all(shards)


def web_env(shards) -> dict:
    """A web process's environment: the test settings on this run's test database, the
    channel layer sharded over `shards`, the cache on the first, Celery eager."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"REDIS_URL", "CHANNEL_LAYER", "DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL"}}
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url(),
        "CHANNEL_REDIS_URLS": ",".join(shard.url() for shard in shards),
        "CACHE_REDIS_URL": shards[0].url(1),
        "CELERY_BROKER_URL": "memory://",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    })
    return env


@pytest.fixture
def web_processes(transactional_db, redis_shards, tmp_path):
    """Two web processes on the shards (fresh: nothing left from another test), ready."""
    for shard in redis_shards:
        redis.Redis.from_url(shard.url()).flushall()
    env = web_env(redis_shards)
    processes = [WebProcess(env=env, log=tmp_path / f"web-{n}.log") for n in range(2)]
    try:
        for process in processes:
            process.wait_ready()
        yield processes
    finally:
        for process in processes:
            process.stop()


def layer_prefix() -> str:
    """The channel layer's prefix in the web processes (config/settings/test.py: the run's)."""
    return f"{settings.TEST_RUN_KEY_PREFIX}asgi:"
