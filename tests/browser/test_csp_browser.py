"""The Content-Security-Policy in the browser (docs/csp.md).

Every browser test fails on any violation its pages meet (tests/browser/conftest.py,
`csp_violations_fail_the_test`): the journey tests cover each page a teacher and a student go
through, the arena, play and report tests the rest. Here:

- the watch itself: inline code added to a live page is blocked by the policy, and the watch
  hears it, naming the page and the directive (so the check on every other test can fail);
- the pages no journey opens: the error pages (404, 403) and the Django admin;
- what used to be inline still works from static/js/app.js: leaving a table asks first
  (hx-confirm, was onsubmit), and the class page's progress is fetched again when the page is
  looked at again (a "page-visible" event, was an hx-trigger filter that htmx would eval).
"""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import Error, expect

from games.models import Game
from games.services.tables import table_open
from tests.browser import conftest as browser_conftest
from tests.browser.test_play_browser import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_inline_code_is_blocked_and_the_watch_names_page_and_directive(browser, live_daphne):
    page = browser.new_page()
    page.goto(live_daphne + reverse("accounts:teacher_login"))
    before = len(browser_conftest.csp_seen)
    with pytest.raises(Error, match="Content Security Policy"):
        page.add_script_tag(content="window.__ran = true")
    page.evaluate("document.querySelector('h1').setAttribute('style', 'color: red')")
    # The listener keeps each on the page and writes it to the console, in that order: once the
    # page has both, their console lines have reached the test.
    page.wait_for_function("() => window.__cspViolations.length === 2")
    assert page.evaluate("window.__ran === undefined")
    expect(page.locator("h1")).not_to_have_css("color", "rgb(255, 0, 0)")
    heard = browser_conftest.csp_seen[before:]
    del browser_conftest.csp_seen[before:]  # seen on purpose: not this test's failure
    url = page.url
    assert any(url in line and "script-src-elem" in line for line in heard), heard
    assert any(url in line and "style-src-attr" in line for line in heard), heard
    kept = page.evaluate("window.__cspViolations")  # the page's own list, as the listener kept it
    assert [line.split(": ")[1].split()[0] for line in kept] == ["script-src-elem", "style-src-attr"], kept


def test_error_pages_and_the_admin_meet_the_policy(browser, live_daphne, teacher, student):
    """The watch fails this test if any of these pages breaks the policy."""
    visitor = browser.new_page()
    response = visitor.goto(live_daphne + "/no-such-page/")
    assert response.status == 404
    expect(visitor.get_by_role("heading", level=1)).to_have_text("We couldn't find that page")

    child = signed_in_page(browser, live_daphne, student)
    response = child.goto(live_daphne + reverse("classroom:teacher_home"))
    assert response.status == 403
    expect(child.get_by_role("heading", level=1)).to_have_text("This page isn't for your account")

    get_user_model().objects.create_superuser(username="admin", email="admin@school.test", password="x-admin-42")
    admin = browser.new_page()
    admin.goto(live_daphne + reverse("admin:login"))
    admin.get_by_label("Username").fill("admin")
    admin.get_by_label("Password").fill("x-admin-42")
    admin.get_by_role("button", name="Log in").click()
    expect(admin.get_by_role("heading", name="Site administration")).to_be_visible()
    for name, args in (("admin:classroom_classroom_changelist", []), ("admin:accounts_user_changelist", []),
                       ("admin:accounts_user_change", [teacher.pk]), ("admin:classroom_classroom_add", [])):
        response = admin.goto(live_daphne + reverse(name, args=args))
        assert response.status == 200, name
        admin.wait_for_load_state("load")


def test_leaving_a_table_asks_first_and_cancel_sends_nothing(browser, live_daphne, classroom, student):
    classroom.free_play = True
    classroom.save(update_fields=["free_play"])
    lobby = table_open(student=student, key="smooth_operator")
    page = signed_in_page(browser, live_daphne, student)
    page.goto(live_daphne + reverse("games:lobby", args=[lobby.pk]))
    leave = page.get_by_role("button", name="Leave the table")
    asked = []

    def answer(dialog, accept: bool):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    leave.click()
    expect(leave).to_be_enabled()  # not sent: no "Working…"
    assert asked == ["Leave this table? Someone else will be in charge of it."]
    assert lobby.seats.filter(user=student).exists()

    page.once("dialog", lambda dialog: answer(dialog, True))
    leave.click()
    expect(page.get_by_text("You left the table.")).to_be_visible()
    assert len(asked) == 2
    assert not Game.objects.get(pk=lobby.pk).seats.filter(user=student).exists()


def test_the_class_progress_is_fetched_again_when_the_page_is_looked_at_again(
        browser, live_daphne, teacher, classroom, student):
    """Hidden: no fetch; shown again: a fetch (a headless page is always visible, so the page is
    told it changed). htmx starts a fetch within the event, marking its indicator busy."""
    page = signed_in_page(browser, live_daphne, teacher)
    page.goto(live_daphne + reverse("classroom:class_detail", args=[classroom.pk]))
    progress = reverse("classroom:class_progress", args=[classroom.pk])
    became = """(state) => {
      Object.defineProperty(document, 'visibilityState', {value: state, configurable: true});
      document.dispatchEvent(new Event('visibilitychange'));
      return document.querySelector('.htmx-request') !== null;
    }"""
    assert page.evaluate(became, "hidden") is False
    with page.expect_response(lambda r: r.url.endswith(progress) and r.status == 200):
        assert page.evaluate(became, "visible") is True
