"""The morning bench's processes: the web processes (servers.py), the arena ticker, the Celery
worker with beat and, with --district, private redis-servers (redis_servers.py) and a PgBouncer
in transaction mode. Every process is started in its own session and stopped by its own id;
nothing here touches a process it did not start. Also: CPU by component from /proc, and the
sampler of database connections and report work.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time

import psycopg
import redis

import fixtures
from redis_servers import RedisServer, free_port, start_shards, stop_all, stop_process_group
from servers import Servers, process_cpu_seconds, stack_pids

PGBOUNCER = "/usr/sbin/pgbouncer"


def _as_postgres() -> list[str]:
    """PgBouncer refuses to run as root: run it as the postgres user then (as faults.py runs
    its PostgreSQL)."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


class PgBouncer:
    """PgBouncer in transaction mode in front of the machine's PostgreSQL, for the bench's
    database only, on a free port; trust authentication for the postgres user (loopback)."""

    def __init__(self, *, db: str, workdir: str, max_client_conn: int = 2000, pool_size: int = 20):
        self.db, self.port = db, free_port()
        self.dir = os.path.join(workdir, "pgbouncer")
        os.makedirs(self.dir, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
        with open(os.path.join(self.dir, "userlist.txt"), "w") as f:
            f.write('"postgres" ""\n')
        self.ini = os.path.join(self.dir, "pgbouncer.ini")
        with open(self.ini, "w") as f:
            f.write(f"""[databases]
{db} = host=127.0.0.1 port=5432 dbname={db} user=postgres

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {self.port}
unix_socket_dir =
auth_type = trust
auth_file = {self.dir}/userlist.txt
pool_mode = transaction
max_client_conn = {max_client_conn}
default_pool_size = {pool_size}
logfile = {self.dir}/pgbouncer.log
pidfile =
""")
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{self.db}"

    def start(self) -> "PgBouncer":
        log = open(os.path.join(self.dir, "stdout.log"), "w")
        self.proc = subprocess.Popen([*_as_postgres(), PGBOUNCER, self.ini], stdout=log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 10
        while True:
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=1) as conn:
                    conn.execute("SELECT 1")
                return self
            except psycopg.OperationalError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"PgBouncer did not start: see {self.dir}")
                time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is not None:
            stop_process_group(self.proc)
            self.proc = None


def group_cpu_seconds(pgid: int) -> float:
    """CPU seconds of every live process in a process group (a worker and its pool)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:
            total += process_cpu_seconds(int(entry))
    return total


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return ""


class Stack:
    def __init__(self, *, args, workdir: str):
        self.args, self.workdir = args, workdir
        self.env = fixtures.server_env(db=args.db, redis_db=args.redis_db)
        self.env.pop("WS_ECHO", None)  # the echo floor is ws_latency.py's
        self.redis: list[RedisServer] = []
        self.pgbouncer: PgBouncer | None = None
        self.servers: Servers | None = None
        self.ticker: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None
        self.ports = [args.port + i for i in range(4 if args.district else 2)]

    def describe(self) -> str:
        if not self.args.district:
            return (f"{len(self.ports)} Daphne, arena ticker, Celery worker with beat, PostgreSQL "
                    f"'{self.args.db}', Redis db {self.args.redis_db} (channel layer, cache, broker)")
        return (f"{len(self.ports)} Daphne, arena ticker, Celery worker with beat; channel layer on 2 "
                f"redis-servers ({', '.join(self.env['CHANNEL_REDIS_URLS'].split(','))}), cache on "
                f"{self.env['CACHE_REDIS_URL']}, broker on {self.env['CELERY_BROKER_URL']}; web processes and "
                f"ticker through PgBouncer (transaction mode) on {self.pgbouncer.port}")

    def prepare(self) -> dict:
        """Private Redis servers first (district), then the data, as the web processes will see it."""
        import json

        if self.args.district:
            shards = start_shards(2, workdir=self.workdir)
            self.redis += shards
            cache, broker = RedisServer(workdir=self.workdir).start(), RedisServer(workdir=self.workdir).start()
            self.redis += [cache, broker]
            self.env.update({"CHANNEL_REDIS_URLS": ",".join(s.url() for s in shards),
                             "CACHE_REDIS_URL": cache.url(), "CELERY_BROKER_URL": broker.url(),
                             "REDIS_URL": cache.url()})
        else:
            fixtures.flush_redis(self.env["REDIS_URL"])
        fixtures.ensure_database(self.env["DATABASE_URL"])
        made = subprocess.run(
            [sys.executable, os.path.join(fixtures.ROOT, "devtools", "bench", "morning_fixtures.py"),
             str(self.args.students), str(self.args.classes), str(self.args.arena_classes),
             self.args.game, self.args.preset],
            env=self.env, cwd=fixtures.ROOT, capture_output=True, text=True)
        if made.returncode:
            raise SystemExit(f"Preparing the data failed:\n{made.stderr[-4000:]}")
        if self.args.district:
            with psycopg.connect(self.env["DATABASE_URL"], autocommit=True) as conn:
                conn.execute(f'ALTER DATABASE "{self.args.db}" SET jit = off')  # docs/deploy.md
            self.pgbouncer = PgBouncer(db=self.args.db, workdir=self.workdir).start()
        return json.loads(made.stdout)

    def web_env(self) -> dict:
        env = {**self.env, "ARENA_TICKER": "0"}  # the rounds run in the ticker (Procfile)
        if self.pgbouncer is not None:
            env.update({"DATABASE_URL": self.pgbouncer.url, "DB_POOLER": "pgbouncer"})
        return env

    def start(self) -> None:
        web = self.web_env()
        self.servers = Servers(ports=self.ports, env=web, log_dir=self.workdir, app="config.asgi:application")
        self.servers.start()
        bin_dir = os.path.dirname(sys.executable)
        ticker_log = open(os.path.join(self.workdir, "ticker.log"), "w")
        self.ticker = subprocess.Popen([sys.executable, "manage.py", "arena_ticker"], cwd=fixtures.ROOT,
                                       env={k: v for k, v in web.items() if k != "ARENA_TICKER"},
                                       stdout=ticker_log, stderr=subprocess.STDOUT, start_new_session=True)
        # The worker streams report rows (iterator()): it reaches PostgreSQL directly (docs/deploy.md).
        path = os.path.join(self.workdir, "worker.log")
        self.worker = subprocess.Popen(
            [os.path.join(bin_dir, "celery"), "-A", "config", "worker", "--beat", "-l", "info",
             "-s", os.path.join(self.workdir, "beat-schedule")],
            cwd=fixtures.ROOT, env=self.env, stdout=open(path, "w"), stderr=subprocess.STDOUT,
            start_new_session=True)
        deadline = time.monotonic() + 90
        while "ready." not in open(path).read():
            if self.worker.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"The Celery worker did not start: see {path}")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.servers is not None:
            self.servers.stop()
        for proc in (self.ticker, self.worker):
            if proc is not None:
                stop_process_group(proc)
        if self.pgbouncer is not None:
            self.pgbouncer.stop()
        stop_all(self.redis)

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far by component (PostgreSQL: every backend alive now; Redis: every
        redis-server on the machine, the bench's own among them)."""
        got = {"web processes": sum(process_cpu_seconds(p) for p in self.servers.pids),
               "worker": group_cpu_seconds(self.worker.pid),
               "ticker": group_cpu_seconds(self.ticker.pid), "PostgreSQL": 0.0, "Redis": 0.0}
        if self.pgbouncer is not None:
            got["PgBouncer"] = group_cpu_seconds(self.pgbouncer.proc.pid)
        self._stack = getattr(self, "_stack", {})
        for pid in stack_pids():
            name = "PostgreSQL" if _comm(pid).startswith("postgres") else "Redis"
            self._stack[pid] = (name, process_cpu_seconds(pid))
        for pid, (name, seconds) in self._stack.items():
            got[name] += seconds
        return got


class Sampler(threading.Thread):
    """Every second: the bench database's connections (pg_stat_activity), finished games
    without a report at their final version (reports.services.games_without_report's
    question, without its settling minute) and the broker's queue length."""

    def __init__(self, *, db_url: str, db: str, broker_url: str, t0: float):
        super().__init__(daemon=True)
        self.db_url, self.db, self.broker_url, self.t0 = db_url, db, broker_url, t0
        self.rows: list[tuple[float, int, int, int]] = []  # (t, connections, unreported, broker queue)
        self.stopping = threading.Event()

    def run(self) -> None:
        broker = redis.Redis.from_url(self.broker_url)
        with psycopg.connect(self.db_url, autocommit=True, application_name="morning-bench") as conn:
            while not self.stopping.is_set():
                connections = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                    [self.db]).fetchone()[0]
                unreported = conn.execute(
                    "SELECT count(*) FROM games_game g LEFT JOIN reports_gamereport r ON r.game_id = g.id "
                    "WHERE g.status = 'finished' AND (r.id IS NULL OR r.version <> g.version)").fetchone()[0]
                try:
                    queued = broker.llen("celery")
                except redis.RedisError:
                    queued = -1
                self.rows.append((time.perf_counter() - self.t0, connections, unreported, queued))
                self.stopping.wait(1.0)
