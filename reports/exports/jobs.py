"""Export jobs: a `RecomputeJob` of kind "export" that a Celery task (`export_run`) fills in,
with progress the page polls, and a file only the class's teachers can download (through a
view). The task is defined here, beside `export_start` that queues it, so that the imports go
one way (reports/tasks.py re-exports it for Celery's autodiscovery)."""

from __future__ import annotations

import logging
import os
import tempfile
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.core.files import File
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from accounts.language import user_language
from accounts.models import User
from classroom import selectors as classroom_selectors
from classroom.models import Classroom

from .. import job_queue
from ..models import RecomputeJob
from . import csv as csv_export
from . import pdf, rows, xlsx

log = logging.getLogger(__name__)

# What a teacher can ask for as a job, in the words of the exports page.
FORMATS = {
    "csv": _("Skills table (CSV)"),
    "raw_csv": _("Every decision (CSV)"),
    "xlsx": _("Workbook for Excel (XLSX)"),
    "pdf": _("Class progress report (PDF)"),
}
READY, FAILED, RUNNING, QUEUED = (RecomputeJob.READY, RecomputeJob.FAILED, RecomputeJob.RUNNING,
                                  RecomputeJob.QUEUED)
# Made files hold students' names: they are deleted this long after they were made (the
# teacher can make a fresh one at any time). The exports page says so.
KEEP_FILES_DAYS = 7


def export_start(*, classroom: Classroom, requested_by: User, export_format: str,
                 language: str = "") -> RecomputeJob:
    """Queue an export of one class (the caller fetched it through the teacher's classes).
    If Redis cannot be reached the job stays queued (paused) and is sent once it is back
    (`job_queue.send`, `services.jobs_sweep`): the request never fails because of the broker."""
    if export_format not in FORMATS:
        raise ValueError(f"Unknown export format {export_format!r}")
    job = RecomputeJob.objects.create(classroom=classroom, kind=RecomputeJob.Kind.EXPORT,
                                      export_format=export_format, requested_by=requested_by,
                                      language=language,
                                      status=QUEUED)
    transaction.on_commit(lambda: job_queue.send(job.pk, export_run))
    return job


# Registered under the name it had in the former reports/export_tasks.py, which messages
# already queued carry.
@shared_task(name="reports.export_tasks.export_run", acks_late=True)
def export_run(job_id: int) -> None:
    export_run_job(job_id=job_id)


def export_run_job(*, job_id: int) -> None:
    """Make the file. Only the delivery that claims the job runs it: run again (a redelivered
    or re-sent task), a job that is running, ready, failed or stopped is left as it is."""
    if not job_queue.claim(job_id, RecomputeJob.Kind.EXPORT, done=0, message=""):
        return
    job = RecomputeJob.objects.select_related("classroom").get(pk=job_id)
    classroom, fmt = job.classroom, job.export_format
    try:
        students = classroom_selectors.students_of_class(classroom=classroom).count()
        total = rows.decision_count(classroom=classroom) if fmt in ("raw_csv", "xlsx") else students
        job_queue.beat(job.pk, total=total)

        def progress(n: int) -> None:  # every 2000 rows or every student: also the heartbeat
            job_queue.beat(job.pk, done=min(n, total))

        # A worker has no request: the file's words are in the requesting teacher's language.
        language = user_language(user=job.requested_by) if job.requested_by_id else ""
        with translation.override(language or job.language or settings.LANGUAGE_CODE):
            _make_file(job, fmt, students, progress)
    except job_queue.GivenUp:
        log.warning("export job %s was given up on while it ran; stopped", job.pk)
        return
    except Exception:
        log.exception("export job %s failed", job.pk)
        job_queue.finish(job.pk, FAILED,
                         message=RecomputeJob.FAILED_EXPORT)
        return
    if not job_queue.finish(job.pk, READY, done=total, file=job.file.name):
        job.file.delete(save=False)  # given up on at the last moment: a newer job makes the file


def _make_file(job: RecomputeJob, fmt: str, students: int, progress) -> None:
    """Write the file into job.file (saved to storage, not to the row)."""
    classroom = job.classroom
    if fmt == "pdf":
        content = ContentFile(pdf.class_pdf(classroom=classroom, progress=progress))
        job.file.save(rows.filename(classroom, "progress-report", "pdf"), content, save=False)
    else:
        suffix = ".xlsx" if fmt == "xlsx" else ".csv"
        fd, path = tempfile.mkstemp(suffix=suffix)
        os.close(fd)
        try:
            if fmt == "xlsx":
                xlsx.write_xlsx(path, classroom=classroom, progress=progress)
                name = rows.filename(classroom, "reports", "xlsx")
            else:
                with open(path, "w", encoding="utf-8", newline="") as out:
                    if fmt == "csv":
                        csv_export.write_csv(out, rows.SKILL_HEADER, rows.skill_rows(classroom=classroom))
                        progress(students)
                        name = rows.filename(classroom, "skills", "csv")
                    else:
                        csv_export.write_csv(out, rows.DECISION_HEADER,
                                             rows.decision_rows(classroom=classroom, progress=progress))
                        name = rows.filename(classroom, "decisions", "csv")
            with open(path, "rb") as made:
                job.file.save(name, File(made), save=False)
        finally:
            os.unlink(path)


def exports_expire(*, now=None) -> int:
    """Delete export jobs (and their files) finished more than KEEP_FILES_DAYS ago. Safe to
    run twice: a file already gone is skipped. Returns how many jobs were deleted."""
    cutoff = (now or timezone.now()) - timedelta(days=KEEP_FILES_DAYS)
    old = list(RecomputeJob.objects.filter(kind=RecomputeJob.Kind.EXPORT, finished_at__lt=cutoff))
    for job in old:
        if job.file:
            job.file.delete(save=False)  # a missing file is not an error for the storage
    RecomputeJob.objects.filter(pk__in=[job.pk for job in old]).delete()
    return len(old)
