"""Private redis-server processes for the channel layer's shards, started and stopped by whoever
needs them: the latency bench (`ws_latency.py --redis-shards N`) and the scaling-out tests
(tests/scaleout/). Each listens on 127.0.0.1 on a port the system reports free, keeps nothing on
disk, and runs in its own session so that stopping it reaches nothing else. Never the machine's
shared Redis: only what was started here is ever stopped.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import redis

STARTS = 5  # a port taken between asking for it and redis-server binding it: try another


def redis_server_binary() -> str | None:
    return shutil.which("redis-server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self, *, workdir: str | None = None):
        self.workdir = workdir or tempfile.mkdtemp(prefix="numberdeck-redis-")
        self.port = 0
        self.proc: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self, timeout: float = 10.0) -> "RedisServer":
        binary = redis_server_binary()
        if binary is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        for _ in range(STARTS):
            self.port = free_port()
            log = open(os.path.join(self.workdir, f"redis-{self.port}.log"), "w")
            self.proc = subprocess.Popen(
                [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", self.workdir, "--maxclients", "10000"],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            log.close()
            if self._answers(timeout):
                return self
            self.stop()
        raise RuntimeError(f"redis-server did not start: see the logs in {self.workdir}")

    def _answers(self, timeout: float) -> bool:
        """True once this server (its process id, not another program on the port) answers;
        False if it exited (its port was taken meanwhile)."""
        deadline = time.monotonic() + timeout
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=0.5,
                             socket_timeout=2)
        try:
            while time.monotonic() < deadline and self.proc.poll() is None:
                try:
                    return client.info("server")["process_id"] == self.proc.pid
                except redis.RedisError:
                    time.sleep(0.02)
        finally:
            client.close()
        return False

    def stop(self) -> None:
        if self.proc is None:
            return
        stop_process_group(self.proc)
        self.proc = None


def stop_process_group(proc: subprocess.Popen) -> None:
    """End a process started in its own group: SIGTERM, then SIGKILL after 10 s."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def start_shards(count: int, *, workdir: str | None = None) -> list[RedisServer]:
    """`count` private redis-servers, all answering; none left running if one fails."""
    started: list[RedisServer] = []
    try:
        for _ in range(count):
            started.append(RedisServer(workdir=workdir).start())
    except BaseException:
        stop_all(started)
        raise
    return started


def stop_all(servers: list[RedisServer]) -> None:
    for server in servers:
        server.stop()
