"""python manage.py bench_reports --decisions 1000000 [--workers 2]

Measures the two report jobs on real recorded moves:
- analysis: finished games' moves -> skill evidence (what a recompute runs, in batches);
- roll-up: a class's evidence -> its roll-ups and flags.

A few games are played for real first (simulated students through the game services); their
students' moves are then copied into as many finished games as it takes to reach the number of
decisions asked for (copying is set-up and is not timed). Everything is done inside a
transaction that is rolled back at the end, so the database is left as it was. The analysis
is split over `--workers` processes (one per core) when the database allows parallel writers
(PostgreSQL); SQLite has one writer, so it runs in one process.

Besides the wall time of each phase it prints the CPU seconds spent on it: by this command and
its worker processes, and by their PostgreSQL server processes when the database runs on this
machine (read from /proc; PostgreSQL's own parallel query workers are not counted). The
machine is shared, so CPU seconds compare runs better than wall time does.
"""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from django.core.management.base import BaseCommand
from django.db import connection, connections, transaction
from django.utils import timezone

from reports import services
from devtools.bench_cleanup import delete_bench_class
from reports.models import SkillEvidence
from devtools.planted import parse_plant
from devtools.simulation import simulate_class
from games.models import Game, Move, Seat

STUDENTS = 30
PLANTS = ["so.lowest_operator=0.3", "mg.facts:7x8=0.5", "mg.missed_play=0.1", "all.rule_errors=0.05"]
CHUNK = 400  # games per analysis batch


class Command(BaseCommand):
    help = "Benchmark the skill report analysis and roll-ups (decisions per second)."

    def add_arguments(self, parser):
        parser.add_argument("--decisions", type=int, default=1_000_000)
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--keep", action="store_true", help="commit the benchmark data")

    def handle(self, *args, **opts):
        parallel = opts["workers"] > 1 and connection.vendor == "postgresql"
        if parallel or opts["keep"]:
            self._run(opts, parallel)  # workers must see the copied games: commit them
        else:
            with transaction.atomic():
                self._run(opts, parallel)
                transaction.set_rollback(True)

    def _run(self, opts, parallel):
        wanted = opts["decisions"]
        out = self.stdout.write
        out(f"Database: {connection.vendor}; analysis in {opts['workers'] if parallel else 1} process(es)")
        t0 = time.perf_counter()
        sim = simulate_class(students=STUDENTS, games=2, plants=[parse_plant(p) for p in PLANTS],
                             error_free=5)
        classroom = sim.classroom
        game_ids = _copy_games(sim.games, wanted)
        if connection.vendor == "postgresql":
            # Fresh statistics for the copied rows, as autovacuum would have them by the time a
            # real class had played this much (without them the planner scans every move).
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE games_game, games_seat, games_move")
        decisions = Move.objects.filter(game_id__in=game_ids, seat__bot_level="", accepted=True).count()
        attempts = Move.objects.filter(game_id__in=game_ids, seat__bot_level="").count()
        out(f"Set-up: {len(game_ids)} finished games, {decisions} decisions ({attempts} attempts) "
            f"in {time.perf_counter() - t0:.1f} s")
        try:
            t1 = time.perf_counter()
            chunks = [game_ids[i:i + CHUNK] for i in range(0, len(game_ids), CHUNK)]
            if parallel:
                connections.close_all()  # the workers are forked: each opens its own
                with ProcessPoolExecutor(opts["workers"], initializer=connections.close_all) as pool:
                    used = _summed(pool.map(_analyse_chunk, chunks))
            else:
                used = _summed(map(_analyse_chunk, chunks))
            analysis = time.perf_counter() - t1
            rows = SkillEvidence.objects.filter(classroom=classroom).count()
            out(f"Analysis: {decisions} decisions -> {rows} evidence rows in {analysis:.1f} s = "
                f"{decisions / analysis:,.0f} decisions/s; {_cpu_words(*used)}")
            t2 = time.perf_counter()
            start = _cpu_now()
            services.class_rollups_rebuild(classroom_id=classroom.pk)
            services.class_flags_refresh(classroom_id=classroom.pk)
            rollup = time.perf_counter() - t2
            out(f"Roll-up: {decisions} decisions in {rollup:.1f} s = {decisions / rollup:,.0f} decisions/s; "
                f"{_cpu_words(*(b - a for a, b in zip(start, _cpu_now())))}")
            total = analysis + rollup
            out(f"Total: {decisions} decisions in {total:.1f} s = {decisions / total:,.0f} decisions/s "
                f"({'within' if total <= 30 * decisions / 1_000_000 else 'OVER'} the 1M-in-30-s target)")
        finally:
            if (parallel or opts["keep"]) and not opts["keep"]:
                delete_bench_class(classroom)


def _analyse_chunk(game_ids: list[int]) -> tuple[float, float]:
    """One batch, as a recompute runs it; returns the CPU seconds it took (this process,
    its database server process)."""
    start = _cpu_now()
    services.games_reports_compute(game_ids=game_ids, force=True)
    return tuple(b - a for a, b in zip(start, _cpu_now()))


def _summed(cpu) -> tuple[float, float]:
    client = server = 0.0
    for c, s in cpu:
        client, server = client + c, server + s
    return client, server


def _cpu_now() -> tuple[float, float]:
    """CPU seconds so far of this process and of its PostgreSQL server process (0 when that
    process is not on this machine or not PostgreSQL)."""
    return time.process_time(), _server_cpu()


def _server_cpu() -> float:
    if connection.vendor != "postgresql":
        return 0.0
    connection.ensure_connection()
    try:
        stat = Path(f"/proc/{connection.connection.info.backend_pid}/stat").read_text()
    except OSError:  # a database on another machine
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _cpu_words(client: float, server: float) -> str:
    return f"CPU {client:.1f} s in Python" + (f" + {server:.1f} s in PostgreSQL" if server else "")


def _copy_games(games: list[Game], wanted: int) -> list[int]:
    """Copy the played games (their students' moves only: computer players' moves give no
    evidence in these games) until there are `wanted` decisions. Returns every game id."""
    source = []
    for game in games:
        human = game.seats.get(bot_level="")
        moves = list(Move.objects.filter(game=game, seat=human).order_by("sequence").values_list(
            "sequence", "version_before", "action", "accepted", "error_code", "analysis", "think_ms",
            "created_at"))
        decisions = sum(1 for m in moves if m[3])
        bots = list(game.seats.exclude(pk=human.pk).values_list("position", "name", "bot_level"))
        source.append((game, human, bots, [(s, v, json.dumps(a), ok, e, json.dumps(an), t, c)
                                          for s, v, a, ok, e, an, t, c in moves], decisions))
    have = sum(s[4] for s in source)
    ids = [g.pk for g in games]
    now = timezone.now()
    n = 0
    move_table = Move._meta.db_table
    columns = ["game_id", "seat_id", "sequence", "version_before", "action", "accepted", "error_code",
               "events", "analysis", "think_ms", "answer", "idempotency_key", "created_at"]
    sql = (f"INSERT INTO {move_table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})")
    ops = connection.ops
    while have < wanted:
        batch = source[: max(1, min(len(source), 1 + (wanted - have) // 30))]
        copies = Game.objects.bulk_create([
            Game(key=g.key, options=g.options, seed=g.seed, state={}, version=g.version,
                 status=Game.Status.FINISHED, classroom_id=g.classroom_id, started_at=now, finished_at=now)
            for g, *_ in batch])
        seats = []
        for copy, (g, human, bots, _m, _d) in zip(copies, batch):
            seats.append(Seat(game=copy, position=human.position, user_id=human.user_id, name=human.name))
            seats += [Seat(game=copy, position=p, name=name, bot_level=level) for p, name, level in bots]
        seats = Seat.objects.bulk_create(seats)
        human_seat = {s.game_id: s.pk for s in seats if not s.bot_level}
        rows = []
        for copy, (g, human, bots, moves, decisions) in zip(copies, batch):
            seat = human_seat[copy.pk]
            for s, v, a, ok, e, an, t, c in moves:
                rows.append((copy.pk, seat, s, v, a, ok, e, "[]", an, t, None, "",
                             ops.adapt_datetimefield_value(c)))
            have += decisions
            ids.append(copy.pk)
            n += 1
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":  # COPY: the set-up of a million in seconds
                with cursor.cursor.copy(f"COPY {move_table} ({', '.join(columns)}) FROM STDIN") as writer:
                    for row in rows:
                        writer.write_row(row)
                continue
            for start in range(0, len(rows), 5000):
                cursor.executemany(sql, rows[start:start + 5000])
    return ids
