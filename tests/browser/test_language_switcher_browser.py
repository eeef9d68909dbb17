"""Choosing a language in Chromium (docs/i18n.md): with the keyboard alone, the
footer's switcher turns the page Spanish, then Arabic and right to left; the shared pages (the
home page, the 404) do not scroll sideways at 390, 1024 and 1440 px in either language, every
switcher button is a 44 × 44 px target, and axe-core finds nothing.

Screenshots of each page at each width are kept as tests/browser/screenshots.py says (every one
in SCREENSHOT_DIR when it is set, otherwise those with problems), to be looked at.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.screenshots import keep_screenshot, naming
from tests.browser.test_class_journey_browser import (AXE_JS, OVERFLOW_JS, PATH_JS, TARGETS_JS, WIDTHS,
                                                      add_axe, axe_lines)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def choose_by_keyboard(page, name: str) -> None:
    button = page.get_by_role("button", name=name, exact=True)
    button.focus()
    expect(button).to_be_focused()
    assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") != "none"
    with page.expect_navigation():
        page.keyboard.press("Enter")


def test_a_visitor_switches_language_by_keyboard_and_the_pages_fit(browser, live_daphne):
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    page.goto(live_daphne + "/")
    html = page.locator("html")
    expect(html).to_have_attribute("lang", "en")
    expect(page.get_by_role("button", name="English", exact=True)).to_have_attribute("aria-pressed", "true")

    problems = []
    for code, name, phrase in (("es", "Español", "Juegos de cartas para aprender a hacer cuentas"),
                               ("ar", "العربية", "ألعاب بطاقات تعلّمك الحساب")):
        choose_by_keyboard(page, name)
        expect(html).to_have_attribute("lang", code)
        expect(html).to_have_attribute("dir", "rtl" if code == "ar" else "ltr")
        expect(page.get_by_role("heading", level=1)).to_have_text(phrase)
        expect(page.get_by_role("button", name=name, exact=True)).to_have_attribute("aria-pressed", "true")
        for path in ("/", "/no-such-page/"):
            page.goto(live_daphne + path)
            page.evaluate(PATH_JS)
            for width, height in WIDTHS.items():
                page.set_viewport_size({"width": width, "height": height})
                here = []
                wide = page.evaluate(OVERFLOW_JS)
                if wide["scrollWidth"] > min(wide["clientWidth"], wide["innerWidth"]):
                    here.append(f"{code} {path} at {width}px scrolls sideways: {wide['outside']}")
                if width == 390:
                    here += [f"{code} {path} small target: {t}" for t in page.evaluate(TARGETS_JS, 44)
                             if "language-button" in t or "footer" in t]
                shot = keep_screenshot(page, f"{code}-{path.strip('/') or 'home'}-{width}", problems=here)
                problems += [problem + naming(shot) for problem in here]
            add_axe(page)
            problems += [f"{code} {path}: {line}" for line in axe_lines(page.evaluate(AXE_JS))]
        page.goto(live_daphne + "/")
    # The choice lasts: a new page of the same browser is still in Arabic.
    again = context.new_page()
    again.goto(live_daphne + "/")
    expect(again.locator("html")).to_have_attribute("dir", "rtl")
    context.close()
    assert problems == [], "\n".join(problems)
