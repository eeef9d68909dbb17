"""Report jobs (recomputes and exports) that a dead worker or a stopped Redis cannot strand.
See docs/reports.md, "When a worker dies or Redis stops".

- `send` hands a job's task to the broker. If Redis cannot be reached the job stays queued
  with `sent_at` null (the page says reports are paused) and `jobs_sweep` sends it once Redis
  is back; the request that made the job never fails because of the broker.
- A worker `claim`s a job before working on it: one conditional UPDATE, so of two deliveries
  of the same task (acks_late redelivery, a re-send) only one ever runs it, and a job that is
  ready, failed or stopped is never run again.
- `beat` writes progress together with the heartbeat; when the job was given up on meanwhile
  (its heartbeat had gone quiet and Try again replaced it) it raises `GivenUp` so that the
  worker stops. `finish` writes the end only if the job is still this worker's.
- `give_up_stopped` marks stopped jobs (see `RecomputeJob.state_at`) failed, with words a
  teacher reads, so that they never block a new one.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import redis.exceptions
from django.conf import settings
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone
from kombu.exceptions import OperationalError

from .models import RecomputeJob

log = logging.getLogger(__name__)

Job = RecomputeJob
# What `.delay()` raises when the broker is unreachable: Celery wraps connection errors in
# kombu's OperationalError; redis-py's own errors are caught too in case one slips through.
# (Not OSError: without a broker, tasks run eagerly inside `.delay()`, and their own errors
# must not pass for the broker's.)
BROKER_DOWN = (OperationalError, redis.exceptions.RedisError)

# A job is made and handed to the broker in the same request (on commit); one still unsent
# this long after it was made was not handed over (Redis was down, or the web process died).
SEND_GRACE_SECONDS = 10


class GivenUp(Exception):
    """The job this worker works on was given up on (it had gone quiet): stop."""


def send(job_id: int, task) -> bool:
    """Queue `task(job_id)`. False if the broker could not be reached: the job stays queued
    (paused) and `jobs_sweep` or Try again sends it later."""
    try:
        task.delay(job_id)
    except BROKER_DOWN as error:
        log.warning("report job %s not queued, the broker is unreachable: %s", job_id, error)
        return False
    Job.objects.filter(pk=job_id, sent_at__isnull=True).update(sent_at=timezone.now())
    return True


def _stopped(now) -> Q:
    silent = now - timedelta(seconds=settings.REPORT_JOB_STALE_SECONDS)
    unstarted = now - timedelta(seconds=settings.REPORT_JOB_START_SECONDS)
    return (Q(status=Job.RUNNING, last_sign__lt=silent)
            | Q(status=Job.QUEUED, sent_at__lt=unstarted))


def _with_last_sign(jobs: QuerySet) -> QuerySet:
    return jobs.alias(last_sign=Coalesce("heartbeat_at", "created_at"))


def give_up_stopped(jobs: QuerySet | None = None, *, now=None) -> int:
    """Mark the stopped jobs among `jobs` (all by default) failed, in words a teacher reads.
    Conditional updates: a job that moved meanwhile is left alone. Returns how many."""
    now = now or timezone.now()
    jobs = _with_last_sign(Job.objects.all() if jobs is None else jobs).filter(_stopped(now))
    given_up = 0
    for status, message in ((Job.RUNNING, Job.STOPPED_RUNNING), (Job.QUEUED, Job.STOPPED_QUEUED)):
        given_up += jobs.filter(status=status).update(status=Job.FAILED, finished_at=now, message=message)
    return given_up


def claim(job_id: int, kind: str, **fields) -> bool:
    """Take a queued job for this worker (status running, first heartbeat). False when the job
    is gone, already taken (another delivery of the same task runs it), finished, or stopped
    (then it is marked failed here: a redelivered task never revives a job given up on)."""
    now = timezone.now()
    job = Job.objects.filter(pk=job_id, kind=kind)
    give_up_stopped(job, now=now)
    # A "running" job without a heartbeat was never claimed (made so by hand, or before
    # heartbeats existed); it is taken unless it is stopped, which was just handled.
    return bool(job.filter(Q(status=Job.QUEUED) | Q(status=Job.RUNNING, heartbeat_at__isnull=True))
                .update(status=Job.RUNNING, heartbeat_at=now, **fields))


def beat(job_id: int, **fields) -> None:
    """Progress and heartbeat in one write. Raises GivenUp if the job is no longer running."""
    if not Job.objects.filter(pk=job_id, status=Job.RUNNING).update(heartbeat_at=timezone.now(), **fields):
        raise GivenUp(job_id)


def finish(job_id: int, status: str, **fields) -> bool:
    """The job's end (ready or failed), written only if it is still running (not given up on)."""
    return bool(Job.objects.filter(pk=job_id, status=Job.RUNNING)
                .update(status=status, finished_at=timezone.now(), **fields))


def unsent(*, now=None) -> QuerySet:
    """Queued jobs the broker should be given (again): never handed over (Redis was down), or
    handed over more than REPORT_JOB_RESEND_SECONDS ago and still not started (a worker that
    died had taken the message: Redis would give it back only after the visibility timeout)."""
    now = now or timezone.now()
    return (Job.objects.filter(status=Job.QUEUED)
            .filter(Q(sent_at__isnull=True, created_at__lt=now - timedelta(seconds=SEND_GRACE_SECONDS))
                    | Q(sent_at__lt=now - timedelta(seconds=settings.REPORT_JOB_RESEND_SECONDS)))
            .order_by("pk"))
