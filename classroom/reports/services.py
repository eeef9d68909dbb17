"""Skill report writes: a finished game's evidence, a class's roll-ups and flags, a teacher's
recompute, and forgetting a removed student. See docs/reports.md.

Every write here can run twice, or again after a crash, and end in the same rows:
- `game_report_compute` replaces a game's evidence inside one transaction and records the
  game version it came from (the upsert key is the game; a report at the game's current
  version is left alone);
- roll-ups and flags are rebuilt from the evidence per class, under a lock on the class row.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from contextlib import contextmanager

from django.db import connection, transaction
from django.db.models import F, Func, JSONField
from django.utils import timezone

from accounts.models import User
from classroom.models import Classroom
from games.models import Game, Move, Seat

from . import evidence as ev
from .models import GameReport, NeedsHelpFlag, RecomputeJob, SkillEvidence, SkillRollup
from .realtime import broadcast_dashboard_changed

log = logging.getLogger(__name__)

BATCH = 5000
EVIDENCE_FIELDS = ("game_id", "move_id", "student_id", "classroom_id", "assignment_id", "measure",
                   "detail", "missed", "amount", "turn", "played_at", "week")


def _students(games: list[Game]) -> tuple[dict[int, dict[int, str]], dict[int, dict[int, int]]]:
    """Per game: seat id -> name for every seat, and seat id -> user id for each current
    student's seat. A removed (inactive) student's seat gives no evidence (see
    student_reports_forget); a computer player's never does."""
    names: dict[int, dict[int, str]] = defaultdict(dict)
    students: dict[int, dict[int, int]] = defaultdict(dict)
    rows = Seat.objects.filter(game_id__in=[g.pk for g in games]).values_list(
        "game_id", "id", "name", "user_id", "bot_level", "user__is_active")
    for game_id, seat_id, name, user_id, bot_level, active in rows:
        names[game_id][seat_id] = name
        if user_id is not None and not bot_level and active:
            students[game_id][seat_id] = user_id
    return names, students


class AnalysisKeys(Func):
    """A move's recorded analysis cut down to `keys`: on PostgreSQL one small JSON object per
    row, built by the database (read and decoded once, instead of the whole analysis with the
    hand and every option, or one JSON value per key). Elsewhere the whole analysis."""

    output_field = JSONField()

    def __init__(self, keys: tuple[str, ...]):
        if not all(k.isidentifier() for k in keys):  # they go into the SQL as literals
            raise ValueError(f"not an analysis key: {keys!r}")
        super().__init__(F("analysis"))
        self.keys = keys

    def as_sql(self, compiler, connection, **extra):
        return compiler.compile(self.source_expressions[0])

    def as_postgresql(self, compiler, connection, **extra):
        column, params = compiler.compile(self.source_expressions[0])
        pairs = ", ".join(f"'{k}', {column} -> '{k}'" for k in self.keys)
        return f"jsonb_build_object({pairs})", params


def _load_moves(games: list[Game], students: dict[int, dict[int, int]]) -> dict[int, list[ev.MoveFacts]]:
    """The games' moves, oldest first, with only the analysis keys the measures read
    (ev.ANALYSIS_KEYS). Only students' moves are read (a computer player's move gives no
    evidence), except in games whose measures need every move's events (Add or Multiply?
    rounds, Numero challenges)."""
    moves: dict[int, list[ev.MoveFacts]] = defaultdict(list)
    by_key: dict[str, list[int]] = defaultdict(list)
    for game in games:
        by_key[game.key].append(game.pk)
    fields = ("game_id", "id", "seat_id", "version_before", "accepted", "error_code", "think_ms",
              "created_at", "facts")
    for key, ids in by_key.items():
        keys = ev.ANALYSIS_KEYS.get(key, ("kind",))
        events = key in ev.PER_GAME
        qs = Move.objects.filter(game_id__in=ids).annotate(facts=AnalysisKeys(keys))
        if not events:
            qs = qs.filter(seat__user__isnull=False, seat__bot_level="")
        rows = qs.order_by("game_id", "sequence").values_list(*fields, *(("events",) if events else ()))
        for row in rows.iterator(chunk_size=5000):
            game_id, seat, facts = row[0], row[2], row[8]
            analysis = None
            if seat in students[game_id] and facts:
                analysis = {k: v for k in keys if (v := facts.get(k)) is not None}
            moves[game_id].append(ev.MoveFacts(
                id=row[1], seat_id=seat, version_before=row[3], accepted=row[4], error_code=row[5],
                think_ms=row[6], played_at=row[7], analysis=analysis,
                events=row[9] if events else None))
    return moves


def game_report_compute(*, game_id: int, force: bool = False) -> GameReport | None:
    """Turn a finished game's moves into evidence. A report already made at the game's current
    version is returned unchanged (unless `force`); a missing or unfinished game is a no-op."""
    reports = games_reports_compute(game_ids=[game_id], force=force)
    return reports[0] if reports else None


def games_reports_compute(*, game_ids: list[int], force: bool = False) -> list[GameReport]:
    """`game_report_compute` for many games at once, in a few queries (a recompute, the
    benchmark). Unfinished and missing games are skipped."""
    games = list(Game.objects.filter(pk__in=game_ids, status=Game.Status.FINISHED)
                 .only("id", "key", "version", "classroom_id", "assignment_id"))
    existing = {r.game_id: r for r in GameReport.objects.filter(game__in=games)}
    todo = [g for g in games if force or g.pk not in existing or existing[g.pk].version != g.version]
    todo_ids = {g.pk for g in todo}
    done = [existing[g.pk] for g in games if g.pk not in todo_ids]
    if not todo:
        return done
    names, students = _students(todo)
    moves = _load_moves(todo, students)
    reports, values = [], []
    for game in todo:
        seats = students[game.pk]
        rows = ev.game_evidence(game.key, moves[game.pk], names[game.pk], set(seats))
        values.extend(_evidence_values(game, rows, seats))
        reports.append(GameReport(game_id=game.pk, classroom_id=game.classroom_id, version=game.version,
                                  decisions=sum(1 for r in rows if r.measure == "all.think_time")))
    ids = [g.pk for g in todo]
    with transaction.atomic():
        # Lock the games: two workers computing the same game take turns, and the second
        # replaces the first's rows with the same rows.
        list(Game.objects.select_for_update().filter(pk__in=ids).values_list("pk", flat=True))
        # Evidence is only ever written together with its GameReport (here, in one
        # transaction), so only games that have a report have rows to replace. Read under the
        # lock: a report another worker committed meanwhile is seen and replaced.
        reported = list(GameReport.objects.filter(game_id__in=ids).values_list("game_id", flat=True))
        if reported:
            SkillEvidence.objects.filter(game_id__in=reported).delete()
            GameReport.objects.filter(game_id__in=reported).delete()
        bulk_insert_evidence(values)
        GameReport.objects.bulk_create(reports)
    return done + reports


def _evidence_values(game: Game, rows: list[ev.Evidence], students: dict[int, int]) -> list[tuple]:
    """EVIDENCE_FIELDS tuples (a million of them in the benchmark: hence the locals)."""
    tz = timezone.get_current_timezone()
    ops = connection.ops
    game_id, classroom_id, assignment_id = game.pk, game.classroom_id, game.assignment_id
    moments: dict = {}  # played_at -> (db value, its Monday as db value)
    values = []
    append = values.append
    for r in rows:
        played_at = r.played_at
        when = moments.get(played_at)
        if when is None:
            day = timezone.localtime(played_at, tz).date() if timezone.is_aware(played_at) \
                else played_at.date()
            when = moments[played_at] = (ops.adapt_datetimefield_value(played_at),
                                         ops.adapt_datefield_value(ev.monday(day)))
        append((game_id, r.move_id, students[r.seat_id], classroom_id, assignment_id,
                r.measure, r.detail, r.missed, r.amount, r.turn, when[0], when[1]))
    return values


def bulk_insert_evidence(values: list[tuple]) -> None:
    """A plain multi-row INSERT of EVIDENCE_FIELDS tuples (values already adapted for the
    database): a big game's evidence, or the benchmark's million decisions, is written
    without building a model instance per row."""
    table = connection.ops.quote_name(SkillEvidence._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(f) for f in EVIDENCE_FIELDS)
    if connection.vendor == "postgresql":  # COPY: many times faster than INSERTs
        with connection.cursor() as cursor, \
                cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for row in values:
                copy.write_row(row)
        return
    sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(EVIDENCE_FIELDS))})"
    with connection.cursor() as cursor:
        for start in range(0, len(values), BATCH):
            cursor.executemany(sql, values[start:start + BATCH])


# ----- roll-ups and flags -------------------------------------------------------------------
def class_rollups_rebuild(*, classroom_id: int) -> None:
    from .rollups import rebuild

    with transaction.atomic():
        if Classroom.objects.select_for_update().filter(pk=classroom_id).first() is None:
            return
        rebuild(classroom_id=classroom_id)


def all_rollups_rebuild() -> int:
    """Every class with evidence (the periodic task). Returns how many classes."""
    ids = list(SkillEvidence.objects.order_by().values_list("classroom_id", flat=True).distinct())
    for classroom_id in ids:
        class_rollups_rebuild(classroom_id=classroom_id)
        class_flags_refresh(classroom_id=classroom_id)
    return len(ids)


def class_flags_refresh(*, classroom_id: int) -> None:
    from .flags import refresh

    with transaction.atomic():
        if Classroom.objects.select_for_update().filter(pk=classroom_id).first() is None:
            return
        refresh(classroom_id=classroom_id)


def class_reports_refresh(*, classroom_id: int) -> None:
    """Roll-ups then flags of one class, and tell open dashboards once it is committed."""
    class_rollups_rebuild(classroom_id=classroom_id)
    class_flags_refresh(classroom_id=classroom_id)
    transaction.on_commit(lambda: broadcast_dashboard_changed(classroom_id=classroom_id))


# While a simulation plays hundreds of games, each finished game's report is computed at
# once but the class roll-ups are rebuilt once at the end (see `deferred_class_refresh`).
_deferred: list[set[int]] = []


@contextmanager
def deferred_class_refresh():
    pending: set[int] = set()
    _deferred.append(pending)
    try:
        yield pending
    finally:
        _deferred.pop()
        for classroom_id in sorted(pending):
            class_reports_refresh(classroom_id=classroom_id)


def game_finished(*, game_id: int) -> GameReport | None:
    """What the `report_game` task does: the game's evidence, then its class's reports."""
    report = game_report_compute(game_id=game_id)
    if report is None:
        return None
    if _deferred:
        _deferred[-1].add(report.classroom_id)
    else:
        class_reports_refresh(classroom_id=report.classroom_id)
    return report


def game_finished_queue(*, game_id: int) -> None:
    """Called inside the transaction that finishes a game: the report task is queued only
    once that commits (a rolled-back finish queues nothing)."""
    from .tasks import report_game

    transaction.on_commit(lambda: report_game.delay(game_id), robust=True)


# ----- a teacher's recompute ----------------------------------------------------------------
def class_recompute_start(*, classroom: Classroom, requested_by: User) -> RecomputeJob:
    """Queue a recompute of every finished game of the class; the job shows its progress.
    A recompute already queued or running for the class is returned instead of a second one."""
    from .tasks import recompute_class

    with transaction.atomic():
        Classroom.objects.select_for_update().filter(pk=classroom.pk).first()
        running = RecomputeJob.objects.filter(classroom=classroom, kind=RecomputeJob.Kind.RECOMPUTE,
                                              status__in=("queued", "running")).first()
        if running is not None:
            return running
        total = Game.objects.filter(classroom=classroom, status=Game.Status.FINISHED).count()
        job = RecomputeJob.objects.create(classroom=classroom, kind=RecomputeJob.Kind.RECOMPUTE,
                                          requested_by=requested_by, total=total)
        transaction.on_commit(lambda: recompute_class.delay(job.pk))
    return job


PROGRESS_EVERY = 50  # games per batch, and between progress writes


def class_recompute_run(*, job_id: int) -> RecomputeJob | None:
    job = RecomputeJob.objects.filter(pk=job_id, kind=RecomputeJob.Kind.RECOMPUTE).first()
    if job is None or job.status in ("ready", "failed"):
        return job
    game_ids = list(Game.objects.filter(classroom_id=job.classroom_id, status=Game.Status.FINISHED)
                    .order_by("pk").values_list("pk", flat=True))
    RecomputeJob.objects.filter(pk=job.pk).update(status="running", total=len(game_ids), done=0)
    try:
        for start in range(0, len(game_ids), PROGRESS_EVERY):
            batch = game_ids[start:start + PROGRESS_EVERY]
            games_reports_compute(game_ids=batch, force=True)
            RecomputeJob.objects.filter(pk=job.pk).update(done=start + len(batch))
        class_reports_refresh(classroom_id=job.classroom_id)
    except Exception:
        RecomputeJob.objects.filter(pk=job.pk).update(
            status="failed", finished_at=timezone.now(),
            message="The reports could not be recomputed. Please try again later.")
        broadcast_dashboard_changed(classroom_id=job.classroom_id)
        raise
    RecomputeJob.objects.filter(pk=job.pk).update(status="ready", done=len(game_ids),
                                                  finished_at=timezone.now())
    job.refresh_from_db()
    broadcast_dashboard_changed(classroom_id=job.classroom_id)
    return job


# ----- privacy ------------------------------------------------------------------------------
def student_reports_forget(*, student: User) -> None:
    """A removed student's report data is deleted, not anonymised: their evidence, roll-ups and
    flags go, and every class they had evidence in is rolled up again without them. Their
    (inactive) seat gives no new evidence if the class is recomputed later."""
    with transaction.atomic():
        classroom_ids = set(SkillEvidence.objects.filter(student=student)
                            .values_list("classroom_id", flat=True).distinct())
        classroom_ids |= set(SkillRollup.objects.filter(student=student)
                             .values_list("classroom_id", flat=True).distinct())
        if student.classroom_id:
            classroom_ids.add(student.classroom_id)
        SkillEvidence.objects.filter(student=student).delete()
        SkillRollup.objects.filter(student=student).delete()
        NeedsHelpFlag.objects.filter(student=student).delete()
        for classroom_id in sorted(classroom_ids):
            class_reports_refresh(classroom_id=classroom_id)
