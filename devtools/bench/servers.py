"""Starting and stopping the bench's own Daphne processes, and reading CPU use from /proc.

One Daphne process per port; a 2-core deployment runs two (Python runs one core per process),
with the clients split between them as a load balancer would. Each process is started in its
own session so that stopping it (SIGINT, then SIGKILL) reaches nothing else.
"""

from __future__ import annotations

import glob
import os
import signal
import socket
import subprocess
import sys
import time

from fixtures import ROOT

CLK_TCK = os.sysconf("SC_CLK_TCK")


class Servers:
    def __init__(self, *, ports: list[int], env: dict, log_dir: str, app: str,
                 env_for_port=None, server: str = "daphne"):
        self.ports, self.env, self.log_dir, self.app = ports, env, log_dir, app
        self.server = server  # "daphne" or "uvicorn" (server_command)
        # Extra variables for one port's process (the arena bench names each process's
        # database connections after its port, to count them per process).
        self.env_for_port = env_for_port or (lambda port: {})
        self.procs: list[subprocess.Popen] = []

    def start(self, timeout: float = 60.0) -> None:
        os.makedirs(self.log_dir, exist_ok=True)
        for port in self.ports:
            if _port_open(port):
                raise SystemExit(f"Port {port} is already in use: pick another with --port.")
        for port in self.ports:
            log = open(os.path.join(self.log_dir, f"{self.server}-{port}.log"), "w")
            self.procs.append(subprocess.Popen(
                server_command(self.server, port, self.app),
                cwd=ROOT, env={**self.env, **self.env_for_port(port)}, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True))
        deadline = time.monotonic() + timeout
        for port, proc in zip(self.ports, self.procs):
            while not _port_open(port):
                if proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise SystemExit(f"{self.server} on port {port} did not start: see {self.log_dir}.")
                time.sleep(0.2)

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def signal(self, sig: int) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.kill(proc.pid, sig)

    def stop(self) -> None:
        self.signal(signal.SIGINT)
        deadline = time.monotonic() + 15
        for proc in self.procs:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        self.procs = []


SERVERS = ("daphne", "uvicorn")  # the first is the default: production's (Procfile)


def server_command(server: str, port: int, app: str) -> list[str]:
    """The command line of one web process: Daphne (Twisted and Autobahn) as production runs
    it, or uvicorn on uvloop with httptools and the `websockets` library, to compare
    (pinned in requirements.txt for this comparison: devtools/bench/README.md, "Live play").
    Per-message compression is off on both (Autobahn does not offer it either)."""
    bin_dir = os.path.dirname(sys.executable)
    if server == "uvicorn":
        if not os.path.exists(os.path.join(bin_dir, "uvicorn")):
            raise SystemExit("--server uvicorn: pip install uvicorn uvloop httptools websockets first.")
        return [os.path.join(bin_dir, "uvicorn"), "--host", "127.0.0.1", "--port", str(port),
                "--loop", "uvloop", "--http", "httptools", "--ws", "websockets",
                "--ws-per-message-deflate", "false", "--lifespan", "off", "--no-access-log",
                "--no-proxy-headers", "--log-level", "warning", app]
    return [os.path.join(bin_dir, "daphne"), "-b", "127.0.0.1", "-p", str(port), app]


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (threads included)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (FileNotFoundError, ProcessLookupError):
        return 0.0


def machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def stack_pids() -> list[int]:
    """PostgreSQL and Redis server processes: their CPU is part of the stack's cost too."""
    pids = []
    for stat in glob.glob("/proc/[0-9]*/comm"):
        try:
            with open(stat) as f:
                name = f.read().strip()
        except OSError:
            continue
        if name.startswith(("postgres", "redis-server")):
            pids.append(int(stat.split("/")[2]))
    return pids


def machine_busy(seconds: float) -> float:
    busy0, total0 = machine_cpu()
    time.sleep(seconds)
    busy1, total1 = machine_cpu()
    return (busy1 - busy0) / max(1, total1 - total0)


class CpuMeter:
    """CPU used between `start()` and `stop()`, in cores (1.0 = one core fully busy)."""

    def __init__(self, server_pids: list[int]):
        self.server_pids = server_pids

    def start(self) -> None:
        self.t0 = time.monotonic()
        self.server0 = sum(process_cpu_seconds(p) for p in self.server_pids)
        # PostgreSQL backends come and go with their connections: a backend that ends during
        # the window is left out (its CPU can no longer be read), a new one counts from 0.
        self.db0 = {p: process_cpu_seconds(p) for p in stack_pids()}
        self.client0 = process_cpu_seconds(os.getpid())
        self.machine0 = machine_cpu()

    def stop(self) -> dict:
        elapsed = time.monotonic() - self.t0
        server = sum(process_cpu_seconds(p) for p in self.server_pids) - self.server0
        client = process_cpu_seconds(os.getpid()) - self.client0
        db = sum(max(0.0, process_cpu_seconds(p) - self.db0.get(p, 0.0)) for p in stack_pids())
        busy1, total1 = machine_cpu()
        busy = (busy1 - self.machine0[0]) / max(1, total1 - self.machine0[1])
        return {"server_cores": server / elapsed, "client_cores": client / elapsed,
                "db_redis_cores": db / elapsed,
                "machine_busy": busy, "cores": os.cpu_count()}
