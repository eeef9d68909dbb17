"""Fault injection: a production-style stack on loopback, broken on purpose while
children play, with checks that no move is lost or applied twice.

    .venv/bin/python devtools/bench/faults.py              # about 4 minutes
    .venv/bin/python devtools/bench/faults.py --phases worker,redis,postgres,web
    .venv/bin/python devtools/bench/faults.py --help

A script, not a test (it takes minutes): see docs/play.md, "Fault injection". It starts its
OWN processes and touches nothing else:
- a PostgreSQL cluster made with initdb in the work folder, run with pg_ctl on --pg-port (5491;
  never the machine's 5432), as the postgres user; the database nd_faults in it;
- a redis-server on --redis-port (6390; never the 6379 that tests and CI use), no persistence;
- two Daphne processes (production settings, DEBUG off) on --port and --port+1, and one Celery
  worker with beat (`celery -A config worker --beat -c 2`), each in its own session so that
  kill -9 of one process group reaches nothing else.

The client plays as the page does (static/js/live.js and htmx's ws extension; the constants
below must follow them): --pairs pairs of students play two-player games over real
WebSockets, each student on their own page's socket, each move with an idempotency key. A
page keeps the move it sent until a newer table or a notice answers it and sends it again
after EVERY reconnect (never on a timer); when it has heard nothing for 5 s while it waits
(its move unanswered, or another player's turn) it sends {"sync": version}; it reconnects
after the close codes the page reconnects on, with the same growing random pauses, to
whichever web process takes the connection (as a load balancer would); a close the page
answers by reloading forgets the pending move, and one it answers by staying closed ends it.
It never gives up by itself: a move still unanswered --grace seconds after play ended is lost.
A teacher's page watches a game of computer players meanwhile.

Phases (--phases, default redis,postgres,web):
- redis: after --warmup s Redis is shut down (`redis-cli shutdown nosave`) for --outage s,
  then started again; a student also starts a free game over HTTP while it is down.
- postgres: after --warmup s PostgreSQL is restarted (`pg_ctl restart -m fast`: every
  connection ends, moves in flight fail, a step after a commit can fail).
- web: after --warmup s one of the two Daphne processes is killed with SIGKILL; its pages
  reconnect to the other.
- worker (not by default; it builds a class of --decisions decisions first): a teacher starts an
  every-decision export and a recompute; the worker's process group gets SIGKILL mid-job; each
  job must end ready, or failed with Try again making a new job that ends ready.

Checked in the database after each phase: every key the client sent is one accepted move
(never two, never none), each game's version equals its accepted moves and the client's
replica, no move was refused, no page would have reloaded or stayed closed, and the computer
players carried on after the fault without any decision recorded twice. Each phase prints what
was LOST; the script exits 1 if any check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
sys.path.insert(1, os.path.dirname(os.path.dirname(BENCH)))  # the repo: games.engine, registry

import fixtures  # noqa: E402
from servers import Servers, _port_open  # noqa: E402

from live.close_codes import CODES as CLOSE_CODES  # noqa: E402

VERSION = re.compile(r'data-version="(\d+)"')
NOTICE = re.compile(r'<p class="alert alert-error">(.*?)</p>', re.S)
JOB_URL = re.compile(r"/reports/jobs/(\d+)/")
PLAY_GAME = "multiplication"
PLAY_OPTIONS = {"hand_size": 7}


# ----- the Django side (run in a subprocess: `faults.py _django COMMAND JSON`) -----------------
def _session_for(user) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def django_prepare(opts: dict) -> dict:
    """Migrate and flush the database; a teacher; a big class with finished games and their
    reports (for the jobs); a play class with two students per pair, their games (known seeds,
    so the client can keep a replica) and a student for free play."""
    from django.core.management import call_command
    from django.db import connection

    from accounts.services import student_create, teacher_sign_up
    from classroom.models import Classroom
    from devtools.management.commands.bench_reports import _copy_games
    from devtools.planted import parse_plant
    from devtools.simulation import simulate_class
    from games.services import SeatSpec, game_create
    from reports import services
    from reports.models import SkillEvidence

    call_command("migrate", interactive=False, verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # production pages need the manifest
    teacher = teacher_sign_up(name="Faults Teacher", email="faults@school.test", password="faults-pass-1234")

    t0 = time.monotonic()
    big = Classroom.objects.create(name="Faults reports class", owner=teacher, join_code="FLTRPT")
    big.teachers.add(teacher)
    game_ids: list[int] = []
    if opts["decisions"]:  # only the worker phase's jobs need it
        plants = [parse_plant(p) for p in ("mg.facts=0.2", "so.lowest_operator=0.3", "all.rule_errors=0.05")]
        sim = simulate_class(students=12, games=2, plants=plants, classroom=big)
        game_ids = _copy_games(sim.games, opts["decisions"])
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE games_game, games_seat, games_move")
        for start in range(0, len(game_ids), 400):
            services.games_reports_compute(game_ids=game_ids[start:start + 400], force=True)
        services.class_reports_refresh(classroom_id=big.pk)
    made_big = time.monotonic() - t0

    play = Classroom.objects.create(name="Faults play class", owner=teacher, join_code="FLTPLY")
    play.teachers.add(teacher)
    pairs = []
    for p in range(opts["pairs"]):
        a = student_create(classroom=play, display_name=f"Kid {2 * p + 1:02d}", username=f"faults-{2 * p + 1}")
        b = student_create(classroom=play, display_name=f"Kid {2 * p + 2:02d}", username=f"faults-{2 * p + 2}")
        players = [{"name": s.display_name, "session": _session_for(s)} for s in (a, b)]
        games = []
        for g in range(opts["games_per_pair"]):
            seed = 1000 * (p + 1) + g
            game = game_create(key=PLAY_GAME, classroom=play, seed=seed, options=PLAY_OPTIONS,
                               seats=[SeatSpec(a.display_name, user=a), SeatSpec(b.display_name, user=b)])
            games.append({"id": game.pk, "seed": seed, "options": game.options, "state": game.state})
        pairs.append({"players": players, "games": games})
    free = student_create(classroom=play, display_name="Free Player", username="faults-free")
    return {
        "teacher": {"id": teacher.pk, "session": _session_for(teacher)},
        "big_class": big.pk, "play_class": play.pk, "made_big_seconds": round(made_big, 1),
        "big_games": len(game_ids),
        "decisions": SkillEvidence.objects.filter(classroom=big, measure="all.think_time").count(),
        "pairs": pairs, "free_player": {"id": free.pk, "session": _session_for(free)},
    }


def django_bot_game(opts: dict) -> dict:
    """A game of computer players only, in the play class (its bots start on commit)."""
    from classroom.models import Classroom
    from games.services import SeatSpec, game_create

    play = Classroom.objects.get(pk=opts["play_class"])
    game = game_create(key=PLAY_GAME, classroom=play, options={"hand_size": 10},
                       seats=[SeatSpec("Robo", bot_level="beginner"), SeatSpec("Zip", bot_level="beginner")])
    return {"id": game.pk}


def django_main(command: str, payload: str) -> None:
    fixtures.setup_django()
    handler = {"prepare": django_prepare, "bot_game": django_bot_game}[command]
    json.dump(handler(json.loads(payload)), sys.stdout)


def run_django(command: str, payload: dict, env: dict) -> dict:
    made = subprocess.run([sys.executable, os.path.abspath(__file__), "_django", command, json.dumps(payload)],
                          env=env, cwd=fixtures.ROOT, capture_output=True, text=True)
    if made.returncode != 0:
        raise SystemExit(f"{command} failed:\n{made.stderr[-4000:]}")
    return json.loads(made.stdout)


# ----- processes this script owns ------------------------------------------------------------
class Redis:
    """This script's own redis-server (no persistence, so a restart loses everything in it, as
    a crashed Redis without a disk would)."""

    def __init__(self, port: int, workdir: str):
        self.port, self.workdir = port, workdir
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        if _port_open(self.port):
            raise SystemExit(f"Port {self.port} is in use: choose another --redis-port "
                             "(this script never uses a Redis it did not start).")
        log = open(os.path.join(self.workdir, "redis.log"), "a")
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", self.workdir],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 10
        while not _port_open(self.port):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"redis-server on {self.port} did not start: see {self.workdir}/redis.log")
            time.sleep(0.05)

    def stop(self) -> None:
        """`redis-cli shutdown nosave`: what an operator (or a crash) does to Redis."""
        if self.proc is None or self.proc.poll() is not None:
            return
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown", "nosave"],
                       capture_output=True, timeout=10)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


class Postgres:
    """This script's own PostgreSQL: a cluster made with initdb in the work folder and run with
    pg_ctl on --pg-port, as the postgres user (PostgreSQL refuses to run as root). Never the
    machine's own server on 5432, which tests and other people's work use."""

    BIN = "/usr/local/bin"

    def __init__(self, port: int, workdir: str):
        self.port = port
        self.home = os.path.join(workdir, "pg")
        self.data = os.path.join(self.home, "data")
        self.log = os.path.join(self.home, "postgres.log")

    def _as_owner(self, *command: str, check: bool = True) -> subprocess.CompletedProcess:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        return subprocess.run([*prefix, *command], capture_output=True, text=True, check=check, timeout=120)

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/nd_faults"

    def start(self) -> None:
        if _port_open(self.port):
            raise SystemExit(f"Port {self.port} is in use: choose another --pg-port "
                             "(this script never uses a PostgreSQL it did not start).")
        if os.path.exists(self.home):
            shutil.rmtree(self.home)
        os.makedirs(self.home)
        if os.geteuid() == 0:
            shutil.chown(self.home, "postgres")
        self._as_owner(os.path.join(self.BIN, "initdb"), "-D", self.data, "-U", "postgres",
                       "--auth=trust", "-E", "UTF8", "--no-sync")
        self._ctl("start")

    def _ctl(self, action: str, *extra: str) -> None:
        options = f"-p {self.port} -k {self.home} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._as_owner(os.path.join(self.BIN, "pg_ctl"), "-D", self.data, "-l", self.log, "-w",
                       "-o", options, *extra, action)

    def restart(self) -> None:
        """`pg_ctl restart -m fast`: every connection is ended, as in a server restart."""
        self._ctl("restart", "-m", "fast")

    def stop(self) -> None:
        if os.path.exists(os.path.join(self.data, "postmaster.pid")):
            self._as_owner(os.path.join(self.BIN, "pg_ctl"), "-D", self.data, "-w", "-m", "fast", "stop",
                           check=False)


class Worker:
    """The Celery worker (with beat), run as a process manager would run it: `supervise()`
    starts it again when it exits by itself (systemd's Restart=always, a Procfile runner), and
    records why it exited. Only `kill9` and `stop` take it down on purpose."""

    def __init__(self, env: dict, workdir: str):
        self.env, self.workdir = env, workdir
        self.proc: subprocess.Popen | None = None
        self.starts = 0
        self.lock = threading.Lock()
        self.down_on_purpose = False
        self.crashes: list[str] = []  # the worker's last words each time it exited by itself
        self.watch: threading.Thread | None = None

    def supervise(self) -> None:
        def loop():
            while not self.down_on_purpose or self.proc is not None:
                time.sleep(0.5)
                with self.lock:
                    if self.down_on_purpose or self.proc is None or self.proc.poll() is None:
                        continue
                    log = open(os.path.join(self.workdir, f"worker-{self.starts}.log")).read()
                    last = [line for line in log.splitlines() if "CRITICAL" in line or "Unrecoverable" in line]
                    self.crashes.append((last[-1].split("] ", 1)[-1] if last else
                                         f"exit code {self.proc.returncode}")[:160])
                    print(f"  the worker exited by itself ({self.crashes[-1]}); restarting it, "
                          "as a process manager would", flush=True)
                    self._start()

        self.watch = threading.Thread(target=loop, daemon=True)
        self.watch.start()

    def start(self) -> None:
        with self.lock:
            self.down_on_purpose = False
            self._start()

    def _start(self) -> None:
        self.starts += 1
        celery = os.path.join(os.path.dirname(sys.executable), "celery")
        log = open(os.path.join(self.workdir, f"worker-{self.starts}.log"), "w")
        self.proc = subprocess.Popen(
            [celery, "-A", "config", "worker", "--beat", "-c", "2", "-l", "info",
             "-s", os.path.join(self.workdir, "beat-schedule")],
            cwd=fixtures.ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        path = os.path.join(self.workdir, f"worker-{self.starts}.log")
        while "ready." not in open(path).read():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"The Celery worker did not start: see {path}")
            time.sleep(0.2)

    def kill9(self) -> None:
        """SIGKILL to the worker's whole process group: the main process, its pool processes
        and the embedded beat die at once, mid-task, as in a power cut."""
        with self.lock:
            self.down_on_purpose = True
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        with self.lock:
            self.down_on_purpose = True
            proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


# ----- HTTP as the pages do it ---------------------------------------------------------------
class Browser:
    """A signed-in browser over plain HTTP: the session cookie, and a CSRF secret of our own
    sent as cookie and form field (no Origin header, as a same-origin form post over HTTP)."""

    def __init__(self, port: int, session: str):
        self.port = port
        self.csrf = "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(32))
        self.cookie = f"sessionid={session}; csrftoken={self.csrf}"

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Cookie": self.cookie, "Host": f"127.0.0.1:{self.port}"}
        body = None
        if method == "POST":
            from urllib.parse import urlencode
            body = urlencode({"csrfmiddlewaretoken": self.csrf, **(form or {})})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, response.getheader("Location", ""), response.read().decode("utf-8", "replace")
        finally:
            conn.close()


# ----- the database, read directly ----------------------------------------------------------
class Db:
    def __init__(self, url: str):
        self.url = url
        self.conn = None

    def rows(self, sql: str, params=()) -> list[tuple]:
        import psycopg

        for attempt in range(30):  # the database may be restarting (phase postgres)
            try:
                if self.conn is None or self.conn.closed:
                    self.conn = psycopg.connect(self.url, autocommit=True)
                return self.conn.execute(sql, params).fetchall()
            except psycopg.OperationalError:
                self.conn = None
                time.sleep(0.5)
        raise SystemExit("The database did not answer for 15 s.")

    def job(self, job_id: int) -> dict:
        row = self.rows("SELECT status, done, total, message, extract(epoch FROM now() - "
                        "coalesce(heartbeat_at, created_at)) FROM reports_recomputejob WHERE id = %s",
                        [job_id])
        if not row:
            return {"status": "missing"}
        status, done, total, message, quiet = row[0]
        return {"status": status, "done": done, "total": total, "message": message or "",
                "quiet": float(quiet or 0)}


# ----- phase 1: the worker killed mid-job -----------------------------------------------------
@dataclass
class JobRow:
    name: str
    job_id: int
    at_kill: str = ""
    after: str = ""
    try_again_id: int | None = None
    final: str = ""
    seconds: float = 0.0
    ok: bool = False


def start_job(teacher: Browser, classroom: int, kind: str) -> int:
    if kind == "recompute":
        status, location, _ = teacher.request("POST", f"/teach/classes/{classroom}/reports/recompute/")
    else:
        status, location, _ = teacher.request("POST", f"/teach/classes/{classroom}/reports/exports/",
                                              {"format": kind})
    match = JOB_URL.search(location)
    if status != 302 or match is None:
        raise SystemExit(f"Starting {kind} answered {status} {location!r}")
    return int(match.group(1))


def wait_for(predicate, timeout: float, every: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    return None


def phase_worker(args, db: Db, teacher: Browser, worker: Worker, big_class: int) -> list[JobRow]:
    print("phase worker: starting an every-decision export and a recompute", flush=True)
    rows = [JobRow("raw_csv export", start_job(teacher, big_class, "raw_csv")),
            JobRow("recompute", start_job(teacher, big_class, "recompute"))]
    both = wait_for(lambda: all(db.job(r.job_id)["status"] == "running" and db.job(r.job_id)["done"] > 0
                                for r in rows), timeout=120, every=0.1)
    for r in rows:
        j = db.job(r.job_id)
        r.at_kill = f"{j['status']} {j['done']}/{j['total']}"
    if not both:
        print("  WARNING: the two jobs were not both running with progress (class too small? "
              "raise --decisions); killing anyway", flush=True)
    t_kill = time.monotonic()
    worker.kill9()
    print(f"  worker killed (SIGKILL to its process group): {', '.join(r.at_kill for r in rows)}", flush=True)
    rows.append(JobRow("csv export (asked while no worker)", start_job(teacher, big_class, "csv")))
    rows[-1].at_kill = db.job(rows[-1].job_id)["status"]
    time.sleep(args.worker_down)
    worker.start()
    print(f"  worker restarted after {time.monotonic() - t_kill:.0f} s; waiting for every job to end "
          f"(a killed job is given up on after {args.stale_seconds} s without a heartbeat)", flush=True)

    def ended(r: JobRow):
        j = db.job(r.job_id)
        stopped = j["status"] == "running" and j["quiet"] > args.stale_seconds
        return j["status"] in ("ready", "failed") or stopped

    for r in rows:
        wait_for(lambda: ended(r), timeout=args.stale_seconds + 180, every=1)
        j = db.job(r.job_id)
        r.after = ("stopped" if j["status"] == "running" and j["quiet"] > args.stale_seconds else j["status"])
        if r.after == "ready":
            r.final, r.ok = "ready", True
        elif r.after in ("failed", "stopped"):
            path = f"/teach/classes/{big_class}/reports/jobs/{r.job_id}/"
            status, _, page = teacher.request("GET", path)
            shows_button = status == 200 and "Try again" in page
            status, location, _ = teacher.request("POST", path)
            match = JOB_URL.search(location)
            if status == 302 and match and int(match.group(1)) != r.job_id:
                r.try_again_id = int(match.group(1))
                t0 = time.monotonic()
                wait_for(lambda: db.job(r.try_again_id)["status"] in ("ready", "failed"), timeout=300, every=0.5)
                r.seconds = time.monotonic() - t0
                r.final = db.job(r.try_again_id)["status"]
                old = db.job(r.job_id)["status"]
                r.ok = r.final == "ready" and old == "failed" and shows_button
                r.after += f" -> {old}" if old != r.after else ""
                if not shows_button:
                    r.final += " (no Try again on the page)"
            else:
                r.final = f"Try again answered {status} {location!r}"
        else:
            r.final = f"still {j['status']}"
    return rows


# ----- the page's socket, as static/js/live.js and htmx's ws extension run it -----------------
# The close codes come from the one table the page reads too (live/close_codes.py):
SYNC_AFTER = 5.0  # live.js SYNC_AFTER_MS: silence while waiting -> {"sync": version}
RETRIED = tuple(row.code for row in CLOSE_CODES if row.then == "retried")  # the ws extension reconnects
RECONNECT = tuple(row.code for row in CLOSE_CODES if row.then == "reconnect")  # live.js reconnects
STOPPED = tuple(row.code for row in CLOSE_CODES if row.then == "stop")  # the page says why, stays closed
# Any other close code makes the page reload after 1.5 s: a reload forgets the pending move.
SCORES = re.compile(r'<section id="table-scores".*?</section>', re.S)
OTHER_WAITING = re.compile(r'<li class="player player-waiting(?![^"]*player-me)')


def reconnect_pause(code: int, attempt: int) -> float:
    """The pause before the page's next connect: a random share of 1 s x 2^attempt, at most
    2^6 (the ws extension's full jitter) or 2^5 (live.js for 4011/4013)."""
    return random.random() * 2 ** min(attempt, 5 if code in RECONNECT else 6)


@dataclass
class Stats:
    sent: int = 0  # messages with a move sent (first sends and re-sends)
    moves: int = 0  # moves answered by a newer table
    resends: int = 0  # a pending move sent again after a reconnect
    syncs: int = 0  # {"sync": version} sent after a silence
    reconnects: int = 0
    failed_connects: int = 0
    close_codes: dict = field(default_factory=dict)
    reloads: int = 0  # closes after which the page would reload (its pending move forgotten)
    stopped: int = 0  # closes after which the page would stay closed
    unanswered: int = 0  # moves still pending when the phase ended
    refused: dict = field(default_factory=dict)  # notices that answered a move
    keys: list = field(default_factory=list)  # (game_id, key) of every move sent
    max_wait: float = 0.0  # longest time from a move's first send to its answer


class PageSocket:
    """One game page's socket: it reconnects as the page does (to whichever web process takes
    the connection, as a load balancer would), keeps the move it sent until a newer table or a
    notice answers it, sends it again after every reconnect, and asks for the table after
    SYNC_AFTER seconds of silence while it waits. Nothing else is re-sent, and it never gives
    up by itself (the page does not)."""

    def __init__(self, *, game_id: int, session: str, ports: list[int], stats: Stats):
        self.game_id, self.session, self.ports, self.stats = game_id, session, ports, stats
        self.version = -1  # what the board shows
        self.others_turn = False
        self.pending: tuple[str, int] | None = None  # (message, expected version)
        self.notice: str | None = None
        self.sock = None
        self.heard = time.monotonic()
        self.done = False
        self.closed_for_good: int | None = None
        self.changed = asyncio.Event()
        self.task = asyncio.ensure_future(self._run())

    def _text(self, text: str, t: float) -> None:
        self.heard = time.monotonic()
        match = VERSION.search(text)
        if match:
            self.version = max(self.version, int(match.group(1)))
        scores = SCORES.search(text)
        if scores:
            self.others_turn = bool(OTHER_WAITING.search(scores.group(0)))
        notice = NOTICE.search(text)
        if self.pending is not None and (notice or self.version > self.pending[1]):
            if notice:
                self.notice = " ".join(notice.group(1).split())
            self.pending = None
        self.changed.set()

    def alive(self) -> bool:
        return self.sock is not None and not self.sock.closed.done()

    async def _open(self):
        """One connect, to the first web process that takes it (a load balancer sends a new
        connection to a live one); None when none did."""
        from wsclient import Socket

        for port in self.ports:
            sock = Socket(host="127.0.0.1", port=port, path=f"/ws/game/{self.game_id}/",
                          session_key=self.session, on_text=self._text)
            try:
                await sock.connect(timeout=10)
                return sock
            except (ConnectionError, OSError, asyncio.TimeoutError):
                continue
        return None

    async def _run(self) -> None:
        attempt = 0
        while not self.done:
            sock = await self._open()
            if sock is None:
                code = 1006  # what a browser's socket reports when the connect fails
                self.stats.failed_connects += 1
            else:
                self.sock, attempt = sock, 0
                self.heard = time.monotonic()
                if self.pending is not None:  # live.js: after every reconnect
                    self._send(self.pending[0])
                    self.stats.resends += 1
                code = await self._while_open(sock)
                self.stats.close_codes[code] = self.stats.close_codes.get(code, 0) + 1
                if self.done:
                    return
            if code in STOPPED:
                self.closed_for_good = code
                self.stats.stopped += 1
                self.changed.set()
                return
            if code not in RETRIED and code not in RECONNECT:
                await asyncio.sleep(1.5)  # the page reloads: its pending move is forgotten
                self.stats.reloads += 1
                self.pending = None
                attempt = 0
                self.changed.set()
            else:
                await asyncio.sleep(reconnect_pause(code, attempt))
                attempt += 1
            self.stats.reconnects += 1

    async def _while_open(self, sock) -> int:
        """Sync after silence while waiting, until the socket closes; its close code."""
        while not sock.closed.done():
            await asyncio.wait([sock.closed], timeout=1)
            waiting = self.pending is not None or self.others_turn
            if not sock.closed.done() and waiting and time.monotonic() - self.heard >= SYNC_AFTER:
                self.heard = time.monotonic()
                self._send(json.dumps({"sync": max(self.version, 0)}))
                self.stats.syncs += 1
        return sock.closed.result() or 1006

    def _send(self, text: str) -> None:
        try:
            self.sock.send(text)
        except Exception:  # noqa: BLE001 - closing under us: sent again after the reconnect
            pass

    def send_move(self, text: str, expected: int) -> None:
        self.pending, self.notice = (text, expected), None
        if self.alive():
            self._send(text)
        self.stats.sent += 1

    async def answered(self, until: float) -> bool:
        """Wait until the pending move is answered (True) or `until` passes, or the page stopped."""
        await self._until(lambda: self.pending is None, until)
        return self.pending is None and self.closed_for_good is None

    async def shows(self, version: int, until: float) -> bool:
        """Wait until the board shows `version` (a child plays when the page says it's their turn)."""
        await self._until(lambda: self.version >= version, until)
        return self.version >= version

    async def _until(self, done, until: float) -> None:
        while not done() and self.closed_for_good is None and time.monotonic() < until:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), timeout=max(0.05, until - time.monotonic()))
            except asyncio.TimeoutError:
                pass

    async def close(self) -> None:
        self.done = True
        self.task.cancel()
        if self.sock is not None:
            await self.sock.close()


class PairPlayer:
    """Two students of one class playing their games one after another, each on their own
    page's socket. The client keeps a replica of each game with the pure engine, picks every
    move with a beginner bot on that student's own view, and makes it only once that student's
    page shows the version it is made at (as a child taps what the page shows)."""

    def __init__(self, pair: dict, args, ports: list[int], stats: Stats, rng: random.Random):
        from games import registry

        self.pair, self.args, self.ports, self.stats, self.rng = pair, args, ports, stats, rng
        self.spec = registry.spec_for(PLAY_GAME)
        self.engine = self.spec.engine
        self.names = [p["name"] for p in pair["players"]]
        self.played_games: list[int] = []
        self.final_versions: dict[int, int] = {}
        self.stalls: list[str] = []

    async def run(self, until: float, grace: float) -> None:
        for game in self.pair["games"]:
            if time.monotonic() >= until:
                return
            if not await self.play(game, until, grace):
                return

    async def play(self, game: dict, until: float, grace: float) -> bool:
        if "version" in game:  # carried on from an earlier phase
            state = game["state"]
        else:
            state = self.engine.new_game(self.names, game["options"], game["seed"])
            if state != game["state"]:
                raise SystemExit(f"The replica of game {game['id']} differs from the server's deal.")
        if state.get("finished"):
            return True
        pages = {p["name"]: PageSocket(game_id=game["id"], session=p["session"], ports=self.ports,
                                       stats=self.stats) for p in self.pair["players"]}
        self.played_games.append(game["id"])
        version, ok = game.get("version", 0), True
        bots = [self.spec.make_bot("beginner", seed=game["seed"] * 2 + i) for i in range(2)]
        try:
            while not state.get("finished") and time.monotonic() < until:
                name = self.engine.waiting_for(state)[0]
                page = pages[name]
                if not await page.shows(version, until + grace):
                    self.stalls.append(f"game {game['id']}: {name}'s page never showed version {version}")
                    ok = False
                    break
                await asyncio.sleep(self.rng.uniform(*self.args.think))
                action = bots[self.names.index(name)].choose(self.engine.view(state, name))
                key = f"fault-{secrets.token_hex(10)}"
                text = json.dumps({"action": json.dumps(action), "expected_version": str(version),
                                   "idempotency_key": key,
                                   "HEADERS": {"HX-Request": "true", "HX-Current-URL": f"/game/{game['id']}/"}})
                self.stats.keys.append((game["id"], key))
                t0 = time.monotonic()
                page.send_move(text, version)
                if not await page.answered(until + grace):
                    self.stats.unanswered += 1 if page.pending is not None else 0
                    self.stalls.append(f"game {game['id']}: a move at version {version} was never answered"
                                       + (f" (the page stopped: {page.closed_for_good})" if page.closed_for_good else ""))
                    ok = False
                    break
                if page.notice:
                    self.stats.refused[page.notice] = self.stats.refused.get(page.notice, 0) + 1
                    self.stalls.append(f"game {game['id']}: a move was refused: {page.notice}")
                    ok = False
                    break
                self.stats.max_wait = max(self.stats.max_wait, time.monotonic() - t0)
                state, _ = self.engine.apply(state, name, action)
                version += 1
                self.stats.moves += 1
        finally:
            self.final_versions[game["id"]] = version
            game["state"], game["version"] = state, version  # a later phase carries on from here
            for page in pages.values():
                await page.close()
        return ok


class Watcher:
    """The teacher's page on the computer players' game: it waits for every move (always
    another player's turn), so it syncs after each silence as the page does."""

    def __init__(self, game_id: int, session: str, ports: list[int]):
        self.stats = Stats()
        self.game_id, self.session, self.ports = game_id, session, ports

    async def run(self, until: float) -> None:
        page = PageSocket(game_id=self.game_id, session=self.session, ports=self.ports, stats=self.stats)
        await asyncio.sleep(max(0.0, until - time.monotonic()))
        await page.close()


async def play_through(args, fault, fault_seconds: float, data: dict, ports: list[int], bot_game: int,
                       marks: dict) -> tuple[list[PairPlayer], Stats, Watcher]:
    """The pairs play (pair i's pages try ports[i % n] first) and the teacher watches the
    computer players' game, while `fault(marks)` runs after --warmup (for about
    `fault_seconds`); play goes on --after seconds more, and a move still unanswered then gets
    --grace seconds before it counts as lost."""
    stats = Stats()
    rng = random.Random(7)
    order = [ports[i % len(ports):] + ports[:i % len(ports)] for i in range(len(data["pairs"]))]
    players = [PairPlayer(pair, args, order[i], stats, rng) for i, pair in enumerate(data["pairs"])]
    watcher = Watcher(bot_game, data["teacher"]["session"], ports)
    until = time.monotonic() + args.warmup + fault_seconds + args.after

    async def inject():
        await asyncio.sleep(args.warmup)
        marks["moves_before"] = stats.moves
        marks["down_at"] = time.time()
        await fault(marks)
        marks["up_at"] = time.time()
        marks["moves_during"] = stats.moves - marks["moves_before"]

    await asyncio.gather(inject(), watcher.run(until), *(p.run(until, args.grace) for p in players))
    return players, stats, watcher


def check_moves(db: "Db", players: list[PairPlayer], stats: Stats) -> dict:
    games = sorted({g for p in players for g in p.played_games})
    keys = [k for _, k in stats.keys]
    counts = dict(db.rows("SELECT idempotency_key, count(*) FROM games_move WHERE game_id = ANY(%s) "
                          "AND idempotency_key = ANY(%s) GROUP BY idempotency_key", [games, keys]))
    accepted_keys = {k for (k,) in db.rows("SELECT idempotency_key FROM games_move WHERE game_id = ANY(%s) "
                                            "AND idempotency_key = ANY(%s) AND accepted", [games, keys])}
    rejected = db.rows("SELECT count(*) FROM games_move WHERE game_id = ANY(%s) AND NOT accepted", [games])[0][0]
    versions = dict(db.rows("SELECT id, version FROM games_game WHERE id = ANY(%s)", [games]))
    accepted = dict(db.rows("SELECT game_id, count(*) FROM games_move WHERE game_id = ANY(%s) AND accepted "
                            "GROUP BY game_id", [games]))
    expected = {g: v for p in players for g, v in p.final_versions.items()}
    return {
        "sent_keys": len(keys),
        "applied_once": sum(1 for k in keys if counts.get(k) == 1 and k in accepted_keys),
        "missing": sum(1 for k in keys if k not in counts),
        "twice": sum(1 for k in keys if counts.get(k, 0) > 1),
        "rejected_moves": rejected,
        "versions_match": all(versions[g] == accepted.get(g, 0) for g in games)
        and all(versions[g] == expected.get(g, versions[g]) for g in games),
        "games": len(games),
    }


def check_bots(db: "Db", game_id: int, up_at: float) -> dict:
    total, distinct = db.rows("SELECT count(*), count(DISTINCT idempotency_key) FROM games_move "
                              "WHERE game_id = %s AND accepted", [game_id])[0]
    version, status = db.rows("SELECT version, status FROM games_game WHERE id = %s", [game_id])[0]
    after = db.rows("SELECT count(*) FROM games_move WHERE game_id = %s AND created_at > to_timestamp(%s)",
                    [game_id, up_at])[0][0]
    return {"moves": total, "distinct_keys": distinct, "version": version, "status": status,
            "moves_after_fault": after}


def report_phase(title: str, db: "Db", players: list[PairPlayer], stats: Stats, watcher: Watcher,
                 bot_game: int, marks: dict, extra: list[list]) -> bool:
    moves = check_moves(db, players, stats)
    time.sleep(2)
    bots = check_bots(db, bot_game, marks["up_at"])
    stalls = [s for p in players for s in p.stalls]
    move_ok = (moves["applied_once"] == moves["sent_keys"] and moves["twice"] == 0 and moves["missing"] == 0
               and moves["versions_match"] and moves["rejected_moves"] == 0 and not stalls)
    bots_ok = bots["moves"] == bots["distinct_keys"] == bots["version"] and \
        (bots["moves_after_fault"] > 0 or bots["status"] == "finished")
    lost = moves["missing"] + stats.unanswered
    table(title, ["check", "result", "ok"], [
        ["moves answered (before / during / after the fault)",
         f"{stats.moves} ({marks['moves_before']} / {marks['moves_during']} / "
         f"{stats.moves - marks['moves_before'] - marks['moves_during']})", "-"],
        ["moves sent (re-sent after a reconnect, same key)", f"{stats.sent} ({stats.resends})", "-"],
        ["syncs after a silence (students' pages / teacher's page)", f"{stats.syncs} / {watcher.stats.syncs}", "-"],
        ["reconnects (failed connects)", f"{stats.reconnects} ({stats.failed_connects})", "-"],
        ["close codes seen", json.dumps(stats.close_codes), "-"],
        ["pages that would reload (move forgotten) / stay closed", f"{stats.reloads} / {stats.stopped}",
         "yes" if not stats.reloads and not stats.stopped else "NO"],
        ["longest wait for a move's answer", f"{stats.max_wait:.1f} s", "-"],
        ["keys sent / applied exactly once", f"{moves['sent_keys']} / {moves['applied_once']}",
         "yes" if moves["applied_once"] == moves["sent_keys"] else "NO"],
        ["keys applied twice / never", f"{moves['twice']} / {moves['missing']}",
         "yes" if not moves["twice"] and not moves["missing"] else "NO"],
        ["refused moves recorded (stale, illegal)", moves["rejected_moves"],
         "yes" if not moves["rejected_moves"] else "NO"],
        [f"game versions = accepted moves = client's replica ({moves['games']} games)",
         moves["versions_match"], "yes" if moves["versions_match"] else "NO"],
        ["computer players: moves, distinct keys, version",
         f"{bots['moves']}, {bots['distinct_keys']}, {bots['version']} ({bots['status']})",
         "yes" if bots["moves"] == bots["distinct_keys"] == bots["version"] else "NO"],
        ["computer players' moves after the fault (teacher watching)", bots["moves_after_fault"],
         "yes" if bots_ok else "NO"],
        *extra,
        ["LOST (moves never applied or never answered)", lost, "yes" if not lost else "NO"],
    ])
    for stall in stalls:
        print(f"  {stall}")
    return move_ok and bots_ok


# ----- the run ---------------------------------------------------------------------------------
def table(title: str, header: list[str], rows: list[list]) -> None:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    print(f"\n{title}")
    print("  " + "  ".join(str(h).ljust(w) for h, w in zip(header, widths)))
    print("  " + "  ".join("-" * w for w in widths))
    for row in rows:
        print("  " + "  ".join(str(x).ljust(w) for x, w in zip(row, widths)))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pg-port", type=int, default=5491, help="this script's own PostgreSQL")
    p.add_argument("--redis-port", type=int, default=6390, help="this script's own redis-server")
    p.add_argument("--port", type=int, default=8790, help="the first Daphne; the second is on port+1")
    p.add_argument("--decisions", type=int, default=150_000, help="size of the big class (phase worker)")
    p.add_argument("--pairs", type=int, default=4)
    p.add_argument("--games-per-pair", type=int, default=8)
    p.add_argument("--think", type=lambda s: tuple(float(x) for x in s.split("-")), default=(0.2, 0.6),
                   help="seconds between moves, e.g. 0.2-0.6")
    p.add_argument("--warmup", type=float, default=10, help="play before each fault")
    p.add_argument("--outage", type=float, default=15, help="seconds Redis is down")
    p.add_argument("--after", type=float, default=25, help="play after each fault")
    p.add_argument("--grace", type=float, default=60,
                   help="after play ends, seconds a move still unanswered may take before it counts as lost")
    p.add_argument("--worker-down", type=float, default=5, help="seconds between kill -9 and restart")
    p.add_argument("--stale-seconds", type=float, default=120,
                   help="settings.REPORT_JOB_STALE_SECONDS (a job this quiet shows as stopped)")
    p.add_argument("--phases", default="redis,postgres,web", help="of worker,redis,postgres,web")
    p.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "numberdeck-faults"))
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    phases = args.phases.split(",")
    if shutil.which("redis-server") is None:
        raise SystemExit("redis-server is not installed.")
    os.makedirs(args.workdir, exist_ok=True)
    pg = Postgres(args.pg_port, args.workdir)
    env = fixtures.server_env(db="nd_faults", redis_db=0)
    env["DATABASE_URL"] = pg.url
    env["REDIS_URL"] = f"redis://127.0.0.1:{args.redis_port}/0"
    env.pop("WS_ECHO", None)
    env["LOG_LEVEL"] = "WARNING"
    env["MEDIA_ROOT"] = os.path.join(args.workdir, "media")  # the export files
    redis = Redis(args.redis_port, args.workdir)
    worker = Worker(env, args.workdir)
    ports = [args.port, args.port + 1]
    servers = Servers(ports=ports, env=env, log_dir=args.workdir, app="config.asgi:application")
    ok = True
    try:
        pg.start()
        fixtures.ensure_database(env["DATABASE_URL"])
        redis.start()
        t0 = time.monotonic()
        data = run_django("prepare", {"decisions": args.decisions if "worker" in phases else 0,
                                      "pairs": args.pairs, "games_per_pair": args.games_per_pair}, env)
        print(f"prepared in {time.monotonic() - t0:.0f} s: {args.pairs} pairs of students"
              + (f"; big class of {data['big_games']} finished games, {data['decisions']} decisions"
                 if "worker" in phases else ""), flush=True)
        servers.start()
        worker.start()
        worker.supervise()
        db = Db(env["DATABASE_URL"])
        teacher = Browser(args.port, data["teacher"]["session"])
        import redis as redis_py

        broker = redis_py.Redis(port=args.redis_port)
        wait_for(lambda: broker.llen("celery") == 0, timeout=300, every=1)  # the set-up's report tasks

        if "worker" in phases:
            rows = phase_worker(args, db, teacher, worker, data["big_class"])
            table("Worker killed with SIGKILL mid-job, then restarted",
                  ["job", "id", "at kill", "after restart", "Try again job", "its end", "took", "ok"],
                  [[r.name, r.job_id, r.at_kill, r.after, r.try_again_id or "-", r.final,
                    f"{r.seconds:.0f} s" if r.try_again_id else "-", "yes" if r.ok else "NO"] for r in rows])
            ok &= all(r.ok for r in rows)
            for crash in worker.crashes:
                print(f"  worker exit: {crash}")

        def bot_game() -> int:
            return run_django("bot_game", {"play_class": data["play_class"]}, env)["id"]

        if "redis" in phases:
            print("\nphase redis: Redis stopped (shutdown nosave) while children play", flush=True)
            student = Browser(args.port, data["free_player"]["session"])
            free_starts: list = []

            async def redis_outage(marks):
                await asyncio.to_thread(redis.stop)
                print(f"  Redis stopped after {args.warmup:.0f} s", flush=True)
                await asyncio.sleep(2)
                # A student starts a free game while Redis is down (was a 500 with an orphan game).
                for _ in range(2):
                    status, location, _ = await asyncio.to_thread(
                        student.request, "POST", f"/play/free/{PLAY_GAME}/", {"level": "beginner"})
                    page = await asyncio.to_thread(student.request, "GET", location) if status == 302 else (0, "", "")
                    free_starts.append((status, location, page[0]))
                await asyncio.sleep(max(0.0, args.outage - (time.time() - marks["down_at"])))
                await asyncio.to_thread(redis.start)
                print(f"  Redis started again after {args.outage:.0f} s", flush=True)

            game = bot_game()
            marks: dict = {}
            crashes_before = len(worker.crashes)
            players, stats, watcher = asyncio.run(play_through(args, redis_outage, args.outage, data, ports,
                                                               game, marks))
            free_games = db.rows("SELECT count(*) FROM games_game g JOIN games_seat s ON s.game_id = g.id "
                                 "WHERE s.user_id = %s", [data["free_player"]["id"]])[0][0]
            # Play pressed twice deals one game (games.services.free_play_start): each start opens a
            # table, and there are as many games as distinct tables.
            free_ok = all(s == 302 and "/game/" in loc and page == 200 for s, loc, page in free_starts) \
                and free_games == len({loc for _, loc, _ in free_starts})
            ok &= report_phase(f"Redis stopped for {args.outage:.0f} s during play", db, players, stats, watcher,
                               game, marks, [
                                   ["free-play starts while Redis was down (HTTP, table page, games)",
                                    f"{[s for s, _, _ in free_starts]}, {[p for _, _, p in free_starts]}, "
                                    f"{free_games}", "yes" if free_ok else "NO"],
                                   ["Celery worker exits by itself (restarted, as a process manager would)",
                                    f"{len(worker.crashes) - crashes_before}", "-"]])
            ok &= free_ok

        if "postgres" in phases:
            print("\nphase postgres: PostgreSQL restarted (pg_ctl restart -m fast) while children play",
                  flush=True)

            async def pg_restart(marks):
                await asyncio.to_thread(pg.restart)
                print(f"  PostgreSQL restarted after {args.warmup:.0f} s "
                      f"(down {time.time() - marks['down_at']:.1f} s)", flush=True)

            game = bot_game()
            marks = {}
            players, stats, watcher = asyncio.run(play_through(args, pg_restart, 3, data, ports, game, marks))
            ok &= report_phase("PostgreSQL restarted during play", db, players, stats, watcher, game, marks, [])

        if "web" in phases:
            print(f"\nphase web: one of the two web processes (port {ports[0]}) killed with SIGKILL "
                  "while children play", flush=True)

            async def kill_web(marks):
                victim = servers.procs[0]
                os.killpg(victim.pid, signal.SIGKILL)
                await asyncio.to_thread(victim.wait)
                print(f"  Daphne on {ports[0]} killed after {args.warmup:.0f} s; its pages reconnect to {ports[1]}",
                      flush=True)

            game = bot_game()
            marks = {}
            players, stats, watcher = asyncio.run(play_through(args, kill_web, 1, data, ports, game, marks))
            ok &= report_phase("A web process killed during play", db, players, stats, watcher, game, marks, [])
    finally:
        worker.stop()
        servers.stop()
        redis.stop()
        pg.stop()
    print(f"\n{'ALL CHECKS PASSED' if ok else 'SOME CHECKS FAILED'} (logs: {args.workdir})")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "_django":
        django_main(sys.argv[2], sys.argv[3])
    else:
        sys.exit(main())
