"""The report pages as a class uses them, on a phone, a tablet and a desktop.

- No report page pans sideways: at 390, 1024 and 1440 px wide the page is never wider than the
  window. A wide table scrolls inside its own labelled, focusable region (the hidden
  screen-reader words in its cells used to stretch the page to 1655 px); the assignment menu
  shrinks to the screen however long an assignment's title is (it made the page 493 px).
- Every page links a favicon that is served (no 404 on any page request).
- axe-core finds no prohibited aria-label on the student's stars and no two landmarks with the
  same name on the skill dashboard.
- "My progress" names the cards a child needs to practise, from real games: the card, the facts
  that make it, and what the child said.

Games are played in this process by planted players and committed (see
tests/browser/test_reports_browser.py); tasks run eagerly here, so no worker is needed.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from classroom.models import Assignment
from reports.models import SkillEvidence
from tests.browser.test_class_journey_browser import AXE, add_axe
from tests.browser.test_play_browser import signed_in_page
from tests.browser.test_reports_browser import finished_game, open_sections
from tests.conftest import need

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (390, 1024, 1440)


@pytest.fixture
def busy_class(classroom, student, make_student):
    """A class whose dashboard has a column for every game's measures: Ann and Zed played
    every game, Ann named some times-table facts wrong; a third student has not played."""
    zed = make_student(classroom, "Zed", ("moon", "star", "fish"))
    make_student(classroom, "Yasmin-Alexandra", ("boat", "star", "apple"))
    Assignment.objects.create(classroom=classroom, title="Times tables race", game="multiplication",
                              opponents="bots", bot_level="expert", bot_count=1, goal_count=2)
    # The dashboard's "Show" menu is as wide as its longest title unless it shrinks: this one
    # would make it 493 px on a 390 px phone.
    Assignment.objects.create(classroom=classroom, title="Times tables: the sevens and eights before the spring holiday",
                              game="multiplication", opponents="bots", bot_level="expert", bot_count=1)
    finished_game(classroom, student, "multiplication", ["mg.facts=0.4", "mg.missed_play=0.3"], seed=3)
    finished_game(classroom, zed, "multiplication", ["mg.facts=0.2"], seed=4)
    finished_game(classroom, student, "smooth_operator", ["so.lowest_operator=0.3"], seed=5)
    finished_game(classroom, zed, "numero", ["nu.missed_take=0.3"], seed=6)
    return classroom


def report_pages(classroom, student, teacher) -> list[tuple[str, object, str]]:
    fact = (SkillEvidence.objects.filter(student=student, measure="mg.facts", missed=True)
            .values_list("detail", flat=True).first())
    return [
        ("dashboard", teacher, reverse("reports:dashboard", args=[classroom.pk])),
        ("student report", teacher, reverse("reports:student", args=[classroom.pk, student.pk])),
        ("heat map", teacher, reverse("reports:facts", args=[classroom.pk])),
        ("moves", teacher, reverse("reports:moves", args=[classroom.pk])
         + f"?measure=mg.facts&detail={fact}&missed=all"),
        ("moves, every rule error", teacher, reverse("reports:moves", args=[classroom.pk])
         + "?measure=all.rule_errors&missed=all"),
        ("downloads", teacher, reverse("reports:exports", args=[classroom.pk])),
        ("my progress", student, reverse("reports:my_progress")),
        ("student home", student, reverse("classroom:student_home")),
    ]


def overflow(page) -> dict:
    return page.evaluate("""() => ({
        page: document.documentElement.scrollWidth, window: window.innerWidth,
        wraps: [...document.querySelectorAll('.table-wrap')].map(w => ({
            scrolls: w.scrollWidth > w.clientWidth, role: w.getAttribute('role'),
            tabindex: w.getAttribute('tabindex'),
            label: w.getAttribute('aria-label')
                   || document.getElementById(w.getAttribute('aria-labelledby') || '')?.textContent.trim() || ''}))
    })""")


def test_no_report_page_pans_sideways_and_wide_tables_scroll_in_their_own_region(
        browser, live_daphne, busy_class, student, teacher):
    pages = report_pages(busy_class, student, teacher)
    contexts = {}
    scrolled_inside = set()
    for name, who, url in pages:
        if who.pk not in contexts:
            contexts[who.pk] = signed_in_page(browser, live_daphne, who)
        page = contexts[who.pk]
        page.set_viewport_size({"width": WIDTHS[0], "height": 900})
        page.goto(live_daphne + url)
        if name == "dashboard":  # its wide tables are in sections that open: all opened
            open_sections(page)
        for width in WIDTHS:
            # No script reads the window's width (the CSS alone responds to it), so widening
            # the window shows what opening the page at this width shows.
            page.set_viewport_size({"width": width, "height": 900})
            page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            seen = overflow(page)
            assert seen["page"] <= seen["window"], f"{name} at {width} px pans sideways: {seen}"
            for wrap in seen["wraps"]:
                # A table that may scroll does so in a region a keyboard can reach, with a name.
                assert wrap["role"] == "region" and wrap["tabindex"] == "0" and wrap["label"], (name, wrap)
                if wrap["scrolls"]:
                    scrolled_inside.add(name)
    # The dashboard's skill table really is wider than a phone: it scrolls inside its region.
    assert "dashboard" in scrolled_inside

    # The region shows where the keyboard is, and scrolls from the keyboard.
    page = contexts[teacher.pk]
    page.bring_to_front()  # several pages are open: only the front one has keyboard focus
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(live_daphne + pages[0][2])
    # The live socket's first push re-renders the skill table: wait for it, or it may land
    # between two Tab presses and put focus back on the page.
    expect(page.locator("#dash-connection")).to_contain_text("Live: this page updates by itself")
    open_sections(page, "skills")
    region = page.get_by_role("region", name="Skill table: every student and skill")
    page.locator("#assignment-filter").focus()
    for _ in range(5):
        page.keyboard.press("Tab")
        if region.evaluate("el => el === document.activeElement"):
            break
    expect(region).to_be_focused()
    assert region.evaluate("el => getComputedStyle(el).outlineStyle") != "none"
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('#dash-skills .table-wrap').scrollLeft > 0")
    assert overflow(page)["page"] <= 390


def test_every_page_links_a_favicon_that_is_served(browser, live_daphne, busy_class, student, teacher):
    missing = []
    for name, who, url in report_pages(busy_class, student, teacher)[::3] + [
            ("home", None, "/"), ("teacher sign-in", None, reverse("accounts:teacher_login"))]:
        page = signed_in_page(browser, live_daphne, who) if who else browser.new_page()
        page.on("response", lambda r, name=name: missing.append((name, r.url)) if r.status == 404 else None)
        page.goto(live_daphne + url)
        icon = page.locator('head link[rel="icon"]')
        expect(icon).to_have_count(1)
        href = icon.get_attribute("href")
        assert href.startswith("/static/")  # served by the app (WhiteNoise), no CDN
        got = page.request.get(live_daphne + href)
        assert got.status == 200 and got.headers["content-type"].startswith("image/svg+xml"), (name, got.status)
        assert b"<svg" in got.body()
        page.context.close()
    assert missing == []


AXE_RULES = ["aria-prohibited-attr", "aria-allowed-attr", "landmark-unique", "role-img-alt"]


def axe_violations(page) -> list:
    add_axe(page)
    return page.evaluate("""async rules => (await axe.run(document, {runOnly: {type: 'rule', values: rules}}))
        .violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.html.slice(0, 120))}))""",
                         AXE_RULES)


def test_axe_finds_no_stars_or_landmark_problems(browser, live_daphne, busy_class, student, teacher):
    need(AXE.exists(), f"axe-core is not vendored at {AXE}")
    home = signed_in_page(browser, live_daphne, student)
    home.goto(live_daphne + reverse("classroom:student_home"))
    desk = signed_in_page(browser, live_daphne, teacher)
    desk.goto(live_daphne + reverse("reports:dashboard", args=[busy_class.pk]))
    open_sections(desk)  # every landmark of the page, its details opened
    assert {"student home": axe_violations(home), "dashboard": axe_violations(desk)} == {
        "student home": [], "dashboard": []}
    stars = home.get_by_role("img", name=re.compile(r"^\d+ stars? of 2$"))
    expect(stars).to_have_count(1)  # the stars are one picture with its words
    expect(desk.get_by_role("region", name="Skills")).to_have_count(1)
    expect(desk.get_by_role("region", name="Skill table: every student and skill")).to_have_count(1)


def test_my_progress_names_the_card_she_needed_and_what_she_said(browser, live_daphne, busy_class, student):
    # A miss's detail is the fact the card needed; what she said is the move's declaration.
    wrong = {}
    for a, b, card in (SkillEvidence.objects.filter(student=student, measure="mg.facts", missed=True)
                       .values_list("move__analysis__fact__a", "move__analysis__fact__b",
                                    "move__analysis__fact__card")):
        wrong.setdefault(card, set()).add(f"{a} × {b}")  # as she said it
    assert wrong  # the planted player named some facts wrong

    page = signed_in_page(browser, live_daphne, student)
    page.goto(live_daphne + reverse("reports:my_progress"))
    lines = page.get_by_role("list", name="Facts to practise:").get_by_role("listitem")
    expect(lines).to_have_count(min(len(wrong), 8))
    for line in lines.all_inner_texts():
        found = re.fullmatch(r"(\d+) is (.+) \(you said (.+)\)", line)
        assert found, line
        card = int(found[1])
        ways = found[2].split(" or ")
        assert ways and all(int(a) * int(b) == card for a, b in (w.split(" × ") for w in ways)), line
        said = set(re.split(r", | and ", found[3]))
        assert said == wrong[card], line  # what she said for that card, and only that
        assert not any(int(a) * int(b) == card for a, b in (s.split(" × ") for s in said))
    expect(page.locator("main")).not_to_contain_text(re.compile(r"\d+ × \d+ = \d+"))
