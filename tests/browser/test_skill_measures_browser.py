"""Revision 2's measures as a teacher and a child read them in Chromium, for a simulated class
(devtools.simulation.simulate_class): accuracy per operation with its likely range in words,
the totals given away by choices, the times-table squares (tried facts with their median
seconds, facts never tried said so), the skills CSV downloaded from the Downloads page, and
the children's own "My progress" (per operation, how sure the numbers are, what choices
cost). The figures read on screen are the class's roll-ups."""

from __future__ import annotations

import csv
import io

import pytest
from playwright.sync_api import expect

from devtools.planted import parse_plant
from devtools.simulation import simulate_class
from reports import selectors
from reports.exports.rows import class_reports
from reports.measures import all_measures
from reports.models import SkillRollup
from reports.operations import OPERATION_WORDS, operation_of
from reports.uncertainty import range_words
from tests.browser.conftest import off_the_loop
from tests.browser.test_play_browser import signed_in_page
from tests.browser.test_reports_browser import eager_here, open_sections
from tests.reports.simulated import operations_of, remove_simulated

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROFILES = [["so.mental_math=0.3", "mg.facts=0.2"], ["so.lowest_operator=0.3", "so.even_division=0.3"]]


@pytest.fixture
def sim():
    def simulate():
        with eager_here():
            return simulate_class(students=2, games=6, seed=5, plants=[],
                                  profiles=[[parse_plant(p) for p in profile] for profile in PROFILES])

    made = off_the_loop(simulate)  # its broadcasts use async_to_sync: not in Playwright's thread
    yield made
    off_the_loop(lambda: remove_simulated(made))


def test_a_teacher_and_a_child_read_operations_facts_ranges_and_totals(browser, live_daphne, sim):
    teacher, classroom = sim.classroom.owner, sim.classroom
    first, second = sim.students
    ops = operations_of(first)
    assert ops, "mental maths gave answers per operation"

    page = signed_in_page(browser, live_daphne, teacher)
    page.goto(f"{live_daphne}/teach/classes/{classroom.pk}/reports/")
    open_sections(page, "skills", "operations", "totals")
    by_op = page.locator("#dash-operations")
    expect(by_op.get_by_role("heading", name="Arithmetic by operation")).to_be_visible()
    row = by_op.get_by_role("row").filter(has=page.get_by_role("rowheader", name=first.display_name))
    for op, (misses, chances) in ops.items():
        expect(row).to_contain_text(f"missed {misses} of {chances}")
        expect(row).to_contain_text(range_words(misses, chances).split(",")[0])  # "about 5-20 %"
    # The strategy plant gave points away: the class total is on the page, per student too.
    totals = page.locator("#dash-totals")
    expect(totals.get_by_role("heading", name="Given away by choices")).to_be_visible()
    report = next(r for r in class_reports(classroom=classroom) if r.student == second)
    given = [t for t in report.totals if t.chances and t.value]
    assert given, "so.lowest_operator planted at 30 % gave points away"
    theirs = totals.get_by_role("row").filter(has=page.get_by_role("rowheader", name=second.display_name))
    for total in given:
        expect(theirs).to_contain_text(total.short)
    # Families, with what each means in plain words.
    expect(page.locator("#dash-skills")).to_contain_text("compared with the best play in the same position")

    # The student's own page: by operation, beside the class.
    page.get_by_role("link", name=first.display_name).first.click()
    expect(page.get_by_role("heading", name="By operation")).to_be_visible()
    name = str(OPERATION_WORDS[next(iter(ops))][0])
    expect(page.get_by_role("row").filter(has_text=name).first).to_be_visible()

    # Times tables: tried facts with their median seconds; facts never tried say so.
    grid = selectors.fact_grid(classroom=classroom, student=first)
    assert grid.tried and grid.never_tried
    expect(page.get_by_text(f"{grid.tried} of 55 facts tried")).to_be_visible()
    heat = page.locator("table.heatmap").first
    expect(heat.get_by_text("not tried yet").first).to_be_attached()
    expect(heat.get_by_text(" s", exact=False).first).to_be_visible()  # "6.8 s": the median

    # The skills CSV from the Downloads page: a row per operation tried, with the range.
    page.goto(f"{live_daphne}/teach/classes/{classroom.pk}/reports/exports/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Skills table (CSV)").click()
    text = open(download.value.path(), encoding="utf-8-sig").read()
    lines = list(csv.reader(io.StringIO(text)))
    rows = [dict(zip(lines[0], line)) for line in lines[1:]]
    for op, (misses, chances) in ops.items():
        mine = next(r for r in rows if r["Student"] == first.display_name and r["Measure id"] == f"operation:{op}")
        assert (mine["Misses"], mine["Chances"]) == (str(misses), str(chances))
    page.context.close()

    # The child's own page: each operation in words, no classmate anywhere.
    child = signed_in_page(browser, live_daphne, first)
    child.goto(f"{live_daphne}/play/progress/")
    for op, (misses, chances) in ops.items():
        expect(child.get_by_text(f"{OPERATION_WORDS[op][0]} ({op}): you got {chances - misses} of {chances} right.")
               ).to_be_visible()
    expect(child.get_by_text("tries: you get it right about").first).to_be_visible()  # the range
    expect(child.locator("body")).not_to_contain_text(second.display_name)
    child.context.close()

    # The classmate whose choices gave points away reads what they cost, in words.
    other = signed_in_page(browser, live_daphne, second)
    other.goto(f"{live_daphne}/play/progress/")
    for total in given:
        expect(other.locator(".given-away")).to_contain_text(total.short)
    other.context.close()
