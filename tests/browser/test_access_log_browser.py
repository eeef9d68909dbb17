"""A teacher opens the access log and the privacy page with the keyboard alone; axe-core finds
nothing on either."""
import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.test_class_journey_browser import AXE_JS, add_axe, axe_lines
from tests.browser.test_play_browser import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def follow_by_keyboard(page, name: str) -> None:
    link = page.get_by_role("link", name=name, exact=True)
    link.focus()
    expect(link).to_be_focused()
    # The focus is visible: the focused link draws an outline.
    assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Enter")


def axe(page) -> list[str]:
    add_axe(page)
    return axe_lines(page.evaluate(AXE_JS))


def test_teacher_opens_the_access_log_and_the_privacy_page_by_keyboard(browser, live_daphne, teacher,
                                                                       classroom, student):
    page = signed_in_page(browser, live_daphne, teacher)
    page.goto(live_daphne + reverse("reports:student", args=[classroom.pk, student.pk]))
    page.goto(live_daphne + reverse("classroom:class_detail", args=[classroom.pk]))
    follow_by_keyboard(page, "Access log")
    expect(page.get_by_role("heading", name="Access log: Class 5B")).to_be_visible()
    expect(page.get_by_role("listitem").filter(has_text="Ms Rivera viewed Ann's skill report")).to_be_visible()
    problems = [f"access log: {line}" for line in axe(page)]
    follow_by_keyboard(page, "Privacy")
    expect(page.get_by_role("heading", name="Where it is kept")).to_be_visible()
    expect(page.get_by_text("No third party receives anything")).to_be_visible()
    problems += [f"privacy page: {line}" for line in axe(page)]
    assert problems == []
