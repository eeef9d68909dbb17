"""Revision 2 on the report pages and in the exports: measures under their families, accuracy
per operation, the times-table facts (a × b and b × a as one, never-tried facts, median
seconds), the totals given away, and the interval words. Roll-ups are made directly (the
counting half is tested on its own); the measures' Revision 2 attributes are set here so the
test does not depend on how each game declares them."""

import csv
import io
import re
from dataclasses import replace
from html import unescape

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from games import registry
from reports.exports.jobs import export_run_job
from reports.models import RecomputeJob, SkillRollup
from reports.rendering import render_dashboard_live

from .showing import make_game, rollup

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media")]

R2 = {
    "so.mental_math": dict(family="arithmetic", by_operation=True),
    "so.even_division": dict(family="arithmetic", by_operation=True),
    "so.lowest_operator": dict(family="strategy", amount_words=("point given away", "points given away")),
    "nu.best_take": dict(family="strategy", amount_words=("card left behind", "cards left behind")),
    "mg.facts": dict(family="arithmetic", fact_grid=True, amount_words=("second", "seconds")),
}


@pytest.fixture(autouse=True)
def revision_2_measures(monkeypatch):
    original = registry.measures

    def measures():
        for m in original():
            yield replace(m, **R2[m.id]) if m.id in R2 else m

    monkeypatch.setattr(registry, "measures", measures)


def amounts(classroom, measure, student, *, chances, misses, amount):
    row = rollup(classroom, measure, student=student, chances=chances, misses=misses)
    SkillRollup.objects.filter(pk=row.pk).update(amount_total=amount)


@pytest.fixture
def pupils(classroom, make_student):
    """Ava: + 2 wrong of 14 (mental maths), × 1 of 4 and ÷ 3 of 6 (two measures: one
    figure per operation); 23 points given away, 5 cards left behind; 7 × 8 tried 3 times
    (1 wrong) and 8 × 7 twice (right), median 4 s; 3 of 20 on the lowest operator.
    Ben: + 1 of 10, 10 points given away."""
    ava = make_student(classroom, "Ava")
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    for student, detail, measure, chances, misses in [
            (ava, "+", "so.mental_math", 14, 2), (ava, "×", "so.mental_math", 4, 1),
            (ava, "÷", "so.mental_math", 2, 1), (ava, "÷", "so.even_division", 4, 2),
            (ben, "+", "so.mental_math", 10, 1)]:
        rollup(classroom, measure, student=student, detail=detail, chances=chances, misses=misses)
    for detail, chances, misses in [("+", 24, 3), ("×", 4, 1), ("÷", 6, 3)]:
        rollup(classroom, "so.mental_math", detail=detail, chances=chances, misses=misses)
    rollup(classroom, "so.mental_math", student=ava, chances=20, misses=4)
    rollup(classroom, "so.mental_math", student=ben, chances=10, misses=1)
    rollup(classroom, "so.even_division", student=ava, chances=4, misses=2)
    amounts(classroom, "so.lowest_operator", ava, chances=20, misses=3, amount=23)
    amounts(classroom, "so.lowest_operator", ben, chances=12, misses=2, amount=10)
    amounts(classroom, "so.lowest_operator", None, chances=32, misses=5, amount=33)
    amounts(classroom, "nu.best_take", ava, chances=8, misses=2, amount=5)
    amounts(classroom, "nu.best_take", None, chances=8, misses=2, amount=5)
    for who in (ava, None):
        rollup(classroom, "mg.facts", student=who, chances=5, misses=1)
        for detail, chances, misses, median in [("7x8", 3, 1, 4.0), ("8x7", 2, 0, 4.0), ("3x4", 1, 0, 2.5)]:
            rollup(classroom, "mg.facts", student=who, detail=detail, chances=chances, misses=misses,
                         median=median)
    make_game(classroom, ava, moves=1)
    return ava, ben


def get(client, user, url, **params):
    client.force_login(user)
    return unescape(client.get(url, params).content.decode())


def test_dashboard_groups_families_and_shows_operations_totals_and_intervals(client, teacher, classroom, pupils):
    ava, ben = pupils
    html = get(client, teacher, reverse("reports:dashboard", args=[classroom.pk]))
    skills = html[html.index('id="skills-heading"'):html.index('id="operations-heading"')]
    # Families: headings over their columns, Arithmetic first, each with a line in plain words.
    assert skills.index('scope="colgroup"') < skills.index(">Arithmetic</th>") < skills.index(">Strategy</th>")
    assert "compared with the best play in the same position" in skills
    # The interval: concise in the cell, in full in its title.
    assert "about 5-30 %" in skills and "about 5-30 %, from 20 chances" in skills
    # Per operation, summed over the measures: ÷ is 3 of 6 (mental maths 1 of 2, exact division 2 of 4).
    ops = html[html.index('id="operations-heading"'):html.index('id="totals-heading"')]
    assert "Adding (+)" in ops and "Multiplying (×)" in ops and "Dividing (÷)" in ops
    assert "Taking away (−)" not in ops  # nobody tried it: no column
    ava_ops = ops[ops.index(">Ava<"):ops.index(">Ben<")]
    assert re.search(r"missed\s*<a [^>]*>2</a>\s*of\s*<a [^>]*>14</a>", ava_ops)
    assert "missed 3 of 6" in ava_ops  # two measures: no single list of moves to link
    assert "Dividing (÷): wrong 3 of 6 times (about 20-80 %, from 6 chances)" in ava_ops
    assert "detail=%2B" in ava_ops
    assert 'id="dash-o-' in ops
    # The section is a live part of its own: a push can send it (or its cells) by itself.
    live = render_dashboard_live(user=teacher, classroom_id=classroom.pk)
    ops_part = live["operations"]
    assert 'id="operations-heading"' in ops_part.html and 'id="dash-o-' in ops_part.html
    # Its cells are items of the part: a push can send one cell alone.
    assert ops_part.items and all(key.startswith("dash-o-") and item in ops_part.html
                                  for key, item in ops_part.items.items())
    # Totals per student and for the class.
    totals = html[html.index('id="totals-heading"'):]
    totals = totals[:totals.index("</section>")]
    assert "Points given away" in totals and "Cards left behind" in totals
    assert "23 points given away" in totals and "10 points given away" in totals
    assert "5 cards left behind" in totals
    assert "33 points given away" in totals and "about 16 a student" in totals
    assert "seconds" not in totals.lower().replace("median", "")  # a fact's seconds are not a cost


def test_student_page_groups_families_with_operations_and_totals(client, teacher, classroom, pupils):
    ava, _ = pupils
    html = get(client, teacher, reverse("reports:student", args=[classroom.pk, ava.pk]))
    assert html.index('<h2 id="fam-arithmetic">Arithmetic</h2>') < html.index('<h2 id="fam-strategy">Strategy</h2>')
    arithmetic = html[html.index('id="fam-arithmetic"'):html.index('id="fam-strategy"')]
    assert "By operation" in arithmetic and "Adding (+): wrong 2 of 14 times (about 5-35 %, from 14 chances)" in arithmetic
    strategy = html[html.index('id="fam-strategy"'):]
    assert "Given away by choices" in strategy and "23 points given away" in strategy
    assert "33 points given away" in strategy  # the class, beside her
    assert "Ava: missed 3 of 20, about 5-30 %, from 20 chances." in strategy
    # Her facts: 7 × 8 and 8 × 7 merged, with the median seconds; the rest never tried.
    assert "7 × 8: right 4 of 5 times, median 4.0 s a try" in html
    assert "8 × 7: the same fact as 7 × 8" in html and "9 × 9: not tried yet" in html
    assert "2 of 55 facts tried; 53 never tried yet" in html


def test_heat_map_merges_facts_and_shows_never_tried(client, teacher, classroom, pupils):
    html = get(client, teacher, reverse("reports:facts", args=[classroom.pk]))
    table = html[html.index('<table class="heatmap">'):html.index("</table>")]
    assert table.count('<td class="heat') == 100
    assert "7 × 8: right 4 of 5 times, median 4.0 s a try" in table
    assert "3 × 4: right 1 of 1 times, median 2.5 s a try" in table
    assert 'aria-hidden="true">0/' not in table and "0 %" not in table  # never tried is not "0 right"
    assert table.count("not tried yet</span>") == 53
    assert "4.0 s" in table and "2 of 55 facts tried" in html


def test_my_progress_says_operations_in_a_childs_words(client, classroom, pupils):
    ava, _ = pupils
    html = get(client, ava, "/play/progress/")
    assert "Working it out" in html and "Clever choices" in html
    assert "Adding (+): you got 12 of 14 right." in html
    assert "Dividing (÷): you got 3 of 6 right." in html
    assert "7 × 8: right 4 of 5 times" in html and "Ben" not in html
    assert "Needs help" not in html


def read_csv(body: bytes):
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def test_csv_has_operations_totals_facts_and_intervals(client, teacher, classroom, pupils):
    client.force_login(teacher)
    rows = read_csv(client.get(reverse("reports:skills_csv", args=[classroom.pk])).content)
    ava = {r["Measure id"]: r for r in rows if r["Student"] == "Ava"}
    whole = {r["Measure id"]: r for r in rows if r["Student"] == "Whole class"}
    assert ava["so.lowest_operator"]["Family"] == "Strategy" and ava["so.mental_math"]["Family"] == "Arithmetic"
    assert ava["so.lowest_operator"]["Band"] == "Getting there"  # 3 of 20: not Needs help
    assert ava["so.lowest_operator"]["In words"].endswith("(about 5-30 %, from 20 chances)")
    assert ava["so.lowest_operator"]["Total"] == "23"
    assert (ava["operation:+"]["Misses"], ava["operation:+"]["Chances"]) == ("2", "14")
    assert (ava["operation:÷"]["Misses"], ava["operation:÷"]["Chances"]) == ("3", "6")
    assert ava["total:points given away"]["Total"] == "23"
    assert ava["total:cards left behind"]["Total"] == "5"
    assert whole["total:points given away"]["Total"] == "33"
    assert (ava["mg.facts:7x8"]["Chances"], ava["mg.facts:7x8"]["Median seconds"]) == ("5", "4.0")
    assert "mg.facts:8x7" not in ava  # one fact, not two
    assert whole["operation:+"]["Chances"] == "24"


def _job(classroom, teacher, fmt, tmp):
    job = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format=fmt,
                                      requested_by=teacher)
    export_run_job(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == "ready", job.message
    return job.file.read()


def test_xlsx_has_operations_totals_and_merged_facts(teacher, classroom, pupils, tmp_path):
    wb = load_workbook(io.BytesIO(_job(classroom, teacher, "xlsx", tmp_path)))
    ops = list(wb["By operation"].iter_rows(values_only=True))
    ava = next(r for r in ops if r[0] == "Ava")
    header = ops[0]
    assert ava[header.index("Adding (+): right")] == 12 and ava[header.index("Adding (+): tried")] == 14
    assert ava[header.index("Taking away (−): likely wrong")] == "not tried yet"
    totals = list(wb["Totals"].iter_rows(values_only=True))
    assert totals[0][1:] == ("Points given away", "Cards left behind")
    assert ("Ava", 23, 5) in totals and ("Whole class", 33, 5) in totals
    facts = list(wb["Times tables"].iter_rows(values_only=True))
    assert ("Ava", "7 × 8", 5, 4, 1) == next(r for r in facts if r[:2] == ("Ava", "7 × 8"))[:5]
    assert next(r for r in facts if r[:2] == ("Ava", "7 × 8"))[6] == 4.0
    assert ("Whole class", "9 × 9", 0, None, None, None, None, "not tried yet") in facts


def test_parent_pdf_has_operations_totals_facts_and_intervals(client, teacher, classroom, pupils):
    ava, _ = pupils
    client.force_login(teacher)
    data = client.get(reverse("reports:student_pdf", args=[classroom.pk, ava.pk])).content
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages).split())
    assert text.index("Arithmetic") < text.index("Strategy")
    assert "Adding (+): Ava got 12 of 14 right" in text
    assert "Points given away: 23 (the class: about 16 a student)" in text
    assert "Cards left behind: 5" in text
    assert "about 5-30 %, from 20 chances" in text
    assert "Ava has tried 2 of the 55 facts" in text and "53 not tried yet" in text
    assert "7 × 8: 4.0 s" in text


def test_class_pdf_has_the_class_operations_and_totals(teacher, classroom, pupils, tmp_path):
    data = _job(classroom, teacher, "pdf", tmp_path)
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages).split())
    assert "Arithmetic by operation (the whole class)" in text
    assert "Adding (+): wrong 3 of 24 times" in text
    assert "Points given away: 33 in 32 chances (about 16 a student)" in text
