"""A school's whole morning against the production configuration, as browsers drive it.

    .venv/bin/python devtools/bench/morning.py                                 # 1,500 students in 50 classes
    .venv/bin/python devtools/bench/morning.py --students 60 --classes 2 --signin-seconds 20 --play-seconds 60
    .venv/bin/python devtools/bench/morning.py --district                      # 4 web processes, Redis by role, PgBouncer

Starts its own stack (morning_stack.py): two Daphne processes with config.settings.production,
the arena ticker, a Celery worker with beat, on its own PostgreSQL database (`nd_morning`,
FLUSHED) and Redis db (11, FLUSHED). Prepares N students in C classes (morning_fixtures.py):
one teacher per class (e-mail and password), picture passwords, an assignment per class
against one computer player; the last --arena-classes classes play a class arena instead.

Then, in one asyncio client process with no Django (morning_clients.py), the morning:
- every teacher signs in (spread over the first third of the sign-in window), opens the class
  dashboard and keeps its live socket open; the arena
  classes' teachers make an arena (arena:new) and start it once their class has signed in;
- the children sign in spread over --signin-seconds (class code -> name -> pictures, with the
  session and CSRF cookies and redirects a browser follows), open their home page, start their
  assignment (its play page, then "Start the game"), open the table page and its socket, and
  play: whenever their board offers moves they think (--think) and send one of the board's move
  forms; when a game ends they start another, until --play-seconds after the sign-in window;
- arena children join with the arena's code and play the tables the arena seats them at;
- half-way through, one teacher asks for a class export, polls its job page and downloads it;
- every second: the bench database's connections, finished games still without a report, the
  broker's queue.

It prints, per kind of request and push, count, p50/p95/p99 and errors; CPU by component; the
finished-game-on-dashboard latency; the report queue over time; and the targets, pass or fail.
See devtools/bench/README.md, "Morning".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # live

from morning_clients import ArenaInfo, Child, Recorder, Teacher  # noqa: E402
from morning_http import Browser  # noqa: E402
from morning_stack import Sampler, Stack  # noqa: E402
from servers import machine_busy  # noqa: E402
from ws_latency import percentile  # noqa: E402
from wsclient import now  # noqa: E402

TARGETS_MS = {"children's pages in the sign-in burst": 500, "teacher: sign-in": 1000,
              "move -> own update": 100, "finished game on its teacher's dashboard": 5000}
CHILD_PAGES = ("sign-in: code page", "sign-in: class code", "sign-in: name", "sign-in: pictures",
               "home", "table page")
DRAIN_SECONDS = 60
BURST_TAIL = 10  # the sign-in burst: the sign-in window and the seconds its last pages take


def reference_loop() -> float:
    """CPU seconds of the README's reference loop on this machine, now."""
    t, s = time.process_time(), 0
    for i in range(10**7):
        s += i * i
    return time.process_time() - t


# ----- the morning ----------------------------------------------------------------------------
async def morning(args, data: dict, ports: list[int], rec: Recorder, mark) -> dict:
    rng = random.Random(args.seed)
    port_of = lambda: rng.choice(ports)  # noqa: E731 - a load balancer's choice per browser
    teachers, children = [], []
    for klass in data["classes"]:
        info = ArenaInfo(asyncio.get_running_loop().create_future()) if klass["arena"] else None
        teacher = Teacher(klass=klass, browser=Browser(port=port_of()), rec=rec, args=args, arena=info)
        teachers.append(teacher)
        for student in klass["students"]:
            children.append(Child(student=student, klass=klass, browser=Browser(port=port_of()), rec=rec,
                                  args=args, rng=random.Random(rng.random()), teacher=teacher, arena=info))
    rng.shuffle(children)

    async def teacher_morning(k: int, teacher: Teacher) -> None:
        # Teachers come in over the first third of the sign-in window, ahead of most of their
        # class, as they do before the bell (not all in the same second: a password check is
        # a deliberate ~0.1 s of CPU).
        await asyncio.sleep(args.signin_seconds / 3 * k / max(1, len(teachers)))
        if not await teacher.sign_in() or not await teacher.open_dashboard():
            rec.notes["teachers who could not open their dashboard"] += 1
            if teacher.arena is not None and not teacher.arena.ready.done():
                teacher.arena.ready.set_result(None)
            return
        if teacher.arena is not None:
            if not await teacher.make_arena(game=data["game"], preset=data["preset"], minutes=40):
                teacher.arena.ready.set_result(None)
                return
            await asyncio.sleep(max(0.0, args.signin_seconds + 5 - (now() - rec.t0)))
            await teacher.start_arena()
            for _ in range(3):  # students who joined after the start wait to be let in
                await asyncio.sleep(10)
                await teacher.let_in_late()

    async def child_morning(k: int, child: Child) -> None:
        await asyncio.sleep(args.signin_seconds * k / max(1, len(children)))
        await child.run()

    async def export_midway() -> None:
        await asyncio.sleep(args.signin_seconds + args.play_seconds / 2)
        exporter = next((t for t in teachers if t.arena is None and t.sock is not None), None)
        if exporter is not None:
            await exporter.export()

    t_teachers = [asyncio.create_task(teacher_morning(k, t)) for k, t in enumerate(teachers)]
    t_children = [asyncio.create_task(child_morning(k, c)) for k, c in enumerate(children)]
    t_export = asyncio.create_task(export_midway())
    await asyncio.sleep(args.signin_seconds + BURST_TAIL)
    mark("sign-in burst")
    await asyncio.sleep(max(0.0, args.signin_seconds + args.play_seconds - (now() - rec.t0)))
    rec.playing = False
    play_stopped = now() - rec.t0
    mark("play")
    print(f"  play stopped at {play_stopped:.0f} s; waiting for the children's last moves...", flush=True)
    await asyncio.wait(t_children, timeout=args.timeout + 10)
    for task in t_children:
        task.cancel()
    await asyncio.gather(*t_children, *t_teachers, return_exceptions=True)
    await asyncio.wait([t_export], timeout=120)
    # The dashboards stay open while the finished games' reports drain.
    await asyncio.sleep(min(DRAIN_SECONDS, 15) if args.drain_wait is None else args.drain_wait)
    await asyncio.gather(*(t.close() for t in teachers), return_exceptions=True)
    return {"play_stopped": play_stopped, "children": len(children), "teachers": len(teachers)}


# ----- the report -----------------------------------------------------------------------------
def stats(values: list[float]) -> tuple[int, float, float, float]:
    return len(values), percentile(values, 50), percentile(values, 95), percentile(values, 99)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def print_windows(rec: Recorder, windows: list[tuple[str, float, float, dict]]) -> None:
    """CPU by component and operations by kind in each window of the run (the sign-in burst,
    play after it, the reports' drain): what docs/capacity.md's arithmetic rests on."""
    print("By window (CPU seconds by component; operations by kind):")
    for label, start, end, cpu in windows:
        counts = {kind: sum(1 for t, _ in values if start < t <= end) for kind, values in rec.samples.items()}
        counts = {kind: n for kind, n in sorted(counts.items()) if n}
        print(f"  {label} ({start:.0f}-{end:.0f} s): " + ", ".join(f"{k} {v:.1f}" for k, v in cpu.items()))
        print("    " + "; ".join(f"{kind} {n}" for kind, n in counts.items()))


def report(args, rec: Recorder, sampler: Sampler, cpu: dict, cpu_seconds: float, run: dict,
           stack: Stack, loop_s: float, busy: float, windows: list) -> dict:
    burst_end = args.signin_seconds + BURST_TAIL
    print()
    print(f"Numberdeck morning: {args.students} students in {args.classes} classes "
          f"({args.arena_classes} in an arena), {stack.describe()}.")
    print(f"Sign-in over {args.signin_seconds:g} s, play until {run['play_stopped']:.0f} s, think "
          f"{args.think}; game {args.game} ({args.preset}). Reference loop {loop_s:.2f} s; the machine "
          f"was {100 * busy:.0f}% busy before the run.")
    header = f"{'':44}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}{'again':>7}"
    print(header)
    print("-" * len(header))
    rows = {}
    for kind in sorted(rec.samples):
        values = [ms for _, ms in rec.samples[kind]]
        errors = sum(n for k, n in rec.errors.items() if k.startswith(kind + ":"))
        n, p50, p95, p99 = stats(values)
        rows[kind] = {"count": n, "p50": p50, "p95": p95, "p99": p99, "errors": errors,
                      "try_again": rec.try_again.get(kind, 0)}
        print(f"{kind:44}{n:>7}{p50:>9.1f}{p95:>9.1f}{p99:>9.1f}{errors:>8}{rec.try_again.get(kind, 0):>7}")
    latencies, unseen = [], 0
    for key, t_child in rec.finished_at.items():
        t_dash = rec.dashboard_at.get(key)
        if t_dash is None:
            unseen += 1
        else:
            latencies.append((t_dash - t_child) * 1000)
    n, p50, p95, p99 = stats(latencies)
    rows["finished game on its teacher's dashboard"] = {"count": n, "p50": p50, "p95": p95, "p99": p99,
                                                        "unseen": unseen}
    print(f"{'finished game on its teacher dashboard':44}{n:>7}{p50:>9.1f}{p95:>9.1f}{p99:>9.1f}"
          f"   never seen: {unseen}")
    print("-" * len(header))
    errors = sum(rec.errors.values())
    print(f"Errors: {dict(rec.errors) or 'none'}; told to try again: {dict(rec.try_again) or 'none'}; "
          f"other answers: {dict(rec.unexpected) or 'none'}")
    print(f"Moves sent {rec.moves_sent}, lost (never answered within --timeout) {rec.moves_lost}; "
          f"games finished {len(rec.finished_at)}. Notes: {dict(rec.notes) or 'none'}")
    operations = sum(len(v) for v in rec.samples.values()) + rec.moves_sent
    print(f"CPU over {cpu_seconds:.0f} s ({operations} operations: requests, socket opens, moves):")
    for name, seconds in cpu.items():
        print(f"  {name:16} {seconds:7.1f} s  {seconds / cpu_seconds:5.2f} cores  "
              f"{1000 * seconds / max(1, operations):6.2f} ms per operation")
    print_windows(rec, windows)
    connections = max((c for _, c, _, _ in sampler.rows), default=0)
    print(f"PostgreSQL connections to '{args.db}': max {connections} (sampled every second)")
    print("Report work over time (s: finished games without a report / broker queue):")
    step = max(1, -(-len(sampler.rows) // 24))  # at most 24 samples on the line
    print("  " + "  ".join(f"{t:.0f}:{u}/{q}" for t, _, u, q in sampler.rows[::step]))
    stopped = run["play_stopped"]
    drained_at = next((t for t, _, u, _ in sampler.rows if t >= stopped and u == 0), None)
    last_unreported = sampler.rows[-1][2] if sampler.rows else -1
    drained = drained_at is not None and drained_at - stopped <= DRAIN_SECONDS
    print(f"Report queue after play stopped: " + (f"drained {drained_at - stopped:.0f} s after" if drained_at
                                                   else f"not drained ({last_unreported} games left)"))

    in_burst = [ms for kind in CHILD_PAGES for t, ms in rec.samples.get(kind, []) if t <= burst_end]
    checks = {
        "children's sign-in steps, home and table page p95 <= 500 ms in the sign-in burst":
            (percentile(in_burst, 95), TARGETS_MS["children's pages in the sign-in burst"]),
        "teacher sign-in p95 <= 1 s": (rows.get("teacher: sign-in", {}).get("p95", float("nan")), 1000),
        "moves p95 <= 100 ms": (percentile([ms for k in rec.samples if k.endswith("move -> own update")
                                            for _, ms in rec.samples[k]], 95), 100),
        "finished game on its teacher's dashboard p95 <= 5 s": (p95, 5000),
    }
    verdicts = {}
    print("Targets:")
    for name, (value, limit) in checks.items():
        verdicts[name] = value <= limit  # NaN (nothing measured) fails
        print(f"  {verdict(verdicts[name])}  {name} ({value:.1f} ms)")
    more = {
        "report queue drained within 60 s of play stopping, no job lost": drained and last_unreported == 0,
        "0 errors (HTTP >= 500, socket failures), no move lost": errors == 0 and rec.moves_lost == 0,
        "every finished game seen on its teacher's dashboard": unseen == 0,
        f"PostgreSQL connections bounded ({connections} <= {args.max_connections})": connections <= args.max_connections,
    }
    for name, ok in more.items():
        verdicts[name] = ok
        print(f"  {verdict(ok)}  {name}")
    return {"rows": rows, "verdicts": verdicts, "cpu": cpu, "cpu_seconds": cpu_seconds,
            "samples": sampler.rows, "reference_loop": loop_s, "machine_busy_before": busy,
            "errors": dict(rec.errors), "try_again": dict(rec.try_again), "notes": dict(rec.notes),
            "moves_sent": rec.moves_sent, "moves_lost": rec.moves_lost,
            "windows": [{"label": label, "start": start, "end": end, "cpu": cpu_w,
                         "operations": {kind: sum(1 for t, _ in values if start < t <= end)
                                        for kind, values in rec.samples.items()}}
                        for label, start, end, cpu_w in windows]}


# ----- main -----------------------------------------------------------------------------------
def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--students", type=int, default=1500)
    p.add_argument("--classes", type=int, default=50)
    p.add_argument("--arena-classes", type=int, default=None,
                   help="classes that play a class arena instead of their assignment "
                        "(default 2 with 4 classes or more, 1 with 2-3, 0 with 1)")
    p.add_argument("--signin-seconds", type=float, default=180, help="the children sign in spread over this")
    p.add_argument("--play-seconds", type=float, default=300,
                   help="play goes on this long after the sign-in window, then stops")
    p.add_argument("--think", default="2-6", help="a child's think time before a move, MIN-MAX seconds")
    p.add_argument("--game", default="smooth_operator",
                   help="the assignments' and arenas' game: one whose board has a form for every move")
    p.add_argument("--preset", default="quick", help="its level (preset)")
    p.add_argument("--district", action="store_true",
                   help="4 web processes, the channel layer on 2 redis-servers, cache and broker on their "
                        "own, PgBouncer (transaction mode) in front of PostgreSQL")
    p.add_argument("--port", type=int, default=8780, help="first web port; the next ones follow")
    p.add_argument("--db", default="nd_morning", help="PostgreSQL database (created, FLUSHED)")
    p.add_argument("--redis-db", type=int, default=11, help="Redis db number (FLUSHED; not with --district)")
    p.add_argument("--timeout", type=float, default=15, help="seconds to wait for a move's answer")
    p.add_argument("--drain-wait", type=float, default=None,
                   help="seconds the dashboards stay open after play stops (default 15)")
    p.add_argument("--max-connections", type=int, default=None,
                   help="the connection bound to check (default: each process's pool, DB_POOL_MAX_SIZE=10, "
                        "x (web processes + ticker + worker pool) + beat's few)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    p.add_argument("--keep-logs", action="store_true", help="keep the run's temporary folder (logs)")
    args = p.parse_args(argv)
    args.think_min, args.think_max = (float(x) for x in args.think.split("-"))
    if args.arena_classes is None:
        args.arena_classes = 2 if args.classes >= 4 else (1 if args.classes >= 2 else 0)
    if args.students < args.classes or not 0 <= args.arena_classes <= args.classes:
        p.error("need at least one student a class, and at most --classes arena classes")
    if args.max_connections is None:
        web = 4 if args.district else 2
        args.max_connections = 10 * (web + 1 + 2) + 5 if not args.district else 20 + 10 * 3 + 5
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    loop_s = reference_loop()
    busy = machine_busy(3.0)
    print(f"Reference loop: {loop_s:.2f} s of CPU. The machine was {100 * busy:.0f}% busy before the run.",
          flush=True)
    workdir = tempfile.mkdtemp(prefix="numberdeck-morning-")
    os.chmod(workdir, 0o755)
    stack = Stack(args=args, workdir=workdir)
    try:
        print(f"Preparing {args.students} students in {args.classes} classes in '{args.db}'...", flush=True)
        data = stack.prepare()
        print(f"Starting the stack (logs in {workdir})...", flush=True)
        stack.start()
        rec = Recorder()
        sampler = Sampler(db_url=stack.env["DATABASE_URL"], db=args.db,
                          broker_url=stack.env.get("CELERY_BROKER_URL") or stack.env["REDIS_URL"], t0=rec.t0)
        sampler.start()
        cpu0, t_cpu = stack.cpu(), now()
        print(f"The morning: sign-in over {args.signin_seconds:g} s, then {args.play_seconds:g} s of play...",
              flush=True)
        marks = [("start", 0.0, cpu0)]
        run = asyncio.run(morning(args, data, stack.ports, rec,
                                  lambda label: marks.append((label, now() - rec.t0, stack.cpu()))))
        cpu1, cpu_seconds = stack.cpu(), now() - t_cpu
        # The reports' queue is watched until it drains (or the target's minute has passed).
        deadline = rec.t0 + run["play_stopped"] + DRAIN_SECONDS + 5
        while now() < deadline and not (sampler.rows and sampler.rows[-1][2] == 0
                                        and sampler.rows[-1][0] >= run["play_stopped"]):
            time.sleep(1)
        sampler.stopping.set()
        sampler.join()
        cpu = {name: cpu1[name] - cpu0.get(name, 0.0) for name in cpu1}
        marks.append(("reports' drain", now() - rec.t0, cpu1))
        windows = [(label, marks[i - 1][1], at, {name: taken[name] - marks[i - 1][2].get(name, 0.0) for name in taken})
                   for i, (label, at, taken) in enumerate(marks) if i > 0]
        figures = report(args, rec, sampler, cpu, cpu_seconds, run, stack, loop_s, busy, windows)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"args": vars(args), **figures}, f, indent=2, default=str)
    finally:
        stack.stop()
        if not args.keep_logs:
            import shutil
            shutil.rmtree(workdir, ignore_errors=True)
    return 0 if all(figures["verdicts"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
