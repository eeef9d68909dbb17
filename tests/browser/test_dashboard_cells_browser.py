"""A teacher's open dashboard takes in one student's new numbers cell by cell: the push
carries just the changed cells (live/diff.py), and the page shows them in place, with
the rest of the skill table as it was. (The live server is a process of its own, so the push is
set off the way a class sets it off: a student starts a game.)"""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from reports.measures import all_measures
from reports.models import SkillRollup
from tests.browser.test_play_browser import signed_in_page
from tests.browser.test_reports_browser import open_sections
from tests.reports.showing import rollup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_students_new_numbers_land_in_their_cells_without_a_reload(
        browser, live_daphne, classroom, student, make_student, teacher):
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    measure = next(m for m in all_measures() if m.has_misses)
    for kid in (student, ben):
        rollup(classroom, measure.id, student=kid, chances=20, misses=2)
    rollup(classroom, measure.id, chances=40, misses=4)
    desk = signed_in_page(browser, live_daphne, teacher)
    desk.goto(live_daphne + reverse("reports:dashboard", args=[classroom.pk]))
    expect(desk.locator("#dash-connection")).to_contain_text("Live: this page updates by itself")
    open_sections(desk, "skills")
    skills = desk.locator("#dash-skills")
    ann_row = skills.locator("tbody tr", has=desk.get_by_role("rowheader", name="Ann"))
    ben_row = skills.locator("tbody tr", has=desk.get_by_role("rowheader", name="Ben"))
    expect(ann_row).to_contain_text("missed 2 of 20")
    desk.evaluate("document.querySelector('#dash-skills').dataset.sameTable = 'yes'")


    # Ann's numbers and the class's change (as a finished game's report would change them),
    # Ben's do not; then Ann starts a game, which the server tells open dashboards about.
    SkillRollup.objects.filter(classroom=classroom, student=student, measure=measure.id).update(chances=27, misses=5)
    SkillRollup.objects.filter(classroom=classroom, student=None, measure=measure.id).update(chances=47, misses=7)
    ann = signed_in_page(browser, live_daphne, student)
    ann.goto(live_daphne + reverse("classroom:student_home"))
    ann.get_by_role("button", name="Play The Multiplication Game").click()
    ann.wait_for_url("**/game/*/")
    expect(desk.locator(".dash-now")).to_contain_text("Ann")

    expect(ann_row).to_contain_text("missed 5 of 27")
    expect(skills.locator("tfoot")).to_contain_text("missed 7 of 47")
    expect(ben_row).to_contain_text("missed 2 of 20")
    # The table itself was not replaced: only its cells were.
    expect(skills).to_have_attribute("data-same-table", "yes")
