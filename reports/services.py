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
from datetime import datetime, timedelta
from contextlib import contextmanager

from celery import shared_task
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import User
from classroom.models import Classroom
from games.models import Game, Move, Seat
from games.services.analysis import REV, ReplayMismatch, game_reanalyse
from games import registry

from . import evidence as ev
from . import flags, job_queue, rollups
from .exports.jobs import export_run, export_start
from .measures import MEASURES_REVISION
from .models import GameReport, NeedsHelpFlag, RecomputeJob, SkillEvidence, SkillRollup
from .realtime import broadcast_dashboard_changed
from .signals import class_reports_changed

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


def _load_moves(games: list[Game], students: dict[int, dict[int, int]],
                stale: set[int] | None = None) -> dict[int, list[ev.MoveFacts]]:
    """The games' moves, oldest first, with only the analysis keys the measures read
    (ev.analysis_keys). Only students' moves are read (a computer player's move gives no
    evidence), except in games whose measures need every move's events (Add or Multiply?
    rounds, Numero challenges). Games with a student's move analysed by an older revision of
    the game's `analyse` are added to `stale`."""
    moves: dict[int, list[ev.MoveFacts]] = defaultdict(list)
    by_key: dict[str, list[int]] = defaultdict(list)
    for game in games:
        by_key[game.key].append(game.pk)
    read = _move_rows_postgresql if connection.vendor == "postgresql" else _move_rows
    MoveFacts = ev.MoveFacts
    for key, ids in by_key.items():
        keys = ev.analysis_keys(key)
        revision = _analysis_revision(key)
        events = ev.needs_events(key)
        # Without events only the students' own moves matter (per_attempt reads the mover's).
        seats = None if events else [seat for game_id in ids for seat in students[game_id]]
        for game_id, move_id, seat, version_before, accepted, error_code, think_ms, played_at, facts, rev, \
                move_events in read(ids, keys, seats, events):
            analysis = None
            if facts is not None and seat in students[game_id]:
                analysis = facts
                if stale is not None and analysis and rev != revision:
                    stale.add(game_id)
            moves[game_id].append(MoveFacts(move_id, seat, version_before, accepted, error_code, analysis,
                                            move_events, think_ms, played_at))
    return moves


_MOVE_FIELDS = ("game_id", "id", "seat_id", "version_before", "accepted", "error_code", "think_ms",
                "created_at")


def _move_rows(game_ids: list[int], keys: tuple[str, ...], seats: list[int] | None, events: bool):
    """(*_MOVE_FIELDS, analysis, its REV, events or None) per move, in game and sequence order:
    the analysis as ev.analysis_read has it (only `keys`, no None values; None when the move
    has none), its REV 1 when it has none."""
    qs = Move.objects.filter(game_id__in=game_ids)
    if seats is not None:
        qs = qs.filter(seat_id__in=seats)
    rows = qs.order_by("game_id", "sequence").values_list(*_MOVE_FIELDS, "analysis",
                                                          *(("events",) if events else ()))
    for *fields, analysis, move_events in (row if events else (*row, None)
                                           for row in rows.iterator(chunk_size=5000)):
        if not analysis:
            yield (*fields, None, None, move_events)
        else:
            yield (*fields, ev.analysis_read(analysis, keys), analysis.get(REV, 1), move_events)


def _move_rows_postgresql(game_ids: list[int], keys: tuple[str, ...], seats: list[int] | None,
                          events: bool):
    """`_move_rows` in one query: the batch's rows as one JSON array that is decoded in one
    call, each move's analysis cut down to `keys` and REV by the database (in the
    benchmark's million decisions, decoding a JSON value, or the whole analysis, per move and
    Django's loader per timestamp were most of the reading time). A key the analysis lacks is
    null, and left out of the analysis here (as analysis_read does)."""
    loaded = (*keys, REV)
    if not all(k.isidentifier() for k in loaded):  # they go into the SQL as literals
        raise ValueError(f"not an analysis key: {loaded!r}")
    facts = ", ".join(f"analysis -> '{k}'" for k in loaded)
    where = "game_id = ANY(%s)" + ("" if seats is None else " AND seat_id = ANY(%s)")
    sql = (f"SELECT json_agg(json_build_array({', '.join(_MOVE_FIELDS)}, "
           f"json_build_array({facts}), {'events' if events else 'NULL'}) ORDER BY game_id, sequence) "
           f"FROM {Move._meta.db_table} WHERE {where}")
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_ids] if seats is None else [game_ids, seats])
        rows = cursor.fetchone()[0] or []  # json: decoded by psycopg
    timestamp = datetime.fromisoformat  # created_at, in the connection's time zone (UTC)
    for game_id, move_id, seat, version_before, accepted, error_code, think_ms, played_at, values, \
            move_events in rows:
        # The REV is read as stored (None when the analysis has none), as it always was here.
        yield (game_id, move_id, seat, version_before, accepted, error_code, think_ms, timestamp(played_at),
               {k: v for k, v in zip(keys, values) if v is not None}, values[-1], move_events)


def _analysis_revision(key: str) -> int:
    spec = registry.get(key)
    return spec.skills.analysis_revision if spec and spec.skills else 1


def _reanalysed(games: list[Game], students, moves, stale: set[int]) -> dict[int, list[ev.MoveFacts]]:
    """Analyse the stale games' moves again (games.services.analysis) and load them anew. A
    game whose replay no longer matches its moves keeps its old analyses (logged): its
    report is still made, by what those analyses say."""
    redone = []
    for game in games:
        if game.pk not in stale:
            continue
        try:
            game_reanalyse(game_id=game.pk)
            redone.append(game)
        except ReplayMismatch:
            log.exception("game %s could not be analysed again", game.pk)
    if redone:
        moves.update(_load_moves(redone, students))
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
    existing = {r.game_id: r for r in GameReport.objects.filter(game_id__in=[g.pk for g in games])}
    todo = [g for g in games if force or g.pk not in existing or existing[g.pk].version != g.version
            or existing[g.pk].revision != MEASURES_REVISION]
    todo_ids = {g.pk for g in todo}
    done = [existing[g.pk] for g in games if g.pk not in todo_ids]
    if not todo:
        return done
    names, students = _students(todo)
    stale: set[int] = set()
    moves = _load_moves(todo, students, stale)
    if stale:
        moves = _reanalysed(todo, students, moves, stale)
    reports, values = [], []
    for game in todo:
        seats = students[game.pk]
        rows = ev.game_evidence(game.key, moves[game.pk], names[game.pk], set(seats))
        values.extend(_evidence_values(game, rows, seats))
        reports.append(GameReport(game_id=game.pk, classroom_id=game.classroom_id, version=game.version,
                                  revision=MEASURES_REVISION,
                                  decisions=sum(1 for r in rows if r.measure == "all.think_time")))
    ids = [g.pk for g in todo]
    own_transaction = not connection.in_atomic_block
    with transaction.atomic():
        if own_transaction and connection.vendor == "postgresql":
            # Evidence is derived data: a commit lost with the server (the last fraction of a
            # second before a crash) loses this batch's reports too, which the minute's sweep
            # makes again (missing_reports_compute); and any later durable commit (a job
            # marked ready) writes this one to disk first. Not waiting for the disk here keeps
            # the class lock below from being held through each batch's flush. Only in a
            # transaction of its own: never for a caller's writes (a move is durable first).
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        # Lock order (see lock_classes): the classes, then the games, in id order. Two workers
        # computing the same game take turns, and the second replaces the first's rows with
        # the same rows.
        lock_classes({g.classroom_id for g in todo})
        list(Game.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk", flat=True))
        # Evidence is only ever written together with its GameReport (here, in one
        # transaction), so only games that have a report have rows to replace. Read under the
        # lock: a report another worker committed meanwhile is seen and replaced.
        reported = list(GameReport.objects.filter(game_id__in=ids).values_list("game_id", flat=True))
        if reported:
            SkillEvidence.objects.filter(game_id__in=reported).delete()
            GameReport.objects.filter(game_id__in=reported).delete()
        bulk_insert_evidence(values)
        _insert_reports(reports)
    return done + reports


def _insert_reports(reports: list[GameReport]) -> None:
    """GameReport.objects.bulk_create(reports), on PostgreSQL in one INSERT from arrays (one
    parameter per column, not one per value: Django's preparing of a batch's values and
    psycopg's parsing of thousands of placeholders were a tenth of a batch's Python time).
    The reports get their ids and computed_at as bulk_create gives them."""
    if connection.vendor != "postgresql" or not reports:
        GameReport.objects.bulk_create(reports)
        return
    now = timezone.now()
    table = GameReport._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (game_id, classroom_id, version, decisions, revision, computed_at) "
            "SELECT g, c, v, d, r, %s FROM unnest(%s::bigint[], %s::bigint[], %s::integer[], "
            "%s::integer[], %s::smallint[]) AS t (g, c, v, d, r) RETURNING game_id, id",
            [now, [r.game_id for r in reports], [r.classroom_id for r in reports],
             [r.version for r in reports], [r.decisions for r in reports], [r.revision for r in reports]])
        ids = dict(cursor.fetchall())
    for report in reports:
        report.pk = ids[report.game_id]
        report.computed_at = now
        report._state.adding = False
        report._state.db = connection.alias


def _evidence_values(game: Game, rows: list[ev.Evidence], students: dict[int, int]) -> list[tuple]:
    """EVIDENCE_FIELDS tuples (a million of them in the benchmark: hence the locals)."""
    tz = timezone.get_current_timezone()
    ops = connection.ops
    game_id, classroom_id, assignment_id = game.pk, game.classroom_id, game.assignment_id
    moments: dict = {}  # move id -> (db value of its played_at, its Monday as db value)
    values = []
    append = values.append
    for r in rows:
        when = moments.get(r.move_id)
        if when is None:
            played_at = r.played_at
            day = timezone.localtime(played_at, tz).date() if timezone.is_aware(played_at) \
                else played_at.date()
            when = moments[r.move_id] = (ops.adapt_datetimefield_value(played_at),
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
    if connection.vendor == "postgresql":
        # COPY, many times faster than INSERTs; in binary, which psycopg writes in C from the
        # column types (a fifth of the client's time of a text COPY, and less parsing for the
        # server).
        with connection.cursor() as cursor:
            types = _column_types(cursor, table, columns)
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)") as copy:
                copy.set_types(types)
                for row in values:
                    copy.write_row(row)
        return
    sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(EVIDENCE_FIELDS))})"
    with connection.cursor() as cursor:
        for start in range(0, len(values), BATCH):
            cursor.executemany(sql, values[start:start + BATCH])


_types: dict[tuple[str, str], list[int]] = {}


def _column_types(cursor, table: str, columns: str) -> list[int]:
    """The columns' type oids, as the table has them (a binary COPY must send exactly
    those); asked once per process."""
    if (table, columns) not in _types:
        cursor.execute(f"SELECT {columns} FROM {table} LIMIT 0")
        _types[(table, columns)] = [c.type_code for c in cursor.description]
    return _types[(table, columns)]


# ----- roll-ups and flags -------------------------------------------------------------------
def lock_classes(classroom_ids) -> list[int]:
    """Lock these class rows, in id order; returns the ids that exist.

    The one lock order of every report write, `load_demo` and `simulate_class`: class rows
    first, then game rows, each in id order (a transaction that needs both takes the classes
    first). Mixed orders deadlocked at COMMIT, where Django's deferred foreign keys take
    key-share locks: a recompute batch held its games and its evidence needed the class row,
    while a flags refresh held the class row and its new flags needed those games
    (tests/reports/test_lock_order.py). FOR NO KEY UPDATE: a mutex among report writers that
    the key-share locks of games and evidence referring to the class never wait for."""
    return list(Classroom.objects.select_for_update(no_key=True).filter(pk__in=list(classroom_ids))
                .order_by("pk").values_list("pk", flat=True))


def class_rollups_rebuild(*, classroom_id: int) -> None:
    with transaction.atomic():
        if not lock_classes([classroom_id]):
            return
        rollups.rebuild(classroom_id=classroom_id)


def all_rollups_rebuild() -> int:
    """Every class with evidence (the periodic task). Returns how many classes. A class whose
    flags changed is announced (`class_reports_changed`)."""
    ids = list(SkillEvidence.objects.order_by().values_list("classroom_id", flat=True).distinct())
    for classroom_id in ids:
        class_rollups_rebuild(classroom_id=classroom_id)
        if class_flags_refresh(classroom_id=classroom_id):
            transaction.on_commit(lambda classroom_id=classroom_id: _announce(classroom_id), robust=True)
    return len(ids)


def _flagged(classroom_id: int) -> set[tuple[int, str]]:
    return set(NeedsHelpFlag.objects.filter(classroom_id=classroom_id).values_list("student_id", "measure"))


def class_flags_refresh(*, classroom_id: int) -> bool:
    """The class's flags made again; True when who is flagged on which measure changed."""
    with transaction.atomic():
        if not lock_classes([classroom_id]):
            return False
        before = _flagged(classroom_id)
        flags.refresh(classroom_id=classroom_id)
        return _flagged(classroom_id) != before


def _announce(classroom_id: int) -> None:
    class_reports_changed.send_robust(sender=Classroom, classroom_id=classroom_id)


def class_reports_refresh(*, classroom_id: int) -> None:
    """Roll-ups then flags of one class; once it is committed, open dashboards are told, and
    the apps above (`class_reports_changed`: lti's grades)."""
    class_rollups_rebuild(classroom_id=classroom_id)
    class_flags_refresh(classroom_id=classroom_id)
    transaction.on_commit(lambda: broadcast_dashboard_changed(classroom_id=classroom_id))
    transaction.on_commit(lambda: _announce(classroom_id), robust=True)


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
    """What the `report_game` task does (queued on games' `game_finished` signal, see
    receivers.py): the game's evidence, then its class's reports."""
    report = game_report_compute(game_id=game_id)
    if report is None:
        return None
    if _deferred:
        _deferred[-1].add(report.classroom_id)
    else:
        class_reports_refresh(classroom_id=report.classroom_id)
    return report


# ----- a teacher's recompute ----------------------------------------------------------------
def class_recompute_start(*, classroom: Classroom, requested_by: User) -> RecomputeJob:
    """Queue a recompute of every finished game of the class; the job shows its progress.
    A recompute already queued or running for the class is returned instead of a second one,
    never a stopped one (its worker died: it is marked failed here and a new job starts). One
    the broker could not take yet (Redis down) is sent again."""
    with transaction.atomic():
        lock_classes([classroom.pk])
        recomputes = RecomputeJob.objects.filter(classroom=classroom, kind=RecomputeJob.Kind.RECOMPUTE)
        job_queue.give_up_stopped(recomputes)
        job = recomputes.filter(status__in=(RecomputeJob.QUEUED, RecomputeJob.RUNNING)).order_by("-pk").first()
        if job is not None and (job.status == RecomputeJob.RUNNING or job.sent_at is not None):
            return job
        if job is None:
            total = Game.objects.filter(classroom=classroom, status=Game.Status.FINISHED).count()
            job = RecomputeJob.objects.create(classroom=classroom, kind=RecomputeJob.Kind.RECOMPUTE,
                                              requested_by=requested_by, total=total)
        transaction.on_commit(lambda: job_queue.send(job.pk, recompute_class))
    return job


PROGRESS_EVERY = 50  # games per batch, and between progress writes (the job's heartbeat)


# The task is defined here, beside the service that queues it, so that this module need not
# import tasks.py (which imports this one); tasks.py re-exports it. Its name is the one it had
# in tasks.py, which messages already queued carry.
@shared_task(name="reports.tasks.recompute_class", acks_late=True)
def recompute_class(job_id: int) -> str | None:
    """A teacher's "recompute this class"; progress is written to the RecomputeJob."""
    job = class_recompute_run(job_id=job_id)
    return None if job is None else job.status


def class_recompute_run(*, job_id: int) -> RecomputeJob | None:
    """Only the delivery that claims the job runs it: run again (a redelivered or re-sent
    task), a job that is running, ready, failed or stopped is left as it is."""
    if not job_queue.claim(job_id, RecomputeJob.Kind.RECOMPUTE, done=0):
        return RecomputeJob.objects.filter(pk=job_id).first()
    job = RecomputeJob.objects.get(pk=job_id)
    try:
        game_ids = list(Game.objects.filter(classroom_id=job.classroom_id, status=Game.Status.FINISHED)
                        .order_by("pk").values_list("pk", flat=True))
        job_queue.beat(job.pk, total=len(game_ids))
        for start in range(0, len(game_ids), PROGRESS_EVERY):
            batch = game_ids[start:start + PROGRESS_EVERY]
            games_reports_compute(game_ids=batch, force=True)
            job_queue.beat(job.pk, done=start + len(batch))
        class_reports_refresh(classroom_id=job.classroom_id)
    except job_queue.GivenUp:
        log.warning("recompute job %s was given up on while it ran; stopped", job.pk)
        job.refresh_from_db()
        return job
    except Exception:
        job_queue.finish(job.pk, RecomputeJob.FAILED,
                         message=RecomputeJob.FAILED_RECOMPUTE)
        broadcast_dashboard_changed(classroom_id=job.classroom_id)
        raise
    job_queue.finish(job.pk, RecomputeJob.READY, done=len(game_ids))
    job.refresh_from_db()
    broadcast_dashboard_changed(classroom_id=job.classroom_id)
    return job


# ----- jobs a worker or the broker left behind ---------------------------------------------
def _task_of(job: RecomputeJob):
    return export_run if job.kind == RecomputeJob.Kind.EXPORT else recompute_class


def job_try_again(*, job: RecomputeJob, requested_by: User) -> RecomputeJob:
    """The job page's Try again. A failed or stopped job is replaced by a fresh one (the stopped
    one is marked failed first, so a late delivery of its task does nothing); a paused one (the
    broker could not take it) is sent again; a live or ready one is left as it is. Returns the
    job the page should show."""
    state = job.state
    if state == RecomputeJob.PAUSED:
        job_queue.send(job.pk, _task_of(job))
    elif state in (RecomputeJob.FAILED, RecomputeJob.STOPPED):
        job_queue.give_up_stopped(RecomputeJob.objects.filter(pk=job.pk))
        job.refresh_from_db()
        if job.status in (RecomputeJob.QUEUED, RecomputeJob.RUNNING):
            return job  # its worker wrote progress meanwhile: it is alive after all
        if job.kind == RecomputeJob.Kind.EXPORT:
            return export_start(classroom=job.classroom, requested_by=requested_by,
                                export_format=job.export_format, language=job.language)
        return class_recompute_start(classroom=job.classroom, requested_by=requested_by)
    job.refresh_from_db()
    return job


def jobs_sweep() -> dict[str, int]:
    """Every minute (CELERY_BEAT_SCHEDULE): stopped jobs are marked failed, and queued jobs the
    broker never took (Redis was down) or that no worker started are sent again. Safe to run
    twice: a job just sent is not sent again until REPORT_JOB_RESEND_SECONDS have passed, and
    only one delivery of a job ever runs it. Games whose report was never made are made."""
    given_up = job_queue.give_up_stopped()
    sent = 0
    for job in job_queue.unsent():
        if not job_queue.send(job.pk, _task_of(job)):
            break  # the broker is still unreachable: the next sweep tries again
        sent += 1
    return {"given_up": given_up, "sent": sent, "games_reported": missing_reports_compute()}


MISSING_REPORTS_PER_SWEEP = 200


def games_without_report(*, limit: int = MISSING_REPORTS_PER_SWEEP, settle_seconds: int = 60) -> list[int]:
    """Finished games with no report at their final version (or one counted by older
    measures: MEASURES_REVISION), oldest first. A game's report is
    queued when it finishes; if the broker could not take it then (Redis down), nothing would
    ever queue it again. Games that finished in the last `settle_seconds` are left to their
    own task."""
    settled = timezone.now() - timedelta(seconds=settle_seconds)
    return list(Game.objects.filter(status=Game.Status.FINISHED, finished_at__lt=settled)
                .filter(Q(report__isnull=True) | ~Q(report__version=F("version"))
                        | ~Q(report__revision=MEASURES_REVISION))
                .order_by("finished_at").values_list("pk", flat=True)[:limit])


def missing_reports_compute() -> int:
    """Make the reports `games_without_report` finds, then refresh their classes' reports."""
    ids = games_without_report()
    if not ids:
        return 0
    reports = games_reports_compute(game_ids=ids)
    for classroom_id in sorted({r.classroom_id for r in reports}):
        class_reports_refresh(classroom_id=classroom_id)
    return len(reports)


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
        classroom_ids |= set(student.memberships.values_list("classroom_id", flat=True))
        lock_classes(classroom_ids)  # first (lock order): a report may be replacing this evidence
        SkillEvidence.objects.filter(student=student).delete()
        SkillRollup.objects.filter(student=student).delete()
        NeedsHelpFlag.objects.filter(student=student).delete()
        for classroom_id in sorted(classroom_ids):
            class_reports_refresh(classroom_id=classroom_id)
