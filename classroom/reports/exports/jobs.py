"""Export jobs: a `RecomputeJob` of kind "export" that a Celery task fills in, with progress
the page polls, and a file only the class's teachers can download (through a view)."""

from __future__ import annotations

import logging
import os
import tempfile
from datetime import timedelta

from django.core.files import File
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from classroom import selectors as classroom_selectors
from classroom.models import Classroom

from ..models import RecomputeJob
from . import csv as csv_export
from . import pdf, rows, xlsx

log = logging.getLogger(__name__)

# What a teacher can ask for as a job, in the words of the exports page.
FORMATS = {
    "csv": "Skills table (CSV)",
    "raw_csv": "Every decision (CSV)",
    "xlsx": "Workbook for Excel (XLSX)",
    "pdf": "Class progress report (PDF)",
}
READY, FAILED, RUNNING, QUEUED = "ready", "failed", "running", "queued"
# Made files hold students' names: they are deleted this long after they were made (the
# teacher can make a fresh one at any time). The exports page says so.
KEEP_FILES_DAYS = 7


def export_start(*, classroom: Classroom, requested_by: User, export_format: str) -> RecomputeJob:
    """Queue an export of one class (the caller fetched it through the teacher's classes)."""
    if export_format not in FORMATS:
        raise ValueError(f"Unknown export format {export_format!r}")
    job = RecomputeJob.objects.create(classroom=classroom, kind=RecomputeJob.Kind.EXPORT,
                                      export_format=export_format, requested_by=requested_by,
                                      status=QUEUED)
    from ..export_tasks import export_run  # the task module imports this one

    transaction.on_commit(lambda: export_run.delay(job.pk))
    return job


def _set(job_id: int, **fields) -> None:
    RecomputeJob.objects.filter(pk=job_id).update(**fields)


def export_run_job(*, job_id: int) -> None:
    """Make the file. Run twice (a redelivered task), a ready job is left as it is."""
    job = RecomputeJob.objects.select_related("classroom").filter(pk=job_id).first()
    if job is None or job.status == READY:
        return
    classroom, fmt = job.classroom, job.export_format
    students = classroom_selectors.students_of_class(classroom=classroom).count()
    total = rows.decision_count(classroom=classroom) if fmt in ("raw_csv", "xlsx") else students
    _set(job.pk, status=RUNNING, total=total, done=0, message="")

    def progress(n: int) -> None:
        _set(job.pk, done=min(n, total))

    try:
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
    except Exception:
        log.exception("export job %s failed", job.pk)
        _set(job.pk, status=FAILED, finished_at=timezone.now(),
             message="Something went wrong while making this file. Please try again.")
        return
    _set(job.pk, status=READY, done=total, file=job.file.name, finished_at=timezone.now())


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
