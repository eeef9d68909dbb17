"""Revision 2's figures for a simulated class (devtools.simulation.simulate_class, the games'
own measures as declared): per operation, per fact, the totals and the interval words appear
on the dashboard, the student page, My progress and in the CSV, XLSX and parent PDF, with the
numbers the roll-ups hold."""

import csv
import io
from html import unescape

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from devtools.planted import parse_plant
from devtools.simulation import simulate_class
from reports import selectors
from reports.exports import xlsx
from reports.exports.rows import class_reports
from reports.measures import all_measures
from reports.models import SkillRollup
from reports.operations import OPERATION_WORDS, operation_of
from reports.uncertainty import range_words

from .simulated import operations_of, remove_simulated

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def sim(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        made = simulate_class(students=2, games=6, seed=5,
                              plants=[parse_plant("so.mental_math=0.3"), parse_plant("mg.facts:7x8=0.5")])
        yield made
        remove_simulated(made)


def test_pages_and_exports_show_the_simulated_figures(client, sim):
    teacher, classroom = sim.classroom.owner, sim.classroom
    student = sim.students[0]
    ops = operations_of(student)
    assert ops, "Smooth Operator's mental maths gives answers per operation"
    client.force_login(teacher)
    dash = unescape(client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode())
    page = unescape(client.get(reverse("reports:student", args=[classroom.pk, student.pk])).content.decode())
    rows = list(csv.reader(io.StringIO(client.get(reverse("reports:skills_csv", args=[classroom.pk]))
                                       .content.decode("utf-8-sig"))))
    csv_rows = [dict(zip(rows[0], r)) for r in rows[1:]]
    pdf = client.get(reverse("reports:student_pdf", args=[classroom.pk, student.pk])).content
    pdf_text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())
    for op, (misses, chances) in ops.items():
        name = f"{OPERATION_WORDS[op][0]} ({op})"
        said = f"{name}: wrong {misses} of {chances} times ({range_words(misses, chances)})"
        assert said in dash and said in page, said
        mine = next(r for r in csv_rows if r["Student"] == student.display_name
                    and r["Measure id"] == f"operation:{op}")
        assert (mine["Misses"], mine["Chances"]) == (str(misses), str(chances))
        assert f"{name}: {student.display_name} got {chances - misses} of {chances} right" in pdf_text
    # Families and the interval words.
    assert ">Arithmetic</th>" in dash and "compared with the best play in the same position" in dash
    assert "from " in dash and " chances" in dash
    # Totals: whatever the strategy measures gave away is added up, per student and class.
    report = next(r for r in class_reports(classroom=classroom) if r.student == student)
    for total in report.totals:
        assert total.short in dash, total.short
        mine = next(r for r in csv_rows if r["Student"] == student.display_name
                    and r["Measure id"] == f"total:{total.words[1]}")
        assert mine["Total"] == str(total.value)
    # Facts: one square per fact (a ≤ b), the tried ones in the CSV, the rest said so.
    grid = selectors.fact_grid(classroom=classroom, student=student)
    assert grid.tried and grid.never_tried
    fact_rows = [r for r in csv_rows if r["Student"] == student.display_name and ":" in r["Measure id"]
                 and r["Measure id"].split(":")[1][:1].isdigit()]
    assert len(fact_rows) == grid.tried
    for r in fact_rows:
        a, b = (int(n) for n in r["Measure id"].split(":")[1].split("x"))
        assert a <= b
    assert f"{grid.tried} of 55 facts tried" in page


def test_my_progress_and_xlsx_for_the_simulated_class(client, sim, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    student = sim.students[0]
    ops = operations_of(student)
    client.force_login(student)
    html = unescape(client.get("/play/progress/").content.decode())
    for op, (misses, chances) in ops.items():
        assert f"{OPERATION_WORDS[op][0]} ({op}): you got {chances - misses} of {chances} right." in html
    path = tmp_path / "r.xlsx"
    xlsx.write_xlsx(path, classroom=sim.classroom)
    wb = load_workbook(path)
    header, *lines = list(wb["By operation"].iter_rows(values_only=True))
    mine = next(r for r in lines if r[0] == student.display_name)
    for op, (misses, chances) in ops.items():
        assert mine[header.index(f"{OPERATION_WORDS[op][0]} ({op}): tried")] == chances
    assert any(r[0] == student.display_name for r in wb["Times tables"].iter_rows(values_only=True))
