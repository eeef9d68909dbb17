"""Benchmark: server time of the teacher dashboard for a big class.

    python manage.py bench_dashboard                # 30 students × 1,000 games each
    python manage.py bench_dashboard --games 100 --renders 10

Builds a class in bulk (games, seats, moves, skill evidence and the roll-ups the dashboard
reads) of the first game in the registry that has skill measures, with the times-table heat
map of the first measure that has one, renders the dashboard through the whole Django stack (middleware, session, template)
a number of times and prints the times and the query count. The data is committed (as a real
class's is) and deleted at the end, unless --keep is given.
"""

from __future__ import annotations

import random
import statistics
import time
import uuid
from collections import defaultdict
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.services import student_create, teacher_sign_up
from classroom.models import Assignment, Classroom
from devtools.bench_cleanup import delete_bench_class
from games import registry
from games.models import Game, Move, Seat
from games.engine.skills import FACT_RANGE
from games.spec import GameSpec
from reports.measures import RULES, THINK, all_measures
from reports.models import NeedsHelpFlag, SkillEvidence, SkillRollup
from reports.selectors import monday

GAME_MEASURES = 3  # measures of the game with evidence, besides the rule errors
BATCH = 5000


def bench_game() -> tuple[GameSpec, tuple[str, ...], str | None]:
    """The game the bench class plays, the measures its evidence is on, and the heat map's
    measure (None when no registered game has one)."""
    spec = next(g for g in registry.all_games() if g.skills and g.skills.measures)
    measures = tuple(m.id for m in spec.skills.measures if m.has_misses)[:GAME_MEASURES] + (RULES,)
    facts = next((m.id for m in all_measures() if m.fact_grid), None)
    return spec, measures, facts


class Command(BaseCommand):
    help = "Time the teacher dashboard for a class of N students with M games each."

    def add_arguments(self, parser):
        parser.add_argument("--students", type=int, default=30)
        parser.add_argument("--games", type=int, default=1000, help="finished games per student")
        parser.add_argument("--moves", type=int, default=8, help="student moves per game")
        parser.add_argument("--renders", type=int, default=20)
        parser.add_argument("--keep", action="store_true", help="keep the data (default: delete it)")

    def handle(self, *args, **opts):
        # The data is committed before the renders are timed, as a real class's would be
        # (inside one huge open transaction SQLite reads much slower), then deleted.
        with transaction.atomic():
            teacher, classroom = self.build(opts)
        try:
            self.measure(opts, teacher, classroom)
        finally:
            if not opts["keep"]:
                delete_bench_class(classroom, teacher=teacher)
                self.stdout.write("Deleted: the benchmark data is gone.")

    def build(self, opts):
        rng = random.Random(7)
        spec, measures, facts = bench_game()
        started = time.perf_counter()
        tag = uuid.uuid4().hex[:6]
        teacher = teacher_sign_up(name="Bench Teacher", email=f"bench-{tag}@example.test",
                                  password="bench-password-42")
        classroom = Classroom.objects.create(name=f"Bench {tag}", owner=teacher, join_code=tag[:6].upper())
        classroom.teachers.add(teacher)
        students = [student_create(classroom=classroom, display_name=f"Student {i + 1}",
                                   picture_password=["cat", "sun", "tree"])
                    for i in range(opts["students"])]
        assignments = [Assignment.objects.create(classroom=classroom, title=f"Practice {i + 1}",
                                                 game=spec.key, preset=spec.presets[0].key,
                                                 goal=Assignment.Goal.PLAY, goal_count=500)
                       for i in range(2)]
        now = timezone.now()
        counts = defaultdict(lambda: [0, 0])  # rollup key -> [chances, misses]
        think = defaultdict(list)
        n_games = n_evidence = 0
        for student in students:
            games = []
            for g in range(opts["games"]):
                finished = now - timedelta(minutes=rng.randrange(0, 8 * 7 * 24 * 60))
                games.append(Game(key=spec.key, classroom=classroom, status=Game.Status.FINISHED,
                                  assignment=assignments[g % 3] if g % 3 < 2 else None,
                                  finished_at=finished, version=opts["moves"] * 2))
            games = Game.objects.bulk_create(games, batch_size=BATCH)
            seats = Seat.objects.bulk_create(
                [Seat(game=game, position=0, user=student, name=student.display_name,
                      is_winner=rng.random() < 0.5) for game in games]
                + [Seat(game=game, position=1, bot_level="player", name="Computer 1") for game in games],
                batch_size=BATCH)[:len(games)]
            moves = Move.objects.bulk_create(
                [Move(game=game, seat=seat, sequence=i, version_before=2 * i, action={"type": "respond"},
                      accepted=True, think_ms=rng.randrange(1000, 20000))
                 for game, seat in zip(games, seats) for i in range(opts["moves"])], batch_size=BATCH)
            rows = []
            for move in moves:
                game = move.game
                week = monday(timezone.localtime(game.finished_at).date())
                measure = measures[move.sequence % len(measures)]
                missed = rng.random() < 0.15
                seconds = move.think_ms / 1000
                for m, miss, amount, detail in ((measure, missed, 3.0 if missed else 0.0, ""),
                                                (THINK, False, seconds, "respond")):
                    # An accepted move's chance at the rules is its think-time row (no row of
                    # its own), but it is counted in the roll-ups all the same.
                    if not (m == RULES and not miss):
                        rows.append(SkillEvidence(game=game, move=move, student=student, classroom=classroom,
                                                  assignment_id=game.assignment_id, measure=m,
                                                  detail=detail, missed=miss, amount=amount,
                                                  turn=move.version_before, played_at=game.finished_at,
                                                  week=week))
                    for scope_key in (("student", student.pk, None), ("class", None, None)) + (
                            (("assignment", student.pk, game.assignment_id),
                             ("assignment", None, game.assignment_id)) if game.assignment_id else ()):
                        for w in (None, week):
                            c = counts[scope_key + (w, m, "")]
                            c[0] += 1
                            c[1] += int(miss)
                            if m == THINK:
                                think[scope_key + (w, m, "")].append(seconds)
            SkillEvidence.objects.bulk_create(rows, batch_size=BATCH)
            n_games += len(games)
            n_evidence += len(rows)
        rollups = []
        for (scope, student_id, assignment_id, week, measure, detail), (chances, misses) in counts.items():
            times = think.get((scope, student_id, assignment_id, week, measure, detail))
            rollups.append(SkillRollup(scope=scope, classroom=classroom, student_id=student_id,
                                       assignment_id=assignment_id, week=week, measure=measure,
                                       detail=detail, chances=chances, misses=misses,
                                       amount_median=statistics.median(times) if times else None))
        for s in students if facts else ():  # the times-table heat map rows
            for a in FACT_RANGE:
                for b in FACT_RANGE:
                    rollups.append(SkillRollup(scope="student", classroom=classroom, student=s,
                                               measure=facts, detail=f"{a}x{b}", chances=5,
                                               misses=rng.randrange(0, 3)))
        SkillRollup.objects.bulk_create(rollups, batch_size=BATCH)
        NeedsHelpFlag.objects.bulk_create([NeedsHelpFlag(
            classroom=classroom, student=s, measure=measures[0], reason="miss_rate",
            evidence={"student": {"misses": 40, "chances": 100}, "class": {"misses": 300, "chances": 3000}})
            for s in students[:3]])
        live = Game.objects.create(key=spec.key, classroom=classroom, status=Game.Status.ACTIVE)
        Seat.objects.create(game=live, position=0, user=students[0], name=students[0].display_name)
        if connection.vendor == "postgresql":
            # Fresh planner statistics, as autovacuum would have gathered on a live database.
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        self.stdout.write(f"Built {len(students)} students, {n_games} games, {n_evidence} evidence rows, "
                          f"{len(rollups)} roll-ups in {time.perf_counter() - started:.1f} s.")
        return teacher, classroom

    def measure(self, opts, teacher, classroom):
        client = Client()
        client.force_login(teacher)
        url = reverse("reports:dashboard", args=[classroom.pk])
        for _ in range(2):  # warm up template loading and caches
            assert client.get(url, SERVER_NAME="localhost").status_code == 200
        times = []
        for _ in range(opts["renders"]):
            with CaptureQueriesContext(connection) as queries:
                t0 = time.perf_counter()
                response = client.get(url, SERVER_NAME="localhost")
                times.append((time.perf_counter() - t0) * 1000)
            assert response.status_code == 200
        times.sort()
        p90 = times[min(len(times) - 1, int(len(times) * 0.9))]
        self.stdout.write(
            f"Dashboard render ({connection.vendor}), {len(times)} runs: median {statistics.median(times):.1f} ms, "
            f"p90 {p90:.1f} ms, max {times[-1]:.1f} ms; {len(queries)} queries; "
            f"{len(response.content) // 1024} KB of HTML. Budget: 150 ms.")
