"""WebSocket latency bench: move -> the opponent's update, against a floor.

    .venv/bin/python devtools/bench/ws_latency.py --players 500 --servers 2 --duration 60

Starts its own Daphne processes (production settings, DEBUG off) on PostgreSQL `nd_bench` and
Redis db 5, creates N students with sessions and N/2 two-player games with known seeds,
connects every student over a real WebSocket and runs two phases on the same server:

- floor: the same sockets' topology on `ws/echo/` (pairs relaying through the channel layer
  at the same message rate), measuring send -> the other socket's echo;
- play: each student, on their turn, thinks (uniform random, --think) and sends a legal move;
  measured is send -> the opponent's socket receiving the table for the new version.

Prints p50/p95/p99 for both, their ratio, CPU use (the web processes', PostgreSQL's and Redis's,
the client's, and the whole machine's per message, from /proc/stat) and the verdict against
the targets. See devtools/bench/README.md, "Live play".

Scaling out (docs/deploy.md): `--servers 4 --redis-shards 2` runs four web processes
with the channel layer sharded over two redis-servers of the bench's own, to set beside
`--servers 2` (one Redis) at the same --players.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import pstats
import random
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # games.engine

import fixtures  # noqa: E402
from redis_servers import start_shards, stop_all  # noqa: E402
from servers import SERVERS, CpuMeter, Servers, machine_busy  # noqa: E402
from wsclient import Arrivals, Disconnected, Socket, now  # noqa: E402

# The registry is pure Python (engines, adapters, skills): no Django in this process.
from games import registry  # noqa: E402



def default_game() -> str:
    """The game the bench plays unless --game says otherwise: the one that seats the most
    players (The Multiplication Game, which the figures in devtools/bench/README.md were
    measured with); any game that seats two players can be benched with --game."""
    return max(registry.all_games(), key=lambda g: g.max_players).key

VERSION = re.compile(r'data-version="(\d+)"')
NOTICE = re.compile(r'<p class="alert alert-error">(.*?)</p>', re.S)


# ----- statistics ---------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = q / 100 * (len(ordered) - 1)
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


@dataclass
class Phase:
    """One phase's measurement window and what was seen in it."""

    name: str
    warmup: float
    duration: float
    start: float = 0.0
    other_ms: list[float] = field(default_factory=list)  # send -> the other socket
    self_ms: list[float] = field(default_factory=list)  # send -> the sender's own socket
    sent: int = 0
    sent_measured: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    notices: dict[str, int] = field(default_factory=dict)
    finished_games: int = 0
    cpu: dict = field(default_factory=dict)
    burst_opened: int = 0
    burst_total: int = 0
    burst_open_s: float = 0.0

    def begin(self) -> None:
        self.start = now()

    @property
    def measure_from(self) -> float:
        return self.start + self.warmup

    @property
    def measure_to(self) -> float:
        return self.start + self.warmup + self.duration

    def sending(self) -> bool:
        return now() < self.measure_to

    def measured(self, t_sent: float) -> bool:
        return self.measure_from <= t_sent < self.measure_to

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    def summary(self, values: list[float]) -> dict:
        return {"samples": len(values), "per_s": len(values) / self.duration,
                "p50": percentile(values, 50), "p95": percentile(values, 95),
                "p99": percentile(values, 99), "max": max(values) if values else float("nan")}


# ----- the simulated students ----------------------------------------------------------------
class Pair:
    """Two sockets that take turns: the one whose turn it is thinks, sends, and the other
    one's update is timed. Subclasses say what is sent and how an update is numbered."""

    def __init__(self, *, index: int, sockets_spec, phase: Phase, args, rng: random.Random):
        self.index, self.phase, self.args, self.rng = index, phase, args, rng
        self.arrivals = [Arrivals(), Arrivals()]
        self.sockets = [Socket(host="127.0.0.1", port=port, path=self.path, session_key=key,
                               on_text=self._handler(i))
                        for i, (port, key) in enumerate(sockets_spec)]

    def _handler(self, i):
        return lambda text, t: self.on_text(i, text, t)

    def think(self) -> float:
        return self.rng.uniform(self.args.think_min, self.args.think_max)

    async def take_turn(self, *, sender: int, number: int, text: str) -> bool:
        """Send `text`, wait for update `number` on the other socket; False stops the pair."""
        t0 = now()
        try:
            self.sockets[sender].send(text)
        except Disconnected:
            self.phase.error(f"socket closed by the server (code {self.sockets[sender].closed_code})")
            return False
        self.phase.sent += 1
        if self.phase.measured(t0):
            self.phase.sent_measured += 1
        other = 1 - sender
        try:
            t_other = await self.arrivals[other].wait(number, self.args.timeout)
            t_self = await self.arrivals[sender].wait(number, self.args.timeout)
        except asyncio.TimeoutError:
            self.phase.error("no update within --timeout")
            if self.phase.measured(t0):  # counted at --timeout, so percentiles never flatter
                self.phase.other_ms.append(self.args.timeout * 1000)
                self.phase.self_ms.append(self.args.timeout * 1000)
            return False
        if self.phase.measured(t0):
            self.phase.other_ms.append((t_other - t0) * 1000)
            self.phase.self_ms.append((t_self - t0) * 1000)
        return True


class EchoPair(Pair):
    """The floor: both sockets belong to one student on `ws/echo/`, whose consumer sends each
    message through the channel layer to the student's group, so it reaches both sockets,
    possibly on the other Daphne process, as a game update does, but with no database and
    no rendering."""

    path = "/ws/echo/"

    def on_text(self, i: int, text: str, t: float) -> None:
        try:
            number = json.loads(text)["echo"]["n"]
        except (ValueError, KeyError, TypeError):
            self.phase.error("unexpected echo")
            return
        self.arrivals[i].seen(number, t)

    async def run(self) -> None:
        sender, n = 0, 0
        while True:
            await asyncio.sleep(self.think())
            if not self.phase.sending():
                return
            n += 1
            if not await self.take_turn(sender=sender, number=n, text=json.dumps({"n": n})):
                return
            sender = 1 - sender


class WritePair(EchoPair):
    """The write floor: the echo, sent once the move's smallest durable write has committed
    (config/echo.py `touch_game`: the game locked and read with its seats, its row written back,
    committed). What a move adds beyond this is the engine, the insert and the rendering."""

    path = "/ws/echo/write/"


class GamePair(Pair):
    """A live two-player game. The bench keeps a replica of the game with the pure engine
    (same seed and options => same state; each accepted action is applied locally) and
    chooses each move with a beginner bot on the player's own view, so every move is legal
    without reading the database."""

    path = ""  # set per game in __init__

    def __init__(self, *, game: fixtures.BenchGame, **kwargs):
        self.path = f"/ws/game/{game.game_id}/"
        super().__init__(**kwargs)
        self.game = game
        spec = registry.spec_for(game.key)
        self.engine = spec.engine
        self.names = [p.name for p in game.players]
        self.state = self.engine.new_game(self.names, game.options, game.seed)
        if self.state != game.state:
            raise SystemExit(f"The local replica of game {game.game_id} differs from the server's.")
        self.version = 0
        self.bots = [spec.make_bot("beginner", seed=game.seed * 2 + i) for i in range(2)]

    def on_text(self, i: int, text: str, t: float) -> None:
        notice = NOTICE.search(text)
        if notice:
            message = notice.group(1).strip()
            self.phase.notices[message] = self.phase.notices.get(message, 0) + 1
        match = VERSION.search(text)
        if match is None:
            self.phase.error("update without data-version")
            return
        self.arrivals[i].seen(int(match.group(1)), t)

    async def run(self) -> None:
        try:
            for arrivals in self.arrivals:  # both tables on screen before anyone moves
                await arrivals.wait(0, self.args.timeout)
        except asyncio.TimeoutError:
            self.phase.error("no first table")
            return
        while not self.state.get("finished"):
            name = self.engine.waiting_for(self.state)[0]
            sender = self.names.index(name)
            await asyncio.sleep(self.think())
            if not self.phase.sending():
                return
            action = self.bots[sender].choose(self.engine.view(self.state, name))
            state, _ = self.engine.apply(self.state, name, action)
            message = json.dumps({
                "action": json.dumps(action), "expected_version": str(self.version),
                "idempotency_key": f"{secrets.token_hex(8)}-{action['type']}",
                "HEADERS": {"HX-Request": "true", "HX-Current-URL": f"/play/{self.game.game_id}/"},
            })
            if not await self.take_turn(sender=sender, number=self.version + 1, text=message):
                return
            self.state, self.version = state, self.version + 1
        self.phase.finished_games += 1


# ----- running a phase ------------------------------------------------------------------------
async def connect_all(pairs: list[Pair], rate: float) -> None:
    """Open every socket, `rate` per second at most (a classroom arriving, not a stampede)."""
    sockets = [s for p in pairs for s in p.sockets]
    gate = asyncio.Semaphore(64)

    async def one(k: int, sock: Socket):
        await asyncio.sleep(k / rate)
        async with gate:
            await sock.connect()

    results = await asyncio.gather(*(one(k, s) for k, s in enumerate(sockets)), return_exceptions=True)
    failed = [r for r in results if isinstance(r, BaseException)]
    if failed:
        raise SystemExit(f"{len(failed)} of {len(sockets)} sockets failed to connect: {failed[0]!r}")


async def run_phase(phase: Phase, pairs: list[Pair], args, servers: Servers | None, meter: CpuMeter) -> None:
    t = now()
    await connect_all(pairs, args.connect_rate)
    print(f"  {phase.name}: {sum(len(p.sockets) for p in pairs)} sockets open in {now() - t:.1f} s",
          flush=True)
    phase.begin()
    tasks = [asyncio.create_task(p.run()) for p in pairs]

    async def window():
        await asyncio.sleep(phase.warmup)
        meter.start()
        if args.profile and phase.name == "play" and servers:
            servers.signal(signal.SIGUSR1)
        await asyncio.sleep(phase.duration)
        phase.cpu = meter.stop()
        if args.profile and phase.name == "play" and servers:
            servers.signal(signal.SIGUSR2)

    await window()
    await asyncio.gather(*tasks)
    await close_all(pairs, args.connect_rate)


async def close_all(pairs: list[Pair], rate: float) -> None:
    """Close at the rate they opened: hundreds of simultaneous disconnects would measure a
    channel-layer burst (see README: redis-py's pool limit), not the end of a lesson."""
    sockets = [s for p in pairs for s in p.sockets]

    async def one(k: int, sock: Socket):
        await asyncio.sleep(k / rate)
        await sock.close()

    await asyncio.gather(*(one(k, s) for k, s in enumerate(sockets)))


async def run_burst(phase: Phase, pairs: list[Pair], args) -> None:
    """A bell: every socket opens within --burst-seconds, with no gate in front of the
    servers. Counted: sockets refused (a failed handshake, an HTTP error, a close by the
    server), and the time from starting to connect to the first table (game sockets)."""
    sockets = [s for p in pairs for s in p.sockets]
    rate = len(sockets) / max(args.burst_seconds, 0.001)
    started: dict[int, float] = {}

    async def one(k: int, sock: Socket):
        await asyncio.sleep(k / rate)
        started[k] = now()
        try:
            await sock.connect(timeout=args.timeout)
        except Exception as exc:  # noqa: BLE001 - every kind of refusal is counted
            phase.error(f"refused ({type(exc).__name__}: {str(exc)[:80]})")
            return False
        return True

    t0 = now()
    opened = await asyncio.gather(*(one(k, s) for k, s in enumerate(sockets)))
    phase.burst_open_s = now() - t0
    phase.burst_opened = sum(opened)
    if phase.name == "burst":  # game sockets: each must get its first table
        k = 0
        for pair in pairs:
            for i, _ in enumerate(pair.sockets):
                if opened[k]:
                    try:
                        t = await pair.arrivals[i].first(args.timeout)
                        phase.other_ms.append((t - started[k]) * 1000)
                    except asyncio.TimeoutError:
                        phase.error("no first table")
                k += 1
    await asyncio.sleep(1.0)  # a socket closed by the server just after opening is refused too
    closed = sum(1 for s, ok in zip(sockets, opened) if ok and s.closed.done())
    if closed:
        phase.errors[f"closed by the server after opening"] = closed
    await close_all(pairs, args.connect_rate)


def socket_ports(count: int, ports: list[int], seed: int) -> list[int]:
    """Which server each socket lands on: random, as a load balancer would spread them, so a
    game's two players share a process about half the time with two processes."""
    rng = random.Random(seed)
    return [rng.choice(ports) for _ in range(count)]


def build_pairs(kind: str, games, ports, phase, args) -> list[Pair]:
    pairs = []
    for g, game in enumerate(games):
        a, b = game.players
        rng = random.Random(args.seed * 7919 + g + (0 if kind == "play" else 1_000_003))
        spec_ports = ports[2 * g: 2 * g + 2]
        if kind in ("play", "burst"):
            spec = [(spec_ports[0], a.session_key), (spec_ports[1], b.session_key)]
            pairs.append(GamePair(game=game, index=g, sockets_spec=spec, phase=phase, args=args, rng=rng))
        else:
            spec = [(spec_ports[0], a.session_key), (spec_ports[1], a.session_key)]
            kind_of_pair = WritePair if kind == "write" else EchoPair
            pairs.append(kind_of_pair(index=g, sockets_spec=spec, phase=phase, args=args, rng=rng))
    return pairs


# ----- the report -----------------------------------------------------------------------------
def print_report(args, phases: dict[str, Phase], ports: list[int]) -> dict:
    mean_think = (args.think_min + args.think_max) / 2
    games = args.players // 2
    print()
    print(f"Numberdeck WebSocket latency: {args.players} students, {games} two-player "
          f"'{args.game}' games, {len(ports)} {args.server} process(es) on port(s) "
          f"{', '.join(map(str, ports))}")
    layer = (f"channels-redis sharded over {len(args.shard_urls)} private redis-servers "
             f"({', '.join(args.shard_urls)}), cache and broker on db {args.redis_db}"
             if args.shard_urls else f"channels-redis db {args.redis_db}")
    print(f"Stack: config.settings.production (DEBUG off), PostgreSQL '{args.db}', {layer}. "
          f"Think time uniform {args.think_min:g}-{args.think_max:g} s "
          f"(expected ~{games / mean_think:.0f} moves/s). Warm-up {args.warmup:g} s, measured "
          f"{args.duration:g} s per phase.")
    header = f"{'':34}{'samples':>8}{'per s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}"
    print(header)
    print("-" * len(header))
    rows = {}
    for phase in phases.values():
        if phase.name.startswith("burst"):
            s = phase.summary(phase.other_ms)
            refused = sum(n for kind, n in phase.errors.items() if kind != "no first table")
            print(f"{phase.name}: {phase.burst_opened} of {phase.burst_total} sockets opened in "
                  f"{phase.burst_open_s:.1f} s (target: all within {args.burst_seconds:g} s), "
                  f"refused {refused}" + (f"; connect -> first table p50 {s['p50']:.0f} ms, "
                                          f"p95 {s['p95']:.0f} ms" if phase.other_ms else ""))
            rows[f"{phase.name}.connect"] = {**s, "opened": phase.burst_opened,
                                            "total": phase.burst_total, "refused": refused}
    for label, phase_name, attr in (
        ("floor: echo -> other socket", "floor", "other_ms"),
        ("floor: echo -> own socket", "floor", "self_ms"),
        ("write: write+echo -> other socket", "write", "other_ms"),
        ("play: move -> opponent's table", "play", "other_ms"),
        ("play: move -> mover's own table", "play", "self_ms"),
    ):
        phase = phases.get(phase_name)
        if phase_name.startswith("burst"):
            continue
        if phase is None:
            continue
        s = phase.summary(getattr(phase, attr))
        rows[f"{phase_name}.{attr}"] = s
        print(f"{label:34}{s['samples']:>8}{s['per_s']:>8.1f}{s['p50']:>9.1f}{s['p95']:>9.1f}"
              f"{s['p99']:>9.1f}{s['max']:>9.1f}")
    print("-" * len(header))
    verdict = {}
    if "play.other_ms" in rows and "floor.other_ms" in rows:
        play, floor = rows["play.other_ms"], rows["floor.other_ms"]
        ratios = {q: play[q] / floor[q] if floor[q] else float("inf") for q in ("p50", "p95", "p99")}
        print("play / floor:                     " + "   ".join(f"{q} {r:.2f}x" for q, r in ratios.items()))
        verdict = {"p95_le_100ms": play["p95"] <= 100, "p95_le_2x_floor": ratios["p95"] <= 2}
        print(f"Target p95 <= 100 ms: {'MET' if verdict['p95_le_100ms'] else 'MISSED'} "
              f"({play['p95']:.1f} ms); p95 <= 2x floor: "
              f"{'MET' if verdict['p95_le_2x_floor'] else 'MISSED'} ({ratios['p95']:.2f}x)")
    if "write.other_ms" in rows and "floor.other_ms" in rows:
        write, floor = rows["write.other_ms"], rows["floor.other_ms"]
        ratios = {q: write[q] / floor[q] if floor[q] else float("inf") for q in ("p50", "p95", "p99")}
        print("write / floor (the database alone): " + "   ".join(f"{q} {r:.2f}x" for q, r in ratios.items()))
        if "play.other_ms" in rows:
            play = rows["play.other_ms"]
            print("play / write:                       " + "   ".join(
                f"{q} {play[q] / write[q] if write[q] else float('inf'):.2f}x" for q in ("p50", "p95", "p99")))
    for phase in phases.values():
        c = phase.cpu
        if c:
            per_msg = cpu_ms_per_message(phase, "server")
            machine_ms = c["machine_ms_per_message"] = cpu_ms_per_message(phase, "machine")
            print(f"{phase.name}: CPU during the measured window: server {c['server_cores']:.2f} cores "
                  f"({per_msg:.1f} ms of server CPU per message), "
                  f"PostgreSQL+Redis {c['db_redis_cores']:.2f} cores (all databases), "
                  f"bench client {c['client_cores']:.2f} cores, whole machine "
                  f"{100 * c['machine_busy']:.0f}% of {c['cores']} cores busy "
                  f"({machine_ms:.1f} ms of whole-machine CPU per message)")
        print(f"{phase.name}: messages sent {phase.sent}, errors {phase.errors or 'none'}"
              + (f", notices {phase.notices}" if phase.notices else "")
              + (f", games finished {phase.finished_games}" if phase.name == "play" else ""))
    ceiling = cpu_ceiling(phases)
    for measure, c in (ceiling or {}).items():
        print(f"CPU per message ({'the web processes' if measure == 'server' else 'the whole machine'}): "
              + ", ".join(f"{name} {ms:.1f} ms" for name, ms in c["ms"].items())
              + f"; with all of a move but the {c['floor']} floor's work free, a core would serve at most "
              + f"{c['at_most']:.2f}x the moves it serves now")
    return {"rows": rows, "verdict": verdict, "machine_busy_before": args.machine_busy_before,
            "cpu_ceiling": ceiling,
            "phases": {n: {"errors": p.errors, "notices": p.notices, "cpu": p.cpu, "sent": p.sent}
                       for n, p in phases.items()}}


def cpu_ms_per_message(phase: Phase, measure: str) -> float:
    """Milliseconds of CPU per message sent in the phase's window: the web processes'
    ("server"), or everything the machine ran in it ("machine": web processes, PostgreSQL,
    every Redis, this client, and anything else running: /proc/stat)."""
    c = phase.cpu
    cores = c["server_cores"] if measure == "server" else c["machine_busy"] * c["cores"]
    return cores * phase.duration / max(1, phase.sent_measured) * 1000


def cpu_ceiling(phases: dict) -> dict | None:
    """The CPU a move costs beside the floors' (a bare echo through the channel layer; the
    echo after a move's smallest durable write) measured in the same run, for the web
    processes and for the whole machine: a move keeps at least the highest floor's work, so
    play / that floor is the most that cutting all the rest could multiply the moves a core
    serves (devtools/bench/README.md, "What bounds a move's cost")."""
    ceiling = {}
    for measure in ("server", "machine"):
        ms = {name: cpu_ms_per_message(phases[name], measure) for name in ("floor", "write", "play")
              if name in phases and phases[name].cpu and phases[name].sent_measured}
        floor = next((name for name in ("write", "floor") if ms.get(name)), None)  # the write floor holds the echo
        if "play" not in ms or floor is None:
            return None
        ceiling[measure] = {"ms": ms, "floor": floor, "at_most": ms["play"] / ms[floor]}
    return ceiling


def print_profile(profile_dir: str, top: int = 25) -> None:
    for part in ("worker", "main"):
        files = sorted(glob.glob(os.path.join(profile_dir, f"*-{part}.prof")))
        if not files:
            print(f"(no {part} profile written)")
            continue
        stats = pstats.Stats(*files)
        for order in ("cumulative", "tottime"):
            print(f"\n=== cProfile (CPU time), {part} thread(s) of {len(files)} Daphne process(es), "
                  f"play window, by {order} ===")
            stats.sort_stats(order).print_stats(top)


# ----- main -----------------------------------------------------------------------------------
def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--players", type=int, default=500, help="simulated students (even)")
    p.add_argument("--servers", type=int, default=2, help="web processes (one per core)")
    p.add_argument("--server", choices=SERVERS, default=SERVERS[0],
                   help="the ASGI server of the web processes (uvicorn: on uvloop, httptools, websockets)")
    p.add_argument("--port", type=int, default=8765, help="first port; the next ones follow")
    p.add_argument("--no-server", action="store_true",
                   help="use Daphne processes already running on those ports with the same "
                        "database and Redis db (the bench still creates the data)")
    p.add_argument("--think", default="2-6", help="think time range in seconds, MIN-MAX")
    p.add_argument("--warmup", type=float, default=20)
    p.add_argument("--duration", type=float, default=60, help="measured seconds per phase")
    p.add_argument("--phases", default="floor,play",
                   help="which phases, in order: floor, write (the floor after a move's smallest "
                        "durable write: config/echo.py), play, burst (every game socket opens "
                        "within --burst-seconds), burst-echo (the same on the echo socket)")
    p.add_argument("--burst-seconds", type=float, default=2.0,
                   help="the burst phases open every socket within this many seconds")
    two_players = [g.key for g in registry.all_games() if g.min_players <= 2 <= g.max_players]
    p.add_argument("--game", default=default_game(), choices=two_players,
                   help="a registered game that seats two players")
    p.add_argument("--options", default="{}", help="game options as JSON")
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--db", default="nd_bench", help="PostgreSQL database (created, flushed)")
    p.add_argument("--redis-db", type=int, default=5, help="Redis db number (flushed)")
    p.add_argument("--redis-shards", type=int, default=0, metavar="N",
                   help="shard the channel layer over N redis-servers of the bench's own (started "
                        "on free ports, stopped at the end: CHANNEL_REDIS_URLS); the cache and "
                        "Celery's broker stay on --redis-db. 0: the layer on --redis-db too")
    p.add_argument("--timeout", type=float, default=15, help="seconds to wait for an update")
    p.add_argument("--connect-rate", type=float, default=100, help="new sockets per second")
    p.add_argument("--profile", metavar="DIR", help="cProfile the servers during the play window")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    p.add_argument("--log-dir", default=os.path.join(tempfile.gettempdir(), "numberdeck-bench"),
                   help="where the Daphne processes' logs go")
    args = p.parse_args(argv)
    args.think_min, args.think_max = (float(x) for x in args.think.split("-"))
    if args.players < 2 or args.players % 2:
        p.error("--players must be an even number, at least 2")
    if args.redis_shards and args.no_server:
        p.error("--redis-shards starts redis-servers for the bench's own web processes: not with --no-server")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    shards = start_shards(args.redis_shards) if args.redis_shards else []
    try:
        return run(args, shards)
    finally:
        stop_all(shards)


def run(args, shards) -> int:
    env = fixtures.server_env(db=args.db, redis_db=args.redis_db)
    args.shard_urls = [shard.url() for shard in shards]
    if shards:
        env["CHANNEL_REDIS_URLS"] = ",".join(args.shard_urls)
        print(f"The channel layer is sharded over {len(shards)} redis-servers: "
              f"{', '.join(args.shard_urls)}", flush=True)
    ports = [args.port + i for i in range(args.servers)]
    app = "config.asgi:application"
    if args.profile:
        args.profile = os.path.abspath(args.profile)
        os.makedirs(args.profile, exist_ok=True)
        for old in glob.glob(os.path.join(args.profile, "*.prof")):
            os.remove(old)
        env["BENCH_PROFILE_DIR"] = args.profile
        app = "devtools.bench.profiled_asgi:application"
    os.environ.update(env)

    busy = args.machine_busy_before = machine_busy(3.0)
    print(f"Before the run, the machine was {100 * busy:.0f}% busy without the bench "
          "(other work on it skews every figure).", flush=True)
    print(f"Preparing database '{args.db}' and Redis db {args.redis_db}...", flush=True)
    fixtures.ensure_database(env["DATABASE_URL"])
    fixtures.flush_redis(env["REDIS_URL"])
    made = subprocess.run([sys.executable, os.path.join(fixtures.ROOT, "devtools", "bench", "fixtures.py"),
                           str(args.players), args.game, str(args.seed), args.options],
                          env=env, cwd=fixtures.ROOT, capture_output=True, text=True)
    if made.returncode:
        raise SystemExit(f"Preparing the data failed:\n{made.stderr}")
    games = fixtures.load(made.stdout)

    servers = None
    if not args.no_server:
        servers = Servers(ports=ports, env=env, log_dir=args.log_dir, app=app, server=args.server)
        print(f"Starting {len(ports)} {args.server} process(es) on {ports}...", flush=True)
        servers.start()
    try:
        meter = CpuMeter(servers.pids if servers else [])
        placement = socket_ports(args.players, ports, args.seed)
        phases: dict[str, Phase] = {}
        for name in [x.strip() for x in args.phases.split(",") if x.strip()]:
            phase = Phase(name, args.warmup, args.duration)
            phases[name] = phase
            print(f"Phase '{name}': warm-up {args.warmup:g} s, then {args.duration:g} s measured...",
                  flush=True)
            pairs = build_pairs(name, games, placement, phase, args)
            if name.startswith("burst"):
                phase.burst_total = sum(len(p.sockets) for p in pairs)
                asyncio.run(run_burst(phase, pairs, args))
            else:
                asyncio.run(run_phase(phase, pairs, args, servers, meter))
        figures = print_report(args, phases, ports)
        if args.profile and servers:
            time.sleep(3)  # the worker threads write their profile when they next run
            print_profile(args.profile)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"args": {k: v for k, v in vars(args).items()}, **figures}, f, indent=2)
    finally:
        if servers:
            servers.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
