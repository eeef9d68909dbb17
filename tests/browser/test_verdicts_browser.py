"""A strategy verdict a teacher can check (docs/reports.md), in Chromium: from Ann's "Best card" number
on the dashboard to the moves behind it, where each miss says what she played, what the expert
would have played and what it cost; then the replay at that moment says the same, by her name.

axe-core finds nothing wrong on either page, at the desk's width and a phone's.

The game is played in this process by a planted player (as tests/browser/test_reports_browser.py
does) and committed, so the live server reads it; the words expected are the game's own
explanation of that very row (reports.selectors.verdict_of).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from reports import selectors
from reports.measures import measure_by_id
from reports.models import SkillEvidence
from tests.browser.test_arena_browser import run_axe
from tests.browser.test_class_journey_browser import add_axe, axe_lines
from tests.browser.test_play_browser import signed_in_page
from tests.browser.test_reports_browser import finished_game, open_sections, press, student_total

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BEST_CARD = measure_by_id("so.lowest_operator")


def test_a_teacher_opens_a_counted_choice_and_reads_the_expert_move_and_its_worth(
        browser, live_daphne, classroom, student, teacher):
    game = finished_game(classroom, student, "smooth_operator", ["so.lowest_operator=0.5"], seed=4)
    total = student_total(student, BEST_CARD.id)
    newest = (SkillEvidence.objects.filter(student=student, measure=BEST_CARD.id, missed=True)
              .select_related("game", "move", "move__seat").order_by("-played_at", "-id").first())
    assert total.misses >= 1 and newest is not None
    verdict = selectors.verdict_of(newest)

    page = signed_in_page(browser, live_daphne, teacher)
    page.goto(live_daphne + reverse("reports:dashboard", args=[classroom.pk]))
    expect(page.locator("#dash-connection")).to_contain_text("Live: this page updates by itself")
    open_sections(page, "skills")
    ann_row = page.locator("#dash-skills tbody tr", has=page.get_by_role("rowheader", name="Ann"))
    cell = ann_row.locator(f'td[title^="{BEST_CARD.miss_words}"]')
    press(cell.get_by_role("link", name=f"{total.misses} missed: list them"))

    # The moves behind the number: the newest miss first, with its explanation.
    page.wait_for_url(re.compile(r"/reports/moves/\?"))
    first = page.locator(".moves-table tbody tr").first
    expect(first).to_contain_text("Missed")
    explained = first.locator("dl.verdict")
    expect(explained.locator("dt")).to_have_text(["Move", "Expert", "Verdict"])
    expect(explained.locator("dd").nth(0)).to_have_text(verdict.played)
    expect(explained.locator("dd").nth(1)).to_have_text(verdict.expert)   # the expert's card
    expect(explained.locator("dd").nth(2)).to_have_text(verdict.worth)    # what it cost, in points
    expect(explained.locator("dd").nth(1)).to_contain_text("The expert would play the ")
    expect(explained.locator("dd").nth(2)).to_contain_text(re.compile(r"^Gave away .+ more than the . card"))

    problems = axe_at_two_widths(page, "the moves page")

    # The replay at that moment, by keyboard: the same verdict under Ann's name.
    press(first.get_by_role("link", name=f"Open replay of Smooth Operator at turn {newest.turn}"))
    page.wait_for_url(f"**/game/{game.pk}/replay/?turn={newest.turn}")
    judged = page.get_by_role("region", name=re.compile("^How the choices? made from here"))
    expect(judged).to_be_visible()
    item = judged.get_by_role("listitem").filter(has=page.get_by_role("heading", name=re.compile("^Ann · Best card")))
    expect(item.get_by_role("heading")).to_contain_text("Missed")
    expect(item.locator("dd").nth(1)).to_have_text(verdict.expert)
    expect(item.locator("dd").nth(2)).to_have_text(verdict.worth)
    problems += axe_at_two_widths(page, "the replay")
    assert not problems, "\n".join(problems)


def axe_at_two_widths(page, what: str) -> list[str]:
    """axe-core's violations on the page as it is, at a desk's width and a phone's."""
    before = page.viewport_size
    add_axe(page)
    problems = []
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        problems += [f"{what} at {width}px: {line}" for line in axe_lines(run_axe(page))]
    page.set_viewport_size(before)
    return problems
