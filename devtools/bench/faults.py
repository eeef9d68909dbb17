"""Fault injection (#16): a production-style stack on loopback, then a worker killed and Redis
stopped on purpose, with checks that nothing is lost or done twice.

    .venv/bin/python devtools/bench/faults.py              # about 6 minutes
    .venv/bin/python devtools/bench/faults.py --help

A script, not a test (it takes minutes and needs PostgreSQL): see docs/play.md, "Fault
injection". It starts its OWN processes and touches nothing else:
- a redis-server on --redis-port (6390; never the 6379 that tests and CI use), no persistence;
- a PostgreSQL database --db (nd_faults), migrated and FLUSHED on every run;
- one Daphne (production settings, DEBUG off) on --port and one Celery worker with beat
  (`celery -A config worker --beat -c 2`), each in its own session so that kill -9 of the
  worker's process group reaches nothing else.

Phase "worker": a teacher (over HTTP, as the pages do) starts an every-decision export and a
recompute of a big class; once both are running with progress, the worker's whole process
group is killed with SIGKILL; a third job (a skills export) is asked for while no worker
runs; the worker is restarted. Every job must end: ready, or failed (given up on when its
heartbeat went quiet) with the job page's Try again making a new job that ends ready.

Phase "redis": a client plays --pairs two-player games over real WebSockets (playing both
seats, as two signed-in students), with an idempotency key per move, while a teacher watches
a game of computer players. After --warmup seconds this script's Redis is shut down for
--outage seconds (`redis-cli shutdown nosave`), then started again. The client re-sends a move
it has no answer for (same key) when its socket comes back or stays silent, as the page does.
During the outage a student also starts a free game over HTTP. Checked in the database
afterwards: every key the client sent is one accepted move (never two), each game's version
equals its accepted moves, the computer players carry on after Redis is back (woken when the
teacher's socket reconnects) without any decision recorded twice, and every free-play start
answered 302 with its game opening.

Prints a summary table per phase and exits 1 if any check failed.
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
    plants = [parse_plant(p) for p in ("mg.facts=0.2", "so.lowest_operator=0.3", "all.rule_errors=0.05")]
    big = Classroom.objects.create(name="Faults reports class", owner=teacher, join_code="FLTRPT")
    big.teachers.add(teacher)
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
        import psycopg

        self.conn = psycopg.connect(url, autocommit=True)

    def rows(self, sql: str, params=()) -> list[tuple]:
        return self.conn.execute(sql, params).fetchall()

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


# ----- phase 2: Redis stopped while children play -------------------------------------------
@dataclass
class Stats:
    sent: int = 0  # messages sent (first sends and re-sends)
    moves: int = 0  # moves confirmed
    resends: int = 0
    reconnects: int = 0
    failed_connects: int = 0
    notices: dict = field(default_factory=dict)
    keys: list = field(default_factory=list)  # (game_id, key) of every move sent
    max_wait: float = 0.0  # longest time from first send to confirmation


class Seat:
    """One student's socket to one game, reconnected whenever it closes."""

    def __init__(self, *, game_id: int, session: str, port: int, on_version, stats: Stats):
        self.game_id, self.session, self.port = game_id, session, port
        self.on_version, self.stats = on_version, stats
        self.sock = None
        self.versions: asyncio.Queue = asyncio.Queue()

    def _text(self, text: str, t: float) -> None:
        notice = NOTICE.search(text)
        if notice:
            message = " ".join(notice.group(1).split())
            self.stats.notices[message] = self.stats.notices.get(message, 0) + 1
        match = VERSION.search(text)
        if match:
            version = int(match.group(1))
            self.on_version(version)
            self.versions.put_nowait(version)

    def alive(self) -> bool:
        return self.sock is not None and not self.sock.closed.done()

    async def connect(self, deadline: float) -> int | None:
        """(Re)connect, trying every half second; the version of the first table, if any."""
        from wsclient import Socket

        while time.monotonic() < deadline:
            self.versions = asyncio.Queue()
            sock = Socket(host="127.0.0.1", port=self.port, path=f"/ws/game/{self.game_id}/",
                          session_key=self.session, on_text=self._text)
            try:
                await sock.connect(timeout=10)
                self.sock = sock
                first = asyncio.ensure_future(self.versions.get())
                await asyncio.wait([first, sock.closed], timeout=5, return_when=asyncio.FIRST_COMPLETED)
                if first.done():
                    return first.result()
                first.cancel()
                if sock.closed.done():  # accepted, then closed at once (1013: try again later)
                    self.stats.failed_connects += 1
                    await asyncio.sleep(0.5)
                    continue
                return None
            except (ConnectionError, OSError, asyncio.TimeoutError):
                self.stats.failed_connects += 1
                await asyncio.sleep(0.5)
        raise RuntimeError(f"game {self.game_id}: could not reconnect")

    def send(self, text: str) -> bool:
        try:
            self.sock.send(text)
            return True
        except Exception:  # noqa: BLE001 - a socket closing under us: reconnect and re-send
            return False

    async def close(self) -> None:
        if self.sock is not None:
            await self.sock.close()


class PairPlayer:
    """Two students of one class playing their games one after another. The client keeps a
    replica of each game with the pure engine and picks every move with a beginner bot on
    that student's own view."""

    def __init__(self, pair: dict, args, stats: Stats, rng: random.Random):
        from games import registry

        self.pair, self.args, self.stats, self.rng = pair, args, stats, rng
        self.spec = registry.spec_for(PLAY_GAME)
        self.engine = self.spec.engine
        self.names = [p["name"] for p in pair["players"]]
        self.played_games: list[int] = []
        self.final_versions: dict[int, int] = {}

    async def run(self, until: float) -> None:
        for game in self.pair["games"]:
            if time.monotonic() >= until:
                return
            await self.play(game, until)

    async def play(self, game: dict, until: float) -> None:
        state = self.engine.new_game(self.names, game["options"], game["seed"])
        if state != game["state"]:
            raise SystemExit(f"The replica of game {game['id']} differs from the server's deal.")
        seen = {"version": 0}

        def on_version(v: int) -> None:
            seen["version"] = max(seen["version"], v)

        seats = {p["name"]: Seat(game_id=game["id"], session=p["session"], port=self.args.port,
                                 on_version=on_version, stats=self.stats) for p in self.pair["players"]}
        for seat in seats.values():
            await seat.connect(time.monotonic() + 60)
        self.played_games.append(game["id"])
        version = 0
        bots = [self.spec.make_bot("beginner", seed=game["seed"] * 2 + i) for i in range(2)]
        while not state.get("finished") and time.monotonic() < until:
            await asyncio.sleep(self.rng.uniform(*self.args.think))
            name = self.engine.waiting_for(state)[0]
            action = bots[self.names.index(name)].choose(self.engine.view(state, name))
            key = f"fault-{secrets.token_hex(10)}"
            text = json.dumps({"action": json.dumps(action), "expected_version": str(version),
                               "idempotency_key": key,
                               "HEADERS": {"HX-Request": "true", "HX-Current-URL": f"/game/{game['id']}/"}})
            self.stats.keys.append((game["id"], key))
            t0 = time.monotonic()
            await self.deliver(seats[name], text, version + 1, seen)
            self.stats.max_wait = max(self.stats.max_wait, time.monotonic() - t0)
            state, _ = self.engine.apply(state, name, action)
            version += 1
            self.stats.moves += 1
        self.final_versions[game["id"]] = version
        for seat in seats.values():
            await seat.close()

    async def deliver(self, seat: Seat, text: str, wanted: int, seen: dict) -> None:
        """Send until the server has applied it: a table at `wanted` (the broadcast, the answer
        to a re-send, or the table a reconnecting socket gets). A socket that closed is opened
        again and the move re-sent with the same key; one that stays silent for --answer-timeout
        gets the same message again."""
        deadline = time.monotonic() + 180
        first = True
        while seen["version"] < wanted:
            if time.monotonic() > deadline:
                raise RuntimeError(f"game {seat.game_id}: move for version {wanted} never confirmed")
            if not seat.alive():
                self.stats.reconnects += 1
                await seat.connect(deadline)
                if seen["version"] >= wanted:
                    return  # applied before the socket dropped: the new table says so
            if seat.send(text):
                self.stats.sent += 1
                if not first:
                    self.stats.resends += 1
                first = False
            wait_until = time.monotonic() + self.args.answer_timeout
            while seen["version"] < wanted and time.monotonic() < wait_until and seat.alive():
                await asyncio.sleep(0.05)


class Watcher:
    """The teacher watching the computer players' game; reconnects whenever it closes."""

    def __init__(self, game_id: int, session: str, port: int):
        self.stats = Stats()
        self.seat = Seat(game_id=game_id, session=session, port=port, on_version=lambda v: None,
                         stats=self.stats)

    async def run(self, until: float) -> None:
        while time.monotonic() < until:
            if not self.seat.alive():
                self.stats.reconnects += 1
                try:
                    await self.seat.connect(until)
                except RuntimeError:
                    return
            await asyncio.sleep(0.2)
        await self.seat.close()


async def play_through_outage(args, data: dict, redis: Redis, student: Browser, bot_game: int,
                              marks: dict) -> tuple[list[PairPlayer], Stats, Watcher, list]:
    stats = Stats()
    rng = random.Random(7)
    players = [PairPlayer(pair, args, stats, rng) for pair in data["pairs"]]
    start = time.monotonic()
    until = start + args.warmup + args.outage + args.after
    watcher = Watcher(bot_game, data["teacher"]["session"], args.port)
    free_starts: list = []

    async def outage():
        await asyncio.sleep(args.warmup)
        marks["moves_before"] = stats.moves
        marks["down_at"] = time.time()
        redis.stop()
        print(f"  Redis stopped after {args.warmup:.0f} s ({stats.moves} moves so far)", flush=True)
        await asyncio.sleep(2)
        # A student starts a free game while Redis is down (was a 500 with an orphan game).
        for _ in range(2):
            status, location, _ = await asyncio.to_thread(
                student.request, "POST", f"/play/free/{PLAY_GAME}/", {"level": "beginner"})
            page = await asyncio.to_thread(student.request, "GET", location) if status == 302 else (0, "", "")
            free_starts.append((status, location, page[0]))
        await asyncio.sleep(max(0.0, args.outage - (time.time() - marks["down_at"])))
        marks["moves_during"] = stats.moves - marks["moves_before"]
        redis.start()
        marks["up_at"] = time.time()
        print(f"  Redis started again after {args.outage:.0f} s ({marks['moves_during']} moves confirmed "
              "while it was down)", flush=True)

    await asyncio.gather(outage(), watcher.run(until), *(p.run(until) for p in players))
    return players, stats, watcher, free_starts


def check_moves(db: Db, players: list[PairPlayer], stats: Stats) -> dict:
    games = sorted({g for p in players for g in p.played_games})
    keys = [k for _, k in stats.keys]
    counts = dict(db.rows("SELECT idempotency_key, count(*) FROM games_move WHERE game_id = ANY(%s) "
                          "AND idempotency_key = ANY(%s) GROUP BY idempotency_key", [games, keys]))
    rejected = db.rows("SELECT count(*) FROM games_move WHERE game_id = ANY(%s) AND NOT accepted", [games])[0][0]
    versions = dict(db.rows("SELECT id, version FROM games_game WHERE id = ANY(%s)", [games]))
    accepted = dict(db.rows("SELECT game_id, count(*) FROM games_move WHERE game_id = ANY(%s) AND accepted "
                            "GROUP BY game_id", [games]))
    expected = {g: v for p in players for g, v in p.final_versions.items()}
    return {
        "sent_keys": len(keys),
        "applied_once": sum(1 for k in keys if counts.get(k) == 1),
        "missing": sum(1 for k in keys if k not in counts),
        "twice": sum(1 for k in keys if counts.get(k, 0) > 1),
        "rejected_moves": rejected,
        "versions_match": all(versions[g] == accepted.get(g, 0) == expected.get(g, versions[g]) for g in games),
        "games": len(games),
    }


def check_bots(db: Db, game_id: int, up_at: float) -> dict:
    total, distinct = db.rows("SELECT count(*), count(DISTINCT idempotency_key) FROM games_move "
                              "WHERE game_id = %s AND accepted", [game_id])[0]
    version, status = db.rows("SELECT version, status FROM games_game WHERE id = %s", [game_id])[0]
    after = db.rows("SELECT count(*) FROM games_move WHERE game_id = %s AND created_at > to_timestamp(%s)",
                    [game_id, up_at])[0][0]
    return {"moves": total, "distinct_keys": distinct, "version": version, "status": status,
            "moves_after_redis_back": after}


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
    p.add_argument("--db", default="nd_faults", help="PostgreSQL database (flushed!)")
    p.add_argument("--redis-port", type=int, default=6390, help="this script's own redis-server")
    p.add_argument("--port", type=int, default=8790, help="Daphne")
    p.add_argument("--decisions", type=int, default=150_000, help="size of the big class (jobs)")
    p.add_argument("--pairs", type=int, default=3)
    p.add_argument("--games-per-pair", type=int, default=8)
    p.add_argument("--think", type=lambda s: tuple(float(x) for x in s.split("-")), default=(0.2, 0.6),
                   help="seconds between moves, e.g. 0.2-0.6")
    p.add_argument("--warmup", type=float, default=10, help="play before Redis stops")
    p.add_argument("--outage", type=float, default=15, help="seconds Redis is down")
    p.add_argument("--after", type=float, default=30, help="play after Redis is back")
    p.add_argument("--answer-timeout", type=float, default=4, help="re-send a move after this silence")
    p.add_argument("--worker-down", type=float, default=5, help="seconds between kill -9 and restart")
    p.add_argument("--stale-seconds", type=float, default=120,
                   help="settings.REPORT_JOB_STALE_SECONDS (a job this quiet shows as stopped)")
    p.add_argument("--phases", default="worker,redis")
    p.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "numberdeck-faults"))
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    if shutil.which("redis-server") is None:
        raise SystemExit("redis-server is not installed.")
    os.makedirs(args.workdir, exist_ok=True)
    env = fixtures.server_env(db=args.db, redis_db=0)
    env["REDIS_URL"] = f"redis://127.0.0.1:{args.redis_port}/0"
    env.pop("WS_ECHO", None)
    env["LOG_LEVEL"] = "WARNING"
    env["MEDIA_ROOT"] = os.path.join(args.workdir, "media")  # the export files
    fixtures.ensure_database(env["DATABASE_URL"])
    redis = Redis(args.redis_port, args.workdir)
    worker = Worker(env, args.workdir)
    servers = Servers(ports=[args.port], env=env, log_dir=args.workdir, app="config.asgi:application")
    ok = True
    try:
        redis.start()
        t0 = time.monotonic()
        data = run_django("prepare", {"decisions": args.decisions, "pairs": args.pairs,
                                      "games_per_pair": args.games_per_pair}, env)
        print(f"prepared in {time.monotonic() - t0:.0f} s: big class of {data['big_games']} finished games, "
              f"{data['decisions']} decisions; {args.pairs} pairs of students", flush=True)
        servers.start()
        worker.start()
        worker.supervise()
        db = Db(env["DATABASE_URL"])
        teacher = Browser(args.port, data["teacher"]["session"])
        import redis as redis_py

        broker = redis_py.Redis(port=args.redis_port)
        wait_for(lambda: broker.llen("celery") == 0, timeout=300, every=1)  # the set-up's report tasks

        if "worker" in args.phases:
            rows = phase_worker(args, db, teacher, worker, data["big_class"])
            table("Worker killed with SIGKILL mid-job, then restarted",
                  ["job", "id", "at kill", "after restart", "Try again job", "its end", "took", "ok"],
                  [[r.name, r.job_id, r.at_kill, r.after, r.try_again_id or "-", r.final,
                    f"{r.seconds:.0f} s" if r.try_again_id else "-", "yes" if r.ok else "NO"] for r in rows])
            ok &= all(r.ok for r in rows)
            for crash in worker.crashes:
                print(f"  worker exit: {crash}")

        if "redis" in args.phases:
            print("\nphase redis: children play while Redis is stopped and started again", flush=True)
            bot_game = run_django("bot_game", {"play_class": data["play_class"]}, env)["id"]
            student = Browser(args.port, data["free_player"]["session"])
            marks: dict = {}
            crashes_before = len(worker.crashes)
            players, stats, watcher, free_starts = asyncio.run(
                play_through_outage(args, data, redis, student, bot_game, marks))
            moves = check_moves(db, players, stats)
            time.sleep(2)
            bots = check_bots(db, bot_game, marks["up_at"])
            free_games = db.rows("SELECT count(*) FROM games_game g JOIN games_seat s ON s.game_id = g.id "
                                 "WHERE s.user_id = %s", [data["free_player"]["id"]])[0][0]
            free_ok = all(s == 302 and "/game/" in loc and page == 200 for s, loc, page in free_starts) \
                and free_games == len(free_starts)
            move_ok = (moves["applied_once"] == moves["sent_keys"] and moves["twice"] == 0
                       and moves["missing"] == 0 and moves["versions_match"] and moves["rejected_moves"] == 0)
            bots_ok = bots["moves"] == bots["distinct_keys"] == bots["version"] and \
                (bots["moves_after_redis_back"] > 0 or bots["status"] == "finished")
            table("Redis stopped for {:.0f} s during play".format(args.outage), ["check", "result", "ok"], [
                ["moves confirmed (before / during / after the outage)",
                 f"{stats.moves} ({marks['moves_before']} / {marks['moves_during']} / "
                 f"{stats.moves - marks['moves_before'] - marks['moves_during']})", "-"],
                ["messages sent (re-sends with the same key)", f"{stats.sent} ({stats.resends})", "-"],
                ["socket reconnects (failed attempts while down)",
                 f"{stats.reconnects} ({stats.failed_connects})", "-"],
                ["longest wait for a move's confirmation", f"{stats.max_wait:.1f} s", "-"],
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
                ["computer players' moves after Redis was back (teacher watching)",
                 bots["moves_after_redis_back"], "yes" if bots_ok else "NO"],
                ["free-play starts while Redis was down (HTTP, table page, games)",
                 f"{[s for s, _, _ in free_starts]}, {[p for _, _, p in free_starts]}, {free_games}",
                 "yes" if free_ok else "NO"],
                ["teacher's socket on that game: reconnects (failed attempts)",
                 f"{watcher.stats.reconnects} ({watcher.stats.failed_connects})", "-"],
                ["Celery worker exits by itself (restarted, as a process manager would)",
                 f"{len(worker.crashes) - crashes_before}", "-"],
                ["notices the client saw", json.dumps(stats.notices) if stats.notices else "none", "-"],
            ])
            for crash in worker.crashes[crashes_before:]:
                print(f"  worker exit: {crash}")
            ok &= move_ok and bots_ok and free_ok
    finally:
        worker.stop()
        servers.stop()
        redis.stop()
    print(f"\n{'ALL CHECKS PASSED' if ok else 'SOME CHECKS FAILED'} (logs: {args.workdir})")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "_django":
        django_main(sys.argv[2], sys.argv[3])
    else:
        sys.exit(main())
