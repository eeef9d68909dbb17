"""Exports: CSV (BOM, formula escaping, one row per student × measure), the raw per-decision
CSV, XLSX, PDF progress reports, and export jobs with progress and a checked download."""

import csv
import io
import os
from datetime import timedelta

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook
from pypdf import PdfReader

# `as`: test_old_export_files_are_deleted_after_a_week has a local dict named `jobs`.
from reports.exports import jobs as export_jobs
from reports.exports.jobs import KEEP_FILES_DAYS, export_run_job, exports_expire
from reports.exports.rows import safe_cell
from reports.measures import all_measures, describe
from reports.models import RecomputeJob
from reports.words import student_sentence

from .showing import evidence, make_game, rollup, this_monday

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "media")]


@pytest.fixture
def pupils(classroom, make_student):
    ann = make_student(classroom, "Ann")
    evil = make_student(classroom, "=HYPERLINK(\"http://x\")", ("boat", "star", "apple"))
    zoe = make_student(classroom, "Zoë", ("moon", "star", "fish"))
    rollup(classroom, "so.lowest_operator", student=ann, chances=37, misses=4)
    rollup(classroom, "all.think_time", student=ann, chances=40, median=5.5)
    rollup(classroom, "so.lowest_operator", student=zoe, chances=10, misses=1)
    rollup(classroom, "so.lowest_operator", student=zoe, week=this_monday(), chances=10, misses=1)
    rollup(classroom, "mg.facts", student=ann, detail="7x8", chances=4, misses=2)
    rollup(classroom, "mg.facts", student=ann, chances=4, misses=2)
    game, moves = make_game(classroom, ann, moves=3)
    evidence(moves[0], ann, "so.lowest_operator", missed=True, amount=5)
    evidence(moves[0], ann, "all.think_time", detail="respond", amount=2.0)
    evidence(moves[1], ann, "all.rule_errors", missed=True, detail="uneven_division")
    evidence(moves[2], ann, "so.lowest_operator")
    return ann, evil, zoe, game


def read_csv(body: bytes):
    assert body.startswith(b"\xef\xbb\xbf"), "Excel needs the UTF-8 byte-order mark"
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


def test_skills_csv_one_row_per_student_and_measure_with_escaping(client, teacher, classroom, pupils,
                                                                   other_student):
    client.force_login(teacher)
    response = client.get(reverse("reports:skills_csv", args=[classroom.pk]))
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = read_csv(response.content)
    header, body = rows[0], rows[1:]
    assert header[0] == "Student" and header[-1] == "In words"
    ids = {m.id for m in all_measures()}
    # A row per measure for each student and for the whole class (then operations, totals, facts).
    assert len([r for r in body if r[2] in ids]) == 4 * len(all_measures())
    body = [dict(zip(header, r)) for r in body]
    names = {r["Student"] for r in body}
    assert names == {"Ann", "Zoë", "'=HYPERLINK(\"http://x\")", "Whole class"}  # escaped, not a formula
    assert "Olga" not in response.content.decode("utf-8-sig")  # another class's student
    ann_lowest = next(r for r in body if r["Student"] == "Ann" and r["Measure id"] == "so.lowest_operator")
    assert (ann_lowest["Misses"], ann_lowest["Chances"]) == ("4", "37")
    assert ann_lowest["In words"] == describe("so.lowest_operator", 4, 37) + " (about 5-20 %, from 37 chances)"
    assert (ann_lowest["Likely from (%)"], ann_lowest["Likely to (%)"]) == ("4.9", "22.0")
    think = next(r for r in body if r["Student"] == "Ann" and r["Measure id"] == "all.think_time")
    assert think["Median seconds"] == "5.5"
    for row in body:
        for cell in row.values():
            # Only "-" (nothing to say) and plain numbers may start like a formula.
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")) or cell == "-" or \
                cell.lstrip("+-").replace(".", "", 1).isdigit(), cell
    # "-" is left as it is: a quote before it would show in the spreadsheet.
    assert ann_lowest["What counts as a miss"] != "-"
    assert think["What counts as a miss"] == "-"
    assert not any(cell == "'-" for row in body for cell in row.values())


@pytest.mark.parametrize("value", ["=1+1", "=HYPERLINK(\"http://x\")", "+1+cmd|' /C calc'!A0", "-2+3",
                                   "-cmd", "@SUM(A1:A9)", "\t=1", "\r=1", "+", "="])
def test_a_cell_a_spreadsheet_would_run_as_a_formula_is_made_text(value):
    assert safe_cell(value) == "'" + value


@pytest.mark.parametrize("value", ["-", "-3", "+3", "-2.5", "12", "Ann", "Tried ÷ when it does not divide",
                                   "", -3, -2.5, 0, None])
def test_a_harmless_cell_is_left_as_it_is(value):
    assert safe_cell(value) == value


def make_job(client, classroom, fmt, capture):
    with capture(execute=True):
        response = client.post(reverse("reports:exports", args=[classroom.pk]), {"format": fmt})
    job = RecomputeJob.objects.filter(classroom=classroom, kind="export").latest("pk")
    assert response.status_code == 302
    assert response["Location"] == reverse("reports:job", args=[classroom.pk, job.pk])
    return job


def download(client, classroom, job) -> bytes:
    response = client.get(reverse("reports:job_download", args=[classroom.pk, job.pk]))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    return b"".join(response.streaming_content)


def test_raw_csv_has_one_row_per_decision_with_replay_links(client, teacher, classroom, pupils,
                                                             django_capture_on_commit_callbacks):
    ann, _, _, game = pupils
    client.force_login(teacher)
    job = make_job(client, classroom, "raw_csv", django_capture_on_commit_callbacks)
    job.refresh_from_db()
    assert job.status == "ready" and job.total == 4 and job.done == 4
    rows = read_csv(download(client, classroom, job))
    header, body = rows[0], rows[1:]
    assert len(body) == 3  # three decisions (moves), four evidence rows
    first = dict(zip(header, body[0]))
    assert first["Student"] == "Ann" and first["Missed"] == "so.lowest_operator"
    assert first["Seconds"] == "2.0" and first["Replay"] == f"/game/{game.pk}/replay/?turn=0"
    second = dict(zip(header, body[1]))
    assert second["Missed"] == "all.rule_errors" and second["Turn"] == "1"


def test_xlsx_opens_with_openpyxl(client, teacher, classroom, pupils, django_capture_on_commit_callbacks):
    client.force_login(teacher)
    job = make_job(client, classroom, "xlsx", django_capture_on_commit_callbacks)
    wb = load_workbook(io.BytesIO(download(client, classroom, job)))
    assert wb.sheetnames == ["Skills", "By operation", "Totals", "Class by week", "Times tables",
                             "Decisions"]
    skills = list(wb["Skills"].iter_rows(values_only=True))
    ids = {m.id for m in all_measures()}
    assert len([r for r in skills if r[2] in ids]) == 4 * len(all_measures())
    evil = next(r for r in skills if str(r[0]).startswith("'="))
    assert wb["Skills"].cell(row=skills.index(evil) + 1, column=1).data_type == "s"
    assert len(list(wb["Decisions"].iter_rows(values_only=True))) == 4
    # Every sheet's header row stays in view while the teacher scrolls down.
    for sheet in wb.worksheets:
        assert sheet.freeze_panes == "A2", sheet.title
        assert sheet["A1"].font.bold and sheet["A1"].value, sheet.title  # the frozen row is the header


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_student_pdf_is_readable_by_a_parent(client, teacher, classroom, pupils):
    ann, evil, zoe, _ = pupils
    _, (move,) = make_game(classroom, ann, key="multiplication", moves=1)
    move.analysis = {"kind": "discard", "fact": {"a": 7, "b": 8, "card": 54, "product": 56, "correct": False}}
    move.save()
    evidence(move, ann, "mg.facts", missed=True, detail="7x8")
    client.force_login(teacher)
    response = client.get(reverse("reports:student_pdf", args=[classroom.pk, ann.pk]))
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert "Ann: progress report" in text
    assert student_sentence("so.lowest_operator", 4, 37, who="Ann") in " ".join(text.split())
    assert "54 is 6 × 9 (Ann said 7 × 8)" in " ".join(text.split())
    assert "Zoë" not in text and "HYPERLINK" not in text


def test_class_pdf_job_has_a_page_per_student(client, teacher, classroom, pupils,
                                              django_capture_on_commit_callbacks):
    client.force_login(teacher)
    job = make_job(client, classroom, "pdf", django_capture_on_commit_callbacks)
    job.refresh_from_db()
    assert (job.total, job.done, job.status) == (3, 3, "ready")
    data = download(client, classroom, job)
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) >= 4
    text = pdf_text(data)
    assert "Class 5B: class progress report" in text and "Zoë: progress report" in text
    assert "has not finished any games yet" in text  # the student without numbers


def test_job_page_shows_progress_then_the_download_link(client, teacher, classroom, pupils):
    client.force_login(teacher)
    job = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format="raw_csv",
                                      requested_by=teacher, status="running", total=500, done=120)
    url = reverse("reports:job", args=[classroom.pk, job.pk])
    html = client.get(url).content.decode()
    assert "120 of 500 done" in html and 'hx-trigger="every 2s"' in html
    assert reverse("reports:job_download", args=[classroom.pk, job.pk]) not in html
    assert client.get(reverse("reports:job_download", args=[classroom.pk, job.pk])).status_code == 404
    export_run_job(job_id=job.pk)
    partial = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "Your file is ready" in partial and "<html" not in partial and "every 2s" not in partial
    assert reverse("reports:job_download", args=[classroom.pk, job.pk]) in partial


def test_old_export_files_are_deleted_after_a_week(client, teacher, classroom, pupils):
    now = timezone.now()
    jobs = {}
    for name, age in (("old", KEEP_FILES_DAYS + 1), ("recent", KEEP_FILES_DAYS - 1)):
        job = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format="csv",
                                          status="ready", finished_at=now - timedelta(days=age))
        job.file.save(f"{name}.csv", ContentFile(b"\xef\xbb\xbfStudent\n"))
        jobs[name] = job
    old_path, recent_path = jobs["old"].file.path, jobs["recent"].file.path
    running = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format="pdf",
                                          status="running")  # not finished: never expired
    assert exports_expire(now=now) == 1
    assert exports_expire(now=now) == 0  # run twice: nothing more
    assert not os.path.exists(old_path) and os.path.exists(recent_path)
    assert set(RecomputeJob.objects.values_list("pk", flat=True)) == {jobs["recent"].pk, running.pk}
    client.force_login(teacher)
    old_url = reverse("reports:job_download", args=[classroom.pk, jobs["old"].pk])
    assert client.get(old_url).status_code == 404
    page = client.get(reverse("reports:exports", args=[classroom.pk])).content.decode()
    assert f"Files are deleted after {KEEP_FILES_DAYS} days" in page


def test_a_failed_export_says_so(client, teacher, classroom, monkeypatch):
    def boom(**kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(export_jobs.pdf, "class_pdf", boom)
    job = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format="pdf")
    export_run_job(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == "failed" and "Please try again" in job.message
    client.force_login(teacher)
    assert "Please try again" in client.get(reverse("reports:job", args=[classroom.pk, job.pk])).content.decode()


def test_exports_hold_only_the_teachers_own_class(client, teacher, classroom, pupils, other_teacher,
                                                  other_classroom, other_student,
                                                  django_capture_on_commit_callbacks):
    rollup(other_classroom, "so.lowest_operator", student=other_student, chances=9, misses=9)
    game, moves = make_game(other_classroom, other_student)
    evidence(moves[0], other_student, "so.lowest_operator", missed=True)
    client.force_login(teacher)
    for fmt in ("csv", "raw_csv", "xlsx", "pdf"):
        job = make_job(client, classroom, fmt, django_capture_on_commit_callbacks)
        data = download(client, classroom, job)
        if fmt == "xlsx":
            wb = load_workbook(io.BytesIO(data))
            text = " ".join(str(v) for ws in wb for row in ws.iter_rows(values_only=True) for v in row)
        elif fmt == "pdf":
            text = pdf_text(data)
        else:
            text = data.decode("utf-8-sig")
        assert "Ann" in text and "Olga" not in text, fmt
    # Another teacher can neither start an export of this class nor fetch its files.
    client.force_login(other_teacher)
    assert client.post(reverse("reports:exports", args=[classroom.pk]), {"format": "csv"}).status_code == 404
    assert client.get(reverse("reports:job_download", args=[classroom.pk, job.pk])).status_code == 404
    assert client.get(reverse("reports:skills_csv", args=[classroom.pk])).status_code == 404


def test_an_unknown_format_changes_nothing(client, teacher, classroom):
    client.force_login(teacher)
    response = client.post(reverse("reports:exports", args=[classroom.pk]), {"format": "exe"}, follow=True)
    assert "Please choose one of the files" in response.content.decode()
    assert not RecomputeJob.objects.exists()
