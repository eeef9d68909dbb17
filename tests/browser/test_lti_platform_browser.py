"""The LTI test platform of `manage.py lti_test_platform` (devtools/lti_platform.py) against the
live server, as someone trying it by hand: a teacher's launch, an assignment added by deep
linking (the signed answer posted back by the browser, under the page's policy), a student's
launch; and Numberdeck refused inside a frame of the platform's page (docs/lti.md, "Framing":
launches open in a window of their own)."""

import pytest
from playwright.sync_api import expect

from devtools.lti_platform import TestPlatform, register_with_numberdeck
from tests.browser import conftest as browser_conftest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_test_platform_launches_a_teacher_who_adds_work_then_a_student(browser, live_daphne):
    platform = TestPlatform(tool_url=live_daphne).start()
    try:
        register_with_numberdeck(platform)
        page = browser.new_page()
        page.goto(platform.origin + "/")
        page.get_by_role("link", name="Launch as teacher").click()
        page.wait_for_url(live_daphne + "/teach/classes/*/")  # the course's class, made now
        expect(page.get_by_role("heading", name="Demo course 5B")).to_be_visible()
        # The class list from the course's members (names and roles), synced by the button.
        page.get_by_role("link", name="Class list from the course").click()
        page.get_by_role("button", name="Sync the class list now").click()
        expect(page.get_by_text("The class list is in step with the course.")).to_be_visible()
        page.get_by_role("link", name="Demo course 5B").click()
        expect(page.get_by_text("Ana L.").first).to_be_visible()
        # Add an activity: the assignment form, then the signed answer posted back by the page.
        page.goto(platform.origin + "/")
        page.get_by_role("link", name="Add an activity (deep linking)").click()
        page.get_by_role("button", name="Add to the course").click()
        expect(page.get_by_role("heading", name="Activity added")).to_be_visible()
        assert platform.activities[0]["custom"]["numberdeck_assignment"]

        student = browser.new_page()  # another person, another browser context
        student.goto(platform.origin + "/")
        student.get_by_role("link", name="Launch as student").click()
        student.wait_for_url(live_daphne + "/play/")
        expect(student.get_by_text("Sam S.").first).to_be_visible()

        # Inside a frame of the platform's page, the browser refuses to show Numberdeck.
        before = len(browser_conftest.csp_seen)
        with page.expect_console_message(lambda message: "frame-ancestors 'none'" in message.text):
            page.goto(platform.origin + "/framed")
        expect(page.get_by_role("link", name="open it in a new window")).to_be_visible()
        refused = browser_conftest.csp_seen[before:]
        assert refused and all("frame-ancestors 'none'" in line for line in refused), refused
        del browser_conftest.csp_seen[before:]  # expected here: the refusal is what is checked
        assert [frame.url for frame in page.frames[1:]] == ["chrome-error://chromewebdata/"]
        for opened in (page, student):
            opened.goto("about:blank")
            opened.close()
    finally:
        platform.stop()

