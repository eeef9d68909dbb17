"""Class arena bench: a whole school's arena on real sockets, with its figures.

    .venv/bin/python devtools/bench/arena_bench.py --players 600 --classes 20 --duration 120
    .venv/bin/python devtools/bench/arena_bench.py --players 60 --duration 30     # quick

The targets, on a 2-core machine with PostgreSQL, Redis and two web processes: one
pairing round over 600 waiting students takes <= 200 ms of CPU; from a finished game to the
next table p95 <= 3 s; live play p95 <= 100 ms; projector pushes <= 2 KB; the web processes'
database connections stay bounded.

What it does (devtools/bench/README.md, "Arena", has the figures):
1. In a Django process of its own (arena_fixtures.py): flushes the bench database and Redis
   db, makes one teacher, --classes classes of --players students with sessions, an arena over
   every class with the 2-player game whose games are shortest in moves (its quickest preset;
   --game to choose), and every student joins it.
2. Still before any web process runs (their arena tickers would race it for the round): starts
   the arena and runs its first pairing round there, over every student waiting, and prints
   the round's CPU: the matching alone (the target: <= 200 ms) and the whole round (dealing
   every table, its writes).
3. Starts --servers Daphne processes (production settings, each ticking the arena), each
   naming its database connections after its port (`application_name=daphne-PORT`).
4. One asyncio process of clients, no Django: each student keeps a socket on their arena page
   (`/ws/arena/<id>/me/`, whose fragment carries `data-go="/game/<id>/"` once seated) and,
   while seated, one on their table (`/ws/game/<id>/`). On their turn they think (--think),
   choose a legal move with a beginner bot on their own view and send it in the page's format
   (as ws_latency.py does). Measured: send -> the opponent's (and the mover's own) table for the
   new version; a game's last table on a student's socket -> their arena socket sending them to
   a new table. A teacher's projector socket (`/ws/arena/<id>/screen/`) records each push's
   size and when it came.
   The bots need each table's deal: the client reads a new table's state once, by plain SQL
   (psycopg, not Django), when a student is sent to it, and keeps a replica with the pure
   engine from there (a computer player's move is read again the same way).
5. Meanwhile samples pg_stat_activity every second (connections to the bench database, by web
   process and by state) and measures CPU over the window (servers.py CpuMeter).
6. Prints a table with the targets and a verdict per line; --json writes the figures.
"""

from __future__ import annotations

import argparse
import glob
import asyncio
import json
import math
import os
import random
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # games.engine

import psycopg  # noqa: E402

import fixtures  # noqa: E402
from servers import SERVERS, CpuMeter, Servers, machine_busy  # noqa: E402
from ws_latency import NOTICE, VERSION, percentile  # noqa: E402
from wsclient import Arrivals, Disconnected, Socket, now  # noqa: E402

# The registry is pure Python (engines, adapters, bots): no Django in this process.
from games import registry  # noqa: E402

DATA_GO = re.compile(r'data-go="/game/(\d+)/"')
CLIENT_APP = "arena-bench"  # application_name of the bench's own connections (not counted)

TARGETS = {"pairing_cpu_ms": 200, "next_table_p95_ms": 3000, "play_p95_ms": 100,
           "screen_push_bytes": 2048}


# ----- choosing the game ----------------------------------------------------------------------
def game_length(spec, options: dict, seeds: int = 8) -> float:
    """Mean moves of a game between two beginner bots (the pure engine, a few seeds)."""
    lengths = []
    for seed in range(seeds):
        names = ["A", "B"]
        state = spec.engine.new_game(names, dict(options), seed)
        bots = [spec.make_bot("beginner", seed=seed * 2 + i) for i in range(2)]
        moves = 0
        while not state.get("finished") and moves < 1000:
            name = spec.engine.waiting_for(state)[0]
            action = bots[names.index(name)].choose(spec.engine.view(state, name))
            state, _ = spec.engine.apply(state, name, action)
            moves += 1
        lengths.append(moves)
    return statistics.mean(lengths)


def quickest(game: str | None) -> tuple[str, dict, str, float]:
    """(key, options, preset, mean moves): the 2-player game and preset whose games are
    shortest in moves (or the quickest preset of `game`)."""
    best = None
    for spec in registry.all_games():
        if not spec.min_players <= 2 <= spec.max_players or (game and spec.key != game):
            continue
        for preset in spec.presets or ():
            moves = game_length(spec, preset.options)
            if best is None or moves < best[3]:
                best = (spec.key, dict(preset.options), preset.key, moves)
        if not spec.presets:
            moves = game_length(spec, {})
            if best is None or moves < best[3]:
                best = (spec.key, {}, "(no preset)", moves)
    if best is None:
        raise SystemExit(f"No 2-player game {game!r}.")
    return best


# ----- what is measured -----------------------------------------------------------------------
@dataclass
class Window:
    warmup: float
    duration: float
    start: float = 0.0
    stopping: bool = False
    play_other_ms: list[float] = field(default_factory=list)   # move -> opponent's table
    play_self_ms: list[float] = field(default_factory=list)    # move -> mover's own table
    next_table_ms: list[float] = field(default_factory=list)   # last table -> sent to a new one
    freed_ms: list[float] = field(default_factory=list)        # last table -> arena page says "waiting"
    first_seat_ms: list[float] = field(default_factory=list)   # arena socket open -> table socket's first table
    moves: int = 0
    moves_measured: int = 0
    games_finished: int = 0
    games_finished_measured: int = 0
    tables_seen: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    lost: list[str] = field(default_factory=list)  # which updates never came (to look up in the logs)
    notices: dict[str, int] = field(default_factory=dict)
    screen: list[tuple[float, int]] = field(default_factory=list)  # (arrival, bytes) per push
    cpu: dict = field(default_factory=dict)
    client_lag_ms: list[float] = field(default_factory=list)  # the client's own loop waking late

    @property
    def measure_from(self) -> float:
        return self.start + self.warmup

    @property
    def measure_to(self) -> float:
        return self.start + self.warmup + self.duration

    def measured(self, t: float) -> bool:
        return self.measure_from <= t < self.measure_to

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class Db:
    """The client's one database connection (plain SQL, no Django): a new table's deal, and a
    computer player's move, for the bots' replicas. Queries run one at a time."""

    def __init__(self, url: str):
        self.url = url
        self.lock = asyncio.Lock()

    async def open(self) -> None:
        self.conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True,
                                                          application_name=f"{CLIENT_APP}-client")

    async def game(self, game_id: int) -> tuple[str, dict, int, list[tuple[str, int | None]]]:
        async with self.lock:
            cur = await self.conn.execute("SELECT key, state, version FROM games_game WHERE id = %s",
                                          [game_id])
            key, state, version = await cur.fetchone()
            cur = await self.conn.execute(
                "SELECT name, user_id FROM games_seat WHERE game_id = %s ORDER BY position", [game_id])
            seats = await cur.fetchall()
        return key, state, version, seats


class Student:
    def __init__(self, *, user_id: int, name: str, session_key: str, port: int, bench: "Bench"):
        self.user_id, self.name, self.session_key, self.port = user_id, name, session_key, port
        self.bench = bench
        self.played: set[int] = set()
        self.table: Table | None = None
        self.table_socket: Socket | None = None
        self.arrivals = Arrivals()
        self.finish_t: float | None = None   # their last game's last table arrived at
        self.freed = False
        self.pending: tuple[int, float] | None = None  # a new table announced while still at one
        self.opened_seat = 0.0  # when they were sent to their current table
        self.waiting_at = 0.0   # when their arena page last said "waiting for a table"
        self.rng = random.Random(user_id)
        self.socket = Socket(host="127.0.0.1", port=port, path=f"/ws/arena/{bench.arena_id}/me/",
                             session_key=session_key, on_text=self.on_arena)

    # The arena page's socket: "go to your table" (data-go) or not.
    def on_arena(self, text: str, t: float) -> None:
        match = DATA_GO.search(text)
        if match is None:
            self.waiting_at = t
            if self.finish_t is not None:
                self.was_freed()
            return
        game_id = int(match.group(1))
        if game_id in self.played:
            return
        self.played.add(game_id)
        if self.table is not None:  # the new table came before this socket showed the last one
            self.pending = (game_id, t)
            return
        self.seated(game_id, t)

    def was_freed(self) -> None:
        """Their arena page says they wait for a table again (their game was counted)."""
        if not self.freed and self.bench.window.measured(self.finish_t):
            self.bench.window.freed_ms.append(max(0.0, self.waiting_at - self.finish_t) * 1000)
        self.freed = True

    def seated(self, game_id: int, t: float) -> None:
        window = self.bench.window
        self.opened_seat = t
        if self.finish_t is not None:
            if window.measured(self.finish_t):
                window.next_table_ms.append(max(0.0, t - self.finish_t) * 1000)
            self.finish_t = None
        if window.stopping:
            return
        self.bench.spawn(self.sit(game_id))

    async def sit(self, game_id: int) -> None:
        table = self.bench.table(game_id)
        self.table = table
        self.arrivals = Arrivals()
        self.table_socket = Socket(host="127.0.0.1", port=self.port, path=f"/ws/game/{game_id}/",
                                   session_key=self.session_key, on_text=self.on_table)
        try:
            async with self.bench.gate:
                await self.table_socket.connect(timeout=self.bench.args.timeout * 4)
        except Exception as exc:  # noqa: BLE001 - counted, the table goes on without them
            # The close code says why ("closed before open: 4429 ..."): kept in the label.
            why = str(exc).split(" ")[3] if str(exc).startswith("closed before open:") else type(exc).__name__
            self.bench.window.error(f"table socket refused ({why})")
            return
        table.arrived(self)

    def on_table(self, text: str, t: float) -> None:
        notice = NOTICE.search(text)
        if notice:
            message = notice.group(1).strip()
            self.bench.window.notices[message] = self.bench.window.notices.get(message, 0) + 1
        match = VERSION.search(text)
        if match is None:
            return  # not a table (e.g. a toast alone)
        self.arrivals.seen(int(match.group(1)), t)

    async def left(self, finish_t: float | None) -> None:
        """Their game is over (its last table came at `finish_t`): leave the table's socket and
        wait to be sent to the next one."""
        sock, self.table, self.table_socket = self.table_socket, None, None
        self.finish_t, self.freed = finish_t, False
        if finish_t is not None and self.waiting_at > self.opened_seat:
            self.was_freed()  # "waiting" came before this loop saw the last table
        if sock is not None:
            await sock.close()
        if self.pending is not None:
            game_id, t = self.pending
            self.pending = None
            self.seated(game_id, t)


class Table:
    """One arena table: a replica of the game with the pure engine (its deal read once), the
    students seated at it, and whoever's turn it is thinking and moving."""

    def __init__(self, game_id: int, bench: "Bench"):
        self.game_id, self.bench = game_id, bench
        self.students: dict[str, Student] = {}
        self.everyone = asyncio.Event()
        self.humans: set[str] = set()
        self.loaded = bench.spawn(self.load())

    async def load(self) -> None:
        key, self.state, self.version, seats = await self.bench.db.game(self.game_id)
        self.spec = registry.spec_for(key)
        self.engine = self.spec.engine
        self.humans = {name for name, user_id in seats if user_id is not None}
        self.bots = {name: self.spec.make_bot("beginner", seed=self.game_id * 4 + i)
                     for i, (name, _) in enumerate(seats)}
        self.bench.spawn(self.run())

    def arrived(self, student: Student) -> None:
        self.students[student.name] = student
        if self.humans and self.humans <= set(self.students):
            self.everyone.set()

    async def refresh(self) -> None:
        _, self.state, self.version, _ = await self.bench.db.game(self.game_id)

    async def run(self) -> None:
        window, args = self.bench.window, self.bench.args
        try:
            await asyncio.wait_for(self.everyone.wait(), args.timeout * 4)
            for student in self.students.values():  # every table on screen before anyone moves
                t = await student.arrivals.first(args.timeout)
                if window.measured(student.opened_seat):
                    window.first_seat_ms.append((t - student.opened_seat) * 1000)
        except asyncio.TimeoutError:
            window.error("a student's table never came")
            return
        seen = max((max(s.arrivals.first_seen) for s in self.students.values()), default=0)
        if seen > self.version:
            await self.refresh()
        try:
            while not self.state.get("finished"):
                if window.stopping:
                    return
                name = self.engine.waiting_for(self.state)[0]
                if name not in self.humans:
                    await self.computer_moved()
                    continue
                if not await self.move(self.students[name], name):
                    return
        except asyncio.TimeoutError:
            window.error("no update within --timeout")
            window.lost.append(f"game {self.game_id} v{self.version + 1}: seen "
                               + ", ".join(f"{n}: {sorted(s.arrivals.first_seen)[-3:]}"
                                           for n, s in self.students.items()))
            return
        finished_at = [s.arrivals.first_seen.get(self.version) for s in self.students.values()]
        window.games_finished += 1
        if all(finished_at) and window.measured(min(finished_at)):
            window.games_finished_measured += 1
        for student, t in zip(list(self.students.values()), finished_at):
            await student.left(t)

    async def computer_moved(self) -> None:
        """A computer player's turn (a table for the odd one out): wait for its move on a
        student's socket, then read the game again."""
        student = next(iter(self.students.values()))
        await student.arrivals.wait(self.version + 1, self.bench.args.timeout)
        await self.refresh()

    async def move(self, student: Student, name: str) -> bool:
        window, args = self.bench.window, self.bench.args
        await asyncio.sleep(student.rng.uniform(args.think_min, args.think_max))
        if window.stopping:
            return False
        action = self.bots[name].choose(self.engine.view(self.state, name))
        state, _ = self.engine.apply(self.state, name, action)
        message = json.dumps({
            "action": json.dumps(action), "expected_version": str(self.version),
            "idempotency_key": f"{secrets.token_hex(8)}-{action['type']}",
            "HEADERS": {"HX-Request": "true", "HX-Current-URL": f"/game/{self.game_id}/"},
        })
        t0 = now()
        try:
            student.table_socket.send(message)
        except (Disconnected, AttributeError):
            window.error("table socket closed by the server")
            return False
        window.moves += 1
        measured = window.measured(t0)
        window.moves_measured += measured
        number = self.version + 1
        t_self = await student.arrivals.wait(number, args.timeout)
        others = [await s.arrivals.wait(number, args.timeout)
                  for s in self.students.values() if s is not student]
        if measured:
            window.play_self_ms.append((t_self - t0) * 1000)
            window.play_other_ms.extend((t - t0) * 1000 for t in others)
        self.state, self.version = state, number
        return True


class Bench:
    def __init__(self, *, args, data: dict, ports: list[int], db_url: str):
        self.args, self.data = args, data
        self.arena_id = data["arena_id"]
        self.window = Window(args.warmup, args.duration)
        self.db = Db(db_url)
        self.tables: dict[int, Table] = {}
        self.tasks: set[asyncio.Task] = set()
        rng = random.Random(args.seed)
        self.students = [Student(user_id=s["user_id"], name=s["name"], session_key=s["session_key"],
                                 port=rng.choice(ports), bench=self) for s in data["students"]]
        self.screen = Socket(host="127.0.0.1", port=ports[0], path=f"/ws/arena/{self.arena_id}/screen/",
                             session_key=data["teacher_session"], on_text=self.on_screen)

    def spawn(self, coro) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            self.window.error(f"client error {type(exc).__name__}: {str(exc)[:80]}")

    def table(self, game_id: int) -> Table:
        if game_id not in self.tables:
            self.tables[game_id] = Table(game_id, self)
            self.window.tables_seen += 1
        return self.tables[game_id]

    async def client_lag(self, every: float = 0.005) -> None:
        """How late this client's own loop wakes (a busy client would add to every latency)."""
        while True:
            t = now()
            await asyncio.sleep(every)
            if self.window.measured(t):
                self.window.client_lag_ms.append((now() - t - every) * 1000)

    def on_screen(self, text: str, t: float) -> None:
        self.window.screen.append((t, len(text.encode("utf-8"))))

    async def run(self, meter: CpuMeter, sampler: "Sampler", on_window=lambda on: None) -> None:
        args = self.args
        lag = asyncio.get_running_loop().create_task(self.client_lag())
        self.gate = asyncio.Semaphore(64)
        await self.db.open()
        await self.screen.connect()
        self.window.start = now()

        async def open_arena_page(k: int, student: Student):
            await asyncio.sleep(k / args.connect_rate)
            async with self.gate:
                await student.socket.connect(timeout=args.timeout * 4)

        opened = await asyncio.gather(*(open_arena_page(k, s) for k, s in enumerate(self.students)),
                                      return_exceptions=True)
        failed = [r for r in opened if isinstance(r, BaseException)]
        for r in failed:
            self.window.error(f"arena socket refused ({type(r).__name__})")
        print(f"  {len(self.students) - len(failed)} of {len(self.students)} arena sockets open in "
              f"{now() - self.window.start:.1f} s", flush=True)
        await asyncio.sleep(max(0.0, self.window.measure_from - now()))
        meter.start()
        sampler.mark_window(True)
        on_window(True)
        await asyncio.sleep(max(0.0, self.window.measure_to - now()))
        self.window.cpu = meter.stop()
        sampler.mark_window(False)
        on_window(False)
        lag.cancel()
        self.window.stopping = True
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*list(self.tasks), return_exceptions=True)
        sockets = [s.socket for s in self.students] + [s.table_socket for s in self.students if s.table_socket]

        async def close(k: int, sock: Socket):
            await asyncio.sleep(k / (args.connect_rate * 2))
            await sock.close()

        await asyncio.gather(*(close(k, s) for k, s in enumerate(sockets)), return_exceptions=True)
        await self.screen.close()
        await self.db.conn.close()


class Sampler(threading.Thread):
    """Counts the bench database's connections once a second (pg_stat_activity), by web process
    (application_name daphne-PORT) and by state; the bench's own connections are left out."""

    def __init__(self, url: str, db: str):
        super().__init__(daemon=True, name="pg-sampler")
        self.url, self.db = url, db
        self.stop_event = threading.Event()
        self.samples: list[dict] = []  # {"t", "in_window", "by_app": {app: {state: n}}}
        self.in_window = False
        self.rounds: list[tuple[float, int, int]] = []  # (t, arena.rounds, tables dealt)
        self.arena_id: int | None = None

    def mark_window(self, on: bool) -> None:
        self.in_window = on
        self.read_rounds()

    def read_rounds(self) -> None:
        if self.arena_id is None:
            return
        with psycopg.connect(self.url, autocommit=True, application_name=f"{CLIENT_APP}-rounds") as conn:
            rounds = conn.execute("SELECT rounds FROM arena_arena WHERE id = %s", [self.arena_id]).fetchone()[0]
            tables = conn.execute("SELECT count(*) FROM arena_arenagame WHERE arena_id = %s",
                                  [self.arena_id]).fetchone()[0]
        self.rounds.append((time.monotonic(), rounds, tables))

    def run(self) -> None:
        with psycopg.connect(self.url, autocommit=True, application_name=f"{CLIENT_APP}-sampler") as conn:
            while not self.stop_event.wait(1.0):
                rows = conn.execute(
                    "SELECT coalesce(application_name, ''), coalesce(state, '') || CASE WHEN "
                    "wait_event_type = 'Lock' THEN ', waiting for a lock' ELSE '' END, count(*) "
                    "FROM pg_stat_activity WHERE datname = %s AND application_name NOT LIKE %s "
                    "GROUP BY 1, 2", [self.db, CLIENT_APP + "%"]).fetchall()
                by_app: dict[str, dict[str, int]] = {}
                for app, state, n in rows:
                    by_app.setdefault(app or "(unnamed)", {})[state or "(none)"] = n
                self.samples.append({"in_window": self.in_window, "by_app": by_app})

    def stop(self) -> None:
        self.stop_event.set()
        self.join(5)

    def summary(self) -> dict:
        out = {}
        for scope, samples in (("window", [s for s in self.samples if s["in_window"]]),
                               ("run", self.samples)):
            if not samples:
                continue
            totals = [sum(sum(v.values()) for v in s["by_app"].values()) for s in samples]
            apps = sorted({a for s in samples for a in s["by_app"]})
            states = sorted({st for s in samples for v in s["by_app"].values() for st in v})
            out[scope] = {
                "samples": len(samples), "max": max(totals), "mean": statistics.mean(totals),
                "by_process": {a: {"max": max(sum(s["by_app"].get(a, {}).values()) for s in samples),
                                   "mean": statistics.mean(sum(s["by_app"].get(a, {}).values())
                                                           for s in samples)} for a in apps},
                "by_state": {st: {"max": max(sum(v.get(st, 0) for v in s["by_app"].values()) for s in samples),
                                  "mean": statistics.mean(sum(v.get(st, 0) for v in s["by_app"].values())
                                                          for s in samples)} for st in states},
            }
        return out


# ----- the report -----------------------------------------------------------------------------
def summary(values: list[float], duration: float) -> dict:
    return {"samples": len(values), "per_s": len(values) / duration, "p50": percentile(values, 50),
            "p95": percentile(values, 95), "p99": percentile(values, 99),
            "max": max(values) if values else float("nan")}


def verdict(ok: bool) -> str:
    return "MET" if ok else "MISSED"


def report(args, data: dict, first: dict, bench: Bench, sampler: Sampler) -> dict:
    w = bench.window
    print()
    print(f"Arena bench: {len(bench.students)} students in {args.classes} classes, {args.servers} "
          f"{args.server} process(es), game {data['key']} {json.dumps(data['options'])}, think "
          f"{args.think} s, measured {args.duration:g} s after {args.warmup:g} s.")
    print(f"First pairing round over {first['waiting_before']} waiting students (one process, "
          f"before the web processes started): pairing {first['pairing_cpu_ms']:.1f} ms CPU "
          f"(target <= {TARGETS['pairing_cpu_ms']} ms: {verdict(first['pairing_cpu_ms'] <= TARGETS['pairing_cpu_ms'])}); "
          f"whole round {first['round_cpu_ms']:.0f} ms CPU, {first['round_wall_ms']:.0f} ms wall, "
          f"{first['tables']} tables dealt, {first['with_bots']} with computer players.")
    header = f"{'':40}{'samples':>8}{'per s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}  target"
    print(header)
    print("-" * len(header))
    rows = {}
    lines = (
        ("play: move -> opponent's table", "play_other", w.play_other_ms, "play_p95_ms"),
        ("play: move -> mover's own table", "play_self", w.play_self_ms, None),
        ("finished -> next table", "next_table", w.next_table_ms, "next_table_p95_ms"),
        ("finished -> arena page 'waiting'", "freed", w.freed_ms, None),
        ("sent to a table -> its first table", "first_table", w.first_seat_ms, None),
        ("the bench client's own loop lag", "client_lag", w.client_lag_ms, None),
    )
    for label, key, values, target in lines:
        s = summary(values, args.duration)
        rows[key] = s
        tail = ""
        if target:
            ok = bool(values) and s["p95"] <= TARGETS[target]
            s["verdict"] = ok
            tail = f"  p95 <= {TARGETS[target]}: {verdict(ok) if values else 'NO SAMPLES'}"
        print(f"{label:40}{s['samples']:>8}{s['per_s']:>8.1f}{s['p50']:>9.1f}{s['p95']:>9.1f}"
              f"{s['p99']:>9.1f}{s['max']:>9.1f}{tail}")
    print("-" * len(header))
    sizes = [b for _, b in w.screen]
    times = [t for t, _ in w.screen if w.measured(t)]
    gaps = [(b - a) * 1000 for a, b in zip(times, times[1:])]
    scr = {"pushes": len(sizes), "pushes_in_window": len(times), "per_s": len(times) / args.duration,
           "max_bytes": max(sizes) if sizes else 0, "p95_bytes": percentile(sizes, 95),
           "interval_min_ms": min(gaps) if gaps else float("nan"),
           "interval_p50_ms": percentile(gaps, 50)}
    scr["verdict"] = bool(sizes) and scr["max_bytes"] <= TARGETS["screen_push_bytes"]
    rows["screen"] = scr
    print(f"projector: {scr['pushes']} pushes ({scr['pushes_in_window']} in the window, "
          f"{scr['per_s']:.2f}/s), size max {scr['max_bytes']} B, p95 {scr['p95_bytes']:.0f} B "
          f"(target <= {TARGETS['screen_push_bytes']} B: {verdict(scr['verdict'])}); interval between "
          f"pushes min {scr['interval_min_ms']:.0f} ms, p50 {scr['interval_p50_ms']:.0f} ms")
    conns = sampler.summary()
    rows["connections"] = conns
    for scope in ("window", "run"):
        c = conns.get(scope)
        if not c:
            continue
        per = ", ".join(f"{a} max {v['max']} mean {v['mean']:.1f}" for a, v in c["by_process"].items())
        states = ", ".join(f"{st} max {v['max']} mean {v['mean']:.1f}" for st, v in c["by_state"].items())
        print(f"DB connections of the web processes ({scope}, {c['samples']} samples): max {c['max']}, "
              f"mean {c['mean']:.1f}; by process: {per}; by state: {states}")
    cpu = w.cpu
    if cpu:
        moves = max(1, w.moves_measured)
        server_ms = cpu["server_cores"] * args.duration / moves * 1000
        stack_ms = (cpu["server_cores"] + cpu["db_redis_cores"]) * args.duration / moves * 1000
        client_ms = cpu["client_cores"] * args.duration / moves * 1000
        (t0, r0, d0), (t1, r1, d1) = sampler.rounds[-2], sampler.rounds[-1]
        rounds, dealt = r1 - r0, d1 - d0
        rows["cpu"] = {**cpu, "moves": w.moves_measured, "server_ms_per_move": server_ms,
                       "stack_ms_per_move": stack_ms, "client_ms_per_move": client_ms,
                       "rounds": rounds, "tables_dealt": dealt}
        print(f"CPU in the window: servers {cpu['server_cores']:.2f} cores, PostgreSQL+Redis "
              f"{cpu['db_redis_cores']:.2f}, bench client {cpu['client_cores']:.2f}, whole machine "
              f"{100 * cpu['machine_busy']:.0f}% of {cpu['cores']} cores busy")
        print(f"  per move ({w.moves_measured} moves, {w.moves_measured / args.duration:.1f}/s; the "
              f"servers' CPU includes the {rounds} rounds that dealt {dealt} tables meanwhile): "
              f"servers {server_ms:.1f} ms, servers+PostgreSQL+Redis {stack_ms:.1f} ms, client {client_ms:.1f} ms")
    print(f"games: tables seen {w.tables_seen}, finished {w.games_finished} "
          f"({w.games_finished_measured} in the window); moves sent {w.moves}; "
          f"errors {w.errors or 'none'}" + (f"; notices {w.notices}" if w.notices else ""))
    for line in w.lost[:5]:
        print(f"  update never came: {line}")
    return rows


# ----- main -----------------------------------------------------------------------------------
def print_probes(probe_dir: str) -> None:
    """What probed_asgi.py recorded in each web process over the window."""
    time.sleep(1)
    for path in sorted(glob.glob(os.path.join(probe_dir, "*.json"))):
        with open(path) as f:
            figures = json.load(f)
        print(f"\nprobes of web process {os.path.basename(path)[:-5]} over the window "
              f"(ms; 'sum' = samples x mean):")
        print(f"{'':62}{'n':>7}{'p50':>8}{'p95':>8}{'p99':>8}{'max':>8}{'sum':>9}")
        for name in sorted(figures, key=lambda n: -sum(figures[n])):
            values = sorted(figures[name])
            print(f"{name[:62]:62}{len(values):>7}{percentile(values, 50):>8.1f}"
                  f"{percentile(values, 95):>8.1f}{percentile(values, 99):>8.1f}{values[-1]:>8.1f}"
                  f"{sum(values):>9.0f}")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--players", type=int, default=600, help="students (split evenly over --classes)")
    p.add_argument("--classes", type=int, default=20)
    p.add_argument("--servers", type=int, default=2, help="web processes (one per core)")
    p.add_argument("--server", choices=SERVERS, default=SERVERS[0],
                   help="the ASGI server of the web processes (uvicorn: on uvloop, httptools, websockets)")
    p.add_argument("--port", type=int, default=8765, help="first port; the next ones follow")
    p.add_argument("--think", default="2-6", help="think time range in seconds, MIN-MAX")
    p.add_argument("--warmup", type=float, default=15, help="seconds before the measured window")
    p.add_argument("--duration", type=float, default=120, help="measured seconds")
    p.add_argument("--game", default=None, help="a 2-player game key (default: the shortest in moves)")
    p.add_argument("--options", default=None, help="game options as JSON (default: its quickest preset)")
    p.add_argument("--seed", type=int, default=1000, help="which server each student's sockets use")
    p.add_argument("--db", default="nd_bench", help="PostgreSQL database (created, FLUSHED)")
    p.add_argument("--redis-db", type=int, default=5, help="Redis db number (FLUSHED)")
    p.add_argument("--timeout", type=float, default=15, help="seconds to wait for an update")
    p.add_argument("--connect-rate", type=float, default=100, help="new arena sockets per second")
    p.add_argument("--ticker", choices=["process", "web"], default="process",
                   help="where the pairing rounds run: one `manage.py arena_ticker` process beside the "
                        "web processes (ARENA_TICKER=0 for them; the default, as the Procfile runs it), "
                        "or a thread of each web process (as `make run` does)")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    p.add_argument("--probe", metavar="DIR",
                   help="time where the servers' work waits during the window (probed_asgi.py): "
                        "loop lag, each thread-pool call queued / ran / resumed, the ticker")
    p.add_argument("--log-dir", default=os.path.join(tempfile.gettempdir(), "numberdeck-bench"))
    p.add_argument("--log-level", default="WARNING",
                   help="the servers' LOG_LEVEL (INFO shows channels-redis dropping messages "
                        "over a channel's capacity)")
    args = p.parse_args(argv)
    args.think_min, args.think_max = (float(x) for x in args.think.split("-"))
    if args.players < 2 or args.classes < 1:
        p.error("--players must be at least 2 and --classes at least 1")
    return args


def run_fixtures(env: dict, *argv: str) -> dict:
    made = subprocess.run([sys.executable, os.path.join(fixtures.ROOT, "devtools", "bench", "arena_fixtures.py"),
                           *argv], env=env, cwd=fixtures.ROOT, capture_output=True, text=True)
    if made.returncode:
        raise SystemExit(f"arena_fixtures.py {argv[0]} failed:\n{made.stderr}")
    return json.loads(made.stdout)


def main(argv=None) -> int:
    args = parse_args(argv)
    env = fixtures.server_env(db=args.db, redis_db=args.redis_db)
    env["LOG_LEVEL"] = args.log_level
    os.environ.update(env)
    ports = [args.port + i for i in range(args.servers)]
    db_url = env["DATABASE_URL"]

    if args.game and args.options:
        key, options, preset, moves = args.game, json.loads(args.options), "(--options)", float("nan")
    else:
        key, options, preset, moves = quickest(args.game)
    busy = machine_busy(3.0)
    print(f"Before the run, the machine was {100 * busy:.0f}% busy without the bench.", flush=True)
    print(f"Game: {key}, preset {preset} {json.dumps(options)} (~{moves:.0f} moves a game between "
          "beginner bots).", flush=True)
    # The arena's clock must outlast the run (it is 5 to 40 minutes).
    minutes = min(40, max(5, math.ceil((args.warmup + args.duration + 60) / 60) + 1))
    print(f"Preparing database '{args.db}' and Redis db {args.redis_db}: {args.players} students "
          f"in {args.classes} classes, one arena of {minutes} minutes...", flush=True)
    fixtures.ensure_database(db_url)
    fixtures.flush_redis(env["REDIS_URL"])
    t = time.monotonic()
    data = run_fixtures(env, "prepare", str(args.players), str(args.classes), key, json.dumps(options),
                        str(minutes))
    print(f"  ready in {time.monotonic() - t:.0f} s; running the first pairing round...", flush=True)
    first = run_fixtures(env, "first-round", str(data["arena_id"]))
    print(f"  first round: {first['waiting_before']} waiting, {first['tables']} tables, pairing "
          f"{first['pairing_cpu_ms']:.1f} ms CPU, whole round {first['round_cpu_ms']:.0f} ms CPU",
          flush=True)

    web_ticker = "1" if args.ticker == "web" else "0"
    app = "config.asgi:application"
    if args.probe:
        args.probe = os.path.abspath(args.probe)
        os.makedirs(args.probe, exist_ok=True)
        for old in glob.glob(os.path.join(args.probe, "*.json")):
            os.remove(old)
        env["BENCH_PROBE_DIR"] = args.probe
        app = "devtools.bench.probed_asgi:application"
    servers = Servers(ports=ports, env=env, log_dir=args.log_dir, app=app, server=args.server,
                      env_for_port=lambda port: {"DATABASE_URL": f"{db_url}?application_name=daphne-{port}",
                                                 "ARENA_TICKER": web_ticker})
    where = "each ticks the arena" if args.ticker == "web" else "a process of its own ticks the arena"
    print(f"Starting {len(ports)} {args.server} process(es) on {ports} ({where})...", flush=True)
    servers.start()
    ticker = None
    if args.ticker == "process":
        ticker = subprocess.Popen(
            [sys.executable, "manage.py", "arena_ticker"], cwd=fixtures.ROOT,
            env={**env, "DATABASE_URL": f"{db_url}?application_name=arena-ticker"},
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(args.log_dir, "arena-ticker.log"), "w"),
            start_new_session=True)
        # Its CPU counts as the servers' (below), but it is not one of them: the probes' signals
        # (SIGUSR1/2) go to the web processes only (a ticker has no handler: they would end it).
    sampler = Sampler(db_url, args.db)
    sampler.arena_id = data["arena_id"]
    sampler.start()
    try:
        bench = Bench(args=args, data=data, ports=ports, db_url=db_url)
        print(f"Clients: warm-up {args.warmup:g} s, then {args.duration:g} s measured...", flush=True)
        def on_window(on: bool) -> None:
            if args.probe:
                servers.signal(signal.SIGUSR1 if on else signal.SIGUSR2)

        server_pids = servers.pids + ([ticker.pid] if ticker is not None else [])
        asyncio.run(bench.run(CpuMeter(server_pids), sampler, on_window))
        sampler.stop()
        rows = report(args, data, first, bench, sampler)
        if args.probe:
            print_probes(args.probe)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"args": {k: v for k, v in vars(args).items()}, "machine_busy_before": busy,
                           "game": {"key": key, "options": options, "preset": preset},
                           "first_round": first, "rows": rows, "errors": bench.window.errors},
                          f, indent=2, default=str)
    finally:
        sampler.stop()
        servers.stop()
        if ticker is not None:
            ticker.terminate()
            try:
                ticker.wait(timeout=10)
            except subprocess.TimeoutExpired:
                ticker.kill()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
