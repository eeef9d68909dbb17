"""The class dashboard's first screen, read in Chromium as a teacher sees it between two lessons,
at 1440 × 900 (a laptop) and 390 × 844 (a phone): what is inside the window before any
scrolling.

- A class of 30 in a lesson (24 playing, eight students flagged in four different ways, games
  today and last week, two assignments): the first screen holds the class in one line, who is
  playing (counted, and the few who are not, by name), and "Needs help" with its first students'
  cards; the page as first shown is at most two screens (1,800 px) tall at 1440 px.
- A class nobody needs help in: the first screen says so plainly, and why.
- Keyboard and screen-reader order is the order seen: nothing is moved by CSS, the parts stand
  one under the other in page order, the cards of "Needs help" read row by row, and Tab walks
  them in that order.
- axe-core finds nothing at 390, 1280 and 1920 px, as first shown and with every section open;
  in Spanish and Arabic (right to left) nothing sticks out sideways at 390 px.

The class is built from roll-ups, games and refused moves written straight to the database, and
its flags are raised by the reports' own rules (`reports.flags.refresh`), so the cards say what a
real class's would. With SCREENSHOT_DIR set, each page is saved there.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import User
from classroom.models import Assignment
from games.models import Game
from reports import flags as report_flags
from reports.models import NeedsHelpFlag, SkillRollup
from reports.selectors import HELP_SHOWN, help_groups, needs_help
from tests.browser.languages import SIDEWAYS_JS
from tests.browser.test_arena_browser import run_axe
from tests.browser.screenshots import keep_screenshot
from tests.browser.test_class_journey_browser import PATH_JS, add_axe, axe_lines
from tests.browser.test_play_browser import signed_in_page
from tests.browser.test_reports_browser import open_sections
from tests.reports.showing import evidence, make_game, rollup, this_monday, weeks_ago

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP, PHONE = {"width": 1440, "height": 900}, {"width": 390, "height": 844}
AXE_WIDTHS = {390: 844, 1280: 720, 1920: 1080}
TWO_SCREENS = 1800  # px: the page as first shown, at 1440 px, for a class of 30
PLAYING = 24

NAMES = ["Amara", "Ben", "Chloé", "Dev", "Eli", "Fatima", "Gus", "Hana", "Ibrahim", "Jo", "Kai",
         "Lena", "Mateo", "Nia", "Omar", "Priya", "Quinn", "Rosa", "Sami", "Tomás", "Uma", "Victor",
         "Wen", "Xavier", "Yasmin-Alexandra", "Zoe", "Aziz", "Bea", "Cruz", "Dina"]
# Who struggles with what (index into NAMES): two each of four kinds of flag.
BEST_CARD, DIVIDING, SEVEN_EIGHTS, RULES = (3, 17), (5, 21), (9, 26), (13, 28)
TODAY = len(NAMES) + len(RULES)  # games finished today: one each, and the games with refused moves


def _rows(classroom, student, measure, total, details=()):
    """The student's all-time roll-up of a measure (misses, chances) and of its details."""
    misses, chances = total
    rollup(classroom, measure, student=student, chances=chances, misses=misses)
    for detail, (d_misses, d_chances) in details:
        rollup(classroom, measure, student=student, detail=detail, chances=d_chances, misses=d_misses)


@transaction.atomic  # one commit (a thousand rows): then the live server reads them all
def class_of_30(classroom, make_student) -> list[User]:
    """30 students: each with the numbers of a few games in three games, two finished games
    (today, and last week), 24 of them at a table now; eight who need help in four ways."""
    students = [make_student(classroom, name) for name in NAMES]
    # Friday of last week, at noon: last week, whatever day the test runs.
    last_week = timezone.make_aware(timezone.datetime.combine(this_monday() - timedelta(days=3),
                                                              timezone.datetime.min.time())) + timedelta(hours=12)
    for i, kid in enumerate(students):
        best = (17, 30) if i in BEST_CARD else (3 + i % 3, 30)
        divide = (8, 10) if i in DIVIDING else (1, 10)
        fact = (7, 9) if i in SEVEN_EIGHTS else (i % 2, 6)
        _rows(classroom, kid, "so.lowest_operator", best)
        _rows(classroom, kid, "so.mental_math", (divide[0] + 2, 40),
              [("+", (1, 20)), ("×", (1, 10)), ("÷", divide)])
        _rows(classroom, kid, "mg.facts", (fact[0] + 1, 40),
              [("7x8", fact), ("3x4", (0, 8)), ("6x7", (1, 8)), ("9x9", (0, 6))])
        _rows(classroom, kid, "mg.missed_play", (2, 30))
        _rows(classroom, kid, "all.rule_errors", (8 if i in RULES else 2, 60))
        rollup(classroom, "all.think_time", student=kid, chances=40, median=4.0 + i % 5)
        make_game(classroom, kid)  # finished just now
        make_game(classroom, kid, key="multiplication", finished_at=last_week)
        if i in RULES:  # five moves the rules refused, in one game of today
            game, moves = make_game(classroom, kid, moves=6)
            for move in moves[:5]:
                evidence(move, kid, "all.rule_errors", missed=True, detail="not_in_hand")
        if i < PLAYING:
            make_game(classroom, kid, key="multiplication" if i % 3 else "smooth_operator",
                      status=Game.Status.ACTIVE)
    # The class's own rows: all time, and last week beside this week (its trend).
    student_rows = SkillRollup.objects.filter(classroom=classroom, scope=SkillRollup.Scope.STUDENT,
                                              week__isnull=True)
    totals: dict[tuple[str, str], list[int]] = {}
    for measure, detail, misses, chances in student_rows.values_list("measure", "detail", "misses", "chances"):
        total = totals.setdefault((measure, detail), [0, 0])
        total[0], total[1] = total[0] + misses, total[1] + chances
    for (measure, detail), (misses, chances) in totals.items():
        if measure != "all.think_time":
            rollup(classroom, measure, detail=detail, chances=chances, misses=misses)
            if not detail:
                rollup(classroom, measure, week=weeks_ago(1), chances=chances // 2, misses=misses // 2 + 20)
                rollup(classroom, measure, week=this_monday(), chances=chances // 2, misses=misses // 2)
    Assignment.objects.create(classroom=classroom, title="Times tables race", game="multiplication",
                              opponents="bots", bot_level="expert", bot_count=1, goal_count=2)
    Assignment.objects.create(classroom=classroom, title="Smooth Operator warm-up", game="smooth_operator",
                              opponents="bots", bot_level="expert", bot_count=1)
    report_flags.refresh(classroom_id=classroom.pk)
    return students


# ----- reading the screen -------------------------------------------------------------------------

# The words inside the window as it is (a text whose every line is inside it), in page order.
# Closed sections have no boxes; words hidden for screen readers only (1 px) are left out.
FIRST_SCREEN_JS = """
() => {
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  const words = [];
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.replace(/\\s+/g, ' ').trim();
    // A closed <details> keeps its content laid out but not shown (content-visibility).
    if (!text || !walker.currentNode.parentElement.checkVisibility({visibilityProperty: true})) continue;
    const range = document.createRange();
    range.selectNodeContents(walker.currentNode);
    const lines = [...range.getClientRects()].filter((r) => r.width > 1 && r.height > 1);
    if (lines.length && lines.every((r) => r.top >= 0 && r.bottom <= window.innerHeight
                                          && r.left >= 0 && r.right <= window.innerWidth)) words.push(text);
  }
  return words.join(' ');
}
"""

# Every element of the dashboard that CSS moves out of its page order (docs: keyboard and
# screen-reader order is the order seen).
MOVED_JS = """
() => [...document.querySelectorAll('main *')].filter((el) => {
  const s = getComputedStyle(el);
  return s.order !== '0' || s.flexDirection.endsWith('reverse') || s.gridRowStart !== 'auto'
         || s.gridColumnStart !== 'auto' || s.gridTemplateAreas !== 'none' || s.float !== 'none'
         || s.position === 'fixed';
}).map((el) => window.__journeyPath(el))
"""

# The boxes of the first screen's parts, and of the "Needs help" cells, in page order (those shown).
BOXES_JS = """
(selector) => [...document.querySelectorAll(selector)].filter((el) => el.checkVisibility()).map((el) => {
  const r = el.getBoundingClientRect();
  return {id: el.id, top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, left: r.left, right: r.right};
})
"""


def first_screen(page) -> str:
    return page.evaluate(FIRST_SCREEN_JS)


def height(page) -> int:
    return page.evaluate("() => document.documentElement.scrollHeight")


def open_dashboard(browser, live_daphne, teacher, classroom, viewport):
    page = signed_in_page(browser, live_daphne, teacher, viewport)
    page.goto(live_daphne + reverse("reports:dashboard", args=[classroom.pk]))
    # Live: the socket's first push has re-drawn every part.
    expect(page.locator("#dash-connection")).to_contain_text("Live: this page updates by itself")
    page.evaluate("document.fonts.ready.then(() => true)")
    page.evaluate(PATH_JS)
    return page


def reading_order_problems(page) -> list[str]:
    """Where what is seen does not follow the page's order."""
    rtl = page.evaluate("() => getComputedStyle(document.documentElement).direction") == "rtl"
    problems = [f"moved by CSS: {path}" for path in page.evaluate(MOVED_JS)]
    parts = page.evaluate(BOXES_JS, "#dash-summary, #dash-now, #dash-alerts, .dash-more-list")
    for above, below in zip(parts, parts[1:]):
        if below["top"] < above["bottom"] - 1:
            problems.append(f"#{below['id'] or 'the details'} is not below #{above['id']}")
    cells = page.evaluate(BOXES_JS, "#dash-alerts .help-who")
    for before, after in zip(cells, cells[1:]):
        same_row = abs(after["top"] - before["top"]) < 2
        further = after["right"] <= before["left"] + 1 if rtl else after["left"] >= before["right"] - 1
        if not ((same_row and further) or after["top"] >= before["bottom"] - 1):
            problems.append(f"the card of {after['id']} is seen before that of {before['id']}")
    return problems


def tab_walk(page, start, stops: int) -> list[str]:
    """From `start`, the parts (and Needs help cells) Tab reaches, each once, in order."""
    page.bring_to_front()
    start.focus()
    reached: list[str] = []
    for _ in range(stops):
        page.keyboard.press("Tab")
        where = page.evaluate("""() => {
          const el = document.activeElement;
          const cell = el.closest('.help-who, #dash-help-more, #dash-summary, #dash-now, .dash-more');
          return cell ? cell.id : (el.closest('footer') ? 'footer' : el.tagName);
        }""")
        if not reached or reached[-1] != where:
            reached.append(where)
    return reached


# ----- 1. a class of 30 with flags ------------------------------------------------------------------

def test_a_class_of_30_in_a_lesson_sees_who_needs_help_and_who_plays_on_the_first_screen(
        browser, live_daphne, teacher, classroom, make_student):
    students = class_of_30(classroom, make_student)
    groups = help_groups(needs_help(classroom=classroom))
    reasons = set(NeedsHelpFlag.objects.filter(classroom=classroom).values_list("reason", flat=True))
    assert len(groups) == 8 and reasons == {"miss_rate", "rule_errors", "operation", "fact"}, (groups, reasons)
    shown, more = groups[:HELP_SHOWN], groups[HELP_SHOWN:]
    not_playing = sorted(s.display_name for s in students[PLAYING:])

    page = open_dashboard(browser, live_daphne, teacher, classroom, LAPTOP)
    keep_screenshot(page, "dashboard-30-1440")
    seen = first_screen(page)
    # The class in one line.
    for words in (f"Today: {TODAY} games", f"This week: {TODAY} games (last week: 30)",
                  "30 of 30 students played this week", "Skills since last week"):
        assert words in seen, (words, seen)
    # Who is playing: counted, and the few who are not, by name.
    assert f"Playing now {PLAYING} of 30 students are playing." in seen, seen
    assert f"Not playing now: {', '.join(not_playing[:-1])} and {not_playing[-1]}." in seen, seen
    # Needs help: the students' cards, each with its numbers and the link to the moves behind them.
    assert "Needs help" in seen
    for group in shown[:3]:  # the first row of cards
        assert f"! {group.display_name}" in seen, (group.display_name, seen)
    first_card = page.locator(f"#dash-help-{shown[0].student.pk} .flag").first
    expect(first_card.get_by_role("link", name=f"See the ")).to_be_visible()
    assert first_card.bounding_box()["y"] + first_card.bounding_box()["height"] <= LAPTOP["height"]
    # The rest of the class's flags are named, one click away; the details are closed.
    expect(page.locator("#dash-help-more > summary")).to_have_text(
        f"{len(more)} more students need help: {more[0].display_name} and {more[1].display_name}")
    assert "Whole class" not in seen and "Class trends by week" in page.locator(".dash-more-list").inner_text()
    # At most two screens tall, for 30 students.
    tall = height(page)
    print(f"class of 30 at 1440 px: {tall} px")
    assert tall <= TWO_SCREENS, f"the dashboard of a class of 30 is {tall} px tall at 1440 px"
    assert reading_order_problems(page) == []
    # Tab walks the first screen in the order it is seen: the summary, who plays, each student's
    # card row by row, the students after them, then the details.
    walked = tab_walk(page, page.get_by_role("link", name="Downloads"), 40)
    expected = (["dash-summary", "dash-now"] + [f"dash-help-{g.student.pk}" for g in shown]
                + ["dash-help-more"] + [f"dash-more-{n}" for n in ("skills", "operations", "totals")])
    assert walked[:len(expected)] == expected, walked

    # Live as before: a student who starts a game is counted without a reload, and the list of
    # who plays which game the teacher opened stays open (the part is morphed, not replaced).
    open_sections(page)  # every section, and "Who plays which game" too
    page.locator("#dash-now-who > summary").click()
    expect(page.locator("#dash-now-who")).to_have_attribute("open", "")
    idle = next(s for s in students[PLAYING:] if s.display_name == not_playing[0])
    child = signed_in_page(browser, live_daphne, idle)
    child.goto(live_daphne + reverse("classroom:student_home"))
    child.get_by_role("button", name="Play The Multiplication Game").click()
    child.wait_for_url("**/game/*/")
    expect(page.locator("#dash-now")).to_contain_text(f"{PLAYING + 1} of 30 students are playing.")
    expect(page.locator("#dash-now-who")).to_have_attribute("open", "")
    expect(page.locator("#dash-now-who").get_by_role("link", name=f"Watch {idle.display_name}'s game")).to_be_visible()
    expect(page.locator("#dash-more-skills")).to_have_attribute("open", "")
    child.context.close()

    # On a phone (one more student playing now): the same three answers before any scrolling.
    phone = open_dashboard(browser, live_daphne, teacher, classroom, PHONE)
    keep_screenshot(phone, "dashboard-30-390")
    seen = first_screen(phone)
    for words in (f"Today: {TODAY} games", "Playing now", f"{PLAYING + 1} of 30 students are playing.",
                  "Needs help", f"! {shown[0].display_name}"):
        assert words in seen, (words, seen)
    print(f"class of 30 at 390 px: {height(phone)} px")
    assert reading_order_problems(phone) == []


def axe_problems(page, state: str) -> list[str]:
    """axe-core's violations on the page as it is now, at 390, 1280 and 1920 px."""
    add_axe(page)
    problems = []
    for width, tall in AXE_WIDTHS.items():
        page.set_viewport_size({"width": width, "height": tall})
        problems += [f"{state} at {width} px: {line}" for line in axe_lines(run_axe(page))]
    return problems


def test_the_dashboard_passes_axe_and_fits_a_phone_in_spanish_and_arabic(
        browser, live_daphne, teacher, classroom, make_student):
    class_of_30(classroom, make_student)
    page = open_dashboard(browser, live_daphne, teacher, classroom, LAPTOP)
    problems = axe_problems(page, "as first shown")
    assert problems == [], "\n".join(problems)
    page.context.close()

    for language in ("es", "ar"):
        User.objects.filter(pk=teacher.pk).update(language=language)
        phone = signed_in_page(browser, live_daphne, teacher, PHONE)
        phone.goto(live_daphne + reverse("reports:dashboard", args=[classroom.pk]))
        phone.locator("#dash-connection span[aria-hidden]").wait_for()  # live: its socket pushed
        expect(phone.locator("html")).to_have_attribute("lang", language)
        phone.evaluate(PATH_JS)
        for state in ("as first shown", "with every section open"):
            if state != "as first shown":
                open_sections(phone)
            wide = phone.evaluate(SIDEWAYS_JS)
            keep_screenshot(phone, f"dashboard-30-390-{language}-{state.split()[0]}")
            assert wide["scrollWidth"] <= wide["width"], (language, state, wide)
            assert reading_order_problems(phone) == [], (language, state)
        phone.context.close()


# ----- 2. a class nobody needs help in -------------------------------------------------------------

def test_a_class_nobody_needs_help_in_says_so_and_why_on_the_first_screen(
        browser, live_daphne, teacher, classroom, make_student):
    kids = [make_student(classroom, name) for name in NAMES[:5]]
    for kid in kids:
        rollup(classroom, "so.lowest_operator", student=kid, chances=30, misses=2)
        make_game(classroom, kid)  # finished just now
        rollup(classroom, "mg.facts", student=kid, chances=20, misses=1)
    rollup(classroom, "so.lowest_operator", chances=150, misses=10)
    rollup(classroom, "mg.facts", chances=100, misses=5)
    Assignment.objects.create(classroom=classroom, title="Times tables race", game="multiplication",
                              opponents="bots", bot_level="expert", bot_count=1)
    make_game(classroom, kids[0], key="multiplication", status=Game.Status.ACTIVE)
    report_flags.refresh(classroom_id=classroom.pk)
    assert not NeedsHelpFlag.objects.filter(classroom=classroom).exists()

    for viewport in (LAPTOP, PHONE):
        page = open_dashboard(browser, live_daphne, teacher, classroom, viewport)
        keep_screenshot(page, f"dashboard-calm-{viewport['width']}")
        seen = first_screen(page)
        for words in ("Today: 5 games", "This week: 5 games (last week: 0)",
                      "5 of 5 students played this week",
                      f"Playing now The Multiplication Game: {kids[0].display_name}",
                      "Needs help Nobody needs help right now. In the games so far no student stands out"):
            assert words in seen, (viewport, words, seen)
    # Every section opened (a class this size keeps axe-core quick: the class of 30 is checked
    # as first shown, above).
    open_sections(page)
    problems = axe_problems(page, "with every section open")
    assert problems == [], "\n".join(problems)
