"""The Content-Security-Policy in the browser (docs/csp.md).

Every browser test fails on any violation its pages meet (tests/browser/conftest.py,
`csp_violations_fail_the_test`): the journey tests cover each page a teacher and a student go
through, the arena, play and report tests the rest. Here:

- the watch itself: inline code added to a live page is blocked by the policy, and the watch
  hears it, naming the page and the directive (so the check on every other test can fail);
- the pages no journey opens: the error pages (404, 403) and the Django admin.
"""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import Error, expect

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
    page.locator("h1").click()  # a round trip: the page's console lines have reached the test
    assert page.evaluate("window.__ran === undefined")
    expect(page.locator("h1")).not_to_have_css("color", "rgb(255, 0, 0)")
    heard = browser_conftest.csp_seen[before:]
    del browser_conftest.csp_seen[before:]  # seen on purpose: not this test's failure
    url = page.url
    assert any(url in line and "script-src-elem" in line for line in heard), heard
    assert any(url in line and "style-src-attr" in line for line in heard), heard


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
