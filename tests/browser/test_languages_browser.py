"""Numberdeck in Spanish and in Arabic, in Chromium (docs/i18n.md).

1. A child plays a whole game of each kind, in Spanish and in Arabic, against computer players
   (Numero Solitaire alone), by clicking on the table, to the finished table. The Spanish child
   chooses "Español" with the switcher on their home page; the Arabic child's class is in
   Arabic (their teacher chose it). Each page says its language and direction on <html>; the
   table's own words (the connection line from static/js, the results) are the catalogues'
   words; in Arabic, the number cards in a hand and the multiplication's equation still read
   left to right (`reads_left_to_right`, which 3 runs on every table in play, Smooth
   Operator's sums included); the finished table does not scroll sideways at 390, 1024 or
   1440 px.
2. A teacher switches to Arabic with the footer's switcher, reads the class's skill reports
   (the dashboard), a student's page and report, and downloads the parents' PDF: its text has
   Arabic letters (shaped: classroom/pdf_text.py).
3. In Spanish and in Arabic, at 390, 1024 and 1440 px: axe-core finds nothing and no page
   scrolls sideways, on the home page, the student's home, a table in play of each game, a
   finished table, the teacher's class page, the dashboard, a student's report and the
   student's arena page; and the arena's projector screen at 1024 and 1440 px (it is a big
   screen's page: nobody shows it on a phone).
4. With SCREENSHOT_DIR set, each page of 3 and each finished table of 1 is saved there at 390
   and 1440 px (<language>-<page>-<width>.png; 1's are played-<game>-finished), to be looked at;
   without it, a width with problems is (tests/browser/screenshots.py).

Translations are never written here: every phrase checked is the catalogues' translation of
its English msgid, read at run time (tests/browser/languages.py `T`), so a better wording does
not break a test, and a msgid without a translation fails naming it.

The class of test_class_journey_browser.py (its games in play and finished, reports and arena)
is built once for the module and shared, as that module does; the players of 1 are new
students of two classes of their own, made in the same database.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect
from pypdf import PdfReader

from accounts.models import User
from accounts.services import student_create, teacher_sign_up
from classroom.models import Assignment, Classroom
from games import registry
from games.models import Game
from tests.browser.conftest import off_the_loop
from tests.browser.languages import (SIDEWAYS_JS, T, html_is_in, play_to_the_end, socket_open,
                                     version_at_least)
from tests.browser.screenshots import keep_screenshot, naming
from tests.browser.test_arena_browser import run_axe
from tests.browser.test_class_journey_browser import (PATH_JS, WIDTHS, World, add_axe, axe_lines, build_world,
                                                      transactional_db)
from tests.browser.test_play_browser import signed_in_page

pytestmark = [pytest.mark.browser]

__all__ = ["transactional_db"]  # the journey's: one database for the module, emptied at its end

TIMEOUT = 15_000
LANGUAGES = ("es", "ar")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SHOT_WIDTHS = (390, 1440)
ARABIC = re.compile(r"[\u0600-\u06FF\uFB50-\uFDFF\uFE70-\uFEFF]")  # letters, and their shaped forms


@pytest.fixture(scope="module")
def world(live_daphne, transactional_db) -> World:
    return off_the_loop(build_world)


# ----- 1. a whole game of each kind --------------------------------------------------------------
# Each game at its quickest: (options, computer players).
QUICK = {"smooth_operator": ({"target": 100}, 1), "add_or_multiply": ({"rounds": 1}, 2),
         "numero": ({"max_number": 10}, 1), "numero_solitaire": ({"max_number": 10}, 0),
         "multiplication": ({"hand_size": 3}, 1)}
CHILDREN = {"es": dict(zip(QUICK, ["Lucía", "Mateo", "Valentina", "Diego", "Camila"])),
            "ar": dict(zip(QUICK, ["عمر", "ليلى", "يوسف", "مريم", "كريم"]))}


@pytest.fixture(scope="module")
def play_classes(live_daphne, transactional_db) -> dict[str, Classroom]:
    """Two classes with an assignment of each game: one left to each child's browser (the
    Spanish children choose for themselves), one whose teacher chose Arabic."""
    def make():
        teacher = teacher_sign_up(name="Mr Haddad", email="haddad@school.test", password="correct-horse-42")
        classes = {}
        for language, name, code in (("es", "Class 6A", "DEF567"), ("ar", "Class 6B", "GHJ892")):
            classroom = Classroom.objects.create(name=name, owner=teacher, join_code=code,
                                                 language="ar" if language == "ar" else "")
            classroom.teachers.add(teacher)
            for key, (options, bots) in QUICK.items():
                Assignment.objects.create(classroom=classroom, title=f"{key} quick", game=key, options=options,
                                          opponents="bots", bot_level="beginner", bot_count=bots,
                                          created_by=teacher)
            classes[language] = classroom
        return classes
    return off_the_loop(make)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", list(QUICK))
def test_a_child_plays_a_whole_game_in_their_language(browser, live_daphne, play_classes, key, language):
    classroom = play_classes[language]
    name = CHILDREN[language][key]
    child = off_the_loop(lambda: student_create(classroom=classroom, display_name=name,
                                             picture_password=["cat", "sun", "tree"]))
    assignment = Assignment.objects.get(classroom=classroom, game=key)
    page = signed_in_page(browser, live_daphne, child, PHONE if language == "ar" else DESKTOP)
    page.goto(live_daphne + reverse("classroom:student_home"))
    switcher = page.locator("main .language-switcher")
    if language == "es":
        # Her class has no language: her browser's English, until she chooses on her home page.
        html_is_in(page, "en")
        with page.expect_navigation():
            switcher.get_by_role("button", name="Español", exact=True).click()
        child.refresh_from_db()
        assert child.language == "es"  # kept on her account: it lasts across sign-ins
    html_is_in(page, language)
    expect(switcher.locator(f'button[value="{language}"]')).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("heading", level=1)).to_have_text(T(language, "Hi %(name)s!") % {"name": name})

    page.locator(f'main a[href="{reverse("classroom:assignment_start", args=[assignment.pk])}"]').click()
    html_is_in(page, language)
    page.get_by_role("button", name=T(language, "Start the game")).click()
    page.wait_for_url(re.compile(r"/game/\d+/$"))
    game_id = int(page.url.rstrip("/").split("/")[-1])
    html_is_in(page, language)
    socket_open(page)
    expect(page.locator("[data-connection]")).to_have_text(T(language, "Connected", domain="djangojs"))
    if language == "ar" and key in ("multiplication", "numero", "numero_solitaire"):
        version_at_least(page, 0)
        assert reads_left_to_right(page, key) == []  # (Smooth Operator's sums: in 3, mental maths on)

    game = play_to_the_end(page, game_id, name)
    assert game.status == Game.Status.FINISHED
    version_at_least(page, game.version)
    html_is_in(page, language)
    won = game.seats.filter(name=name, is_winner=True).exists()
    expect(page.locator("#results-title")).to_have_text(T(language, "You won!" if won else "Game over"))
    expect(page.locator(".results-table thead")).to_contain_text(T(language, "Player"))
    expect(page.get_by_role("link", name=T(language, "Watch the replay"))).to_be_visible()
    # The finished table of every game fits each width (axe-core reads one of them, in 3).
    problems = look_at(page, f"played-{key}-finished", language, WIDTHS, axe=False)
    assert not problems, "\n".join(problems)


# Is an element's first character drawn left of its last one (does "12 + 4 =" show as written)?
FIRST_CHARACTER_LEFTMOST_JS = """
(el) => {
  const text = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    for (let i = 0; i < node.length; i++) if (node.data[i].trim()) text.push([node, i]);
  }
  if (text.length < 2) return true;
  const at = ([node, i]) => { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
                              return r.getBoundingClientRect().left; };
  return at(text[0]) < at(text[text.length - 1]);
}
"""


def reads_left_to_right(page, what: str) -> list[str]:
    """On a right-to-left page, what a child reads as sums still reads left to right, like the
    cards in their hands: a hand of number cards (first card leftmost), The Multiplication
    Game's "? × ?", Smooth Operator's high and low cards ("12" then "4", as its questions say
    "12 + 4") and a mental-maths question with its answer box after the "=" ("12 + 4 = ▢").
    What reads the wrong way, in words."""
    board = page.locator("#table-board")
    wrong = [f"{what}: a hand of number cards runs right to left"
             for hand in board.locator(".mg-board .hand, .nm-hand, .nm-item-cards").all()
             if hand.evaluate("el => getComputedStyle(el).direction") != "ltr"]
    for asked in board.locator(".mm-ask").all():
        if asked.is_visible():
            label = asked.locator(".mm-question")
            said = label.inner_text().strip()
            if not label.evaluate(FIRST_CHARACTER_LEFTMOST_JS):
                wrong.append(f"{what}: the question {said!r} shows right to left, \"= ... {said.split()[0]}\"")
            question, answer = label.bounding_box(), asked.locator("input").bounding_box()
            if answer["x"] < question["x"] + question["width"] - 1:
                wrong.append(f"{what}: the answer box comes before the question {said!r} (\"▢ = ...\")")
    for left, right, said in (("#mg-a", "#mg-b", "The Multiplication Game's first multiplier is right of the second"),
                              (".so-flip .card-high", ".so-flip .card-low",
                               "Smooth Operator's high card is right of the low card")):
        if board.locator(left).count() and board.locator(right).count():
            a, b = board.locator(left).first.bounding_box(), board.locator(right).first.bounding_box()
            if a["x"] >= b["x"]:
                wrong.append(f"{what}: {said}")
    return wrong


# ----- 2. a teacher in Arabic -------------------------------------------------------------------
def test_a_teacher_reads_the_reports_in_arabic_and_downloads_the_parents_pdf(browser, live_daphne, world):
    classroom = world.classroom
    teacher = classroom.owner
    User.objects.filter(pk=teacher.pk).update(language="")  # not chosen yet: English
    ann = User.objects.get(pk=world.ann_id)
    page = signed_in_page(browser, live_daphne, teacher, DESKTOP)
    page.goto(live_daphne + reverse("classroom:class_detail", args=[classroom.pk]))
    html_is_in(page, "en")
    with page.expect_navigation():
        page.locator("footer .language-switcher").get_by_role("button", name="العربية", exact=True).click()
    html_is_in(page, "ar")
    assert User.objects.get(pk=teacher.pk).language == "ar"
    expect(page.get_by_role("heading", name=T("ar", "Students and progress"))).to_be_visible()

    # The class's skill reports, live.
    page.get_by_role("link", name=T("ar", "Skill reports"), exact=True).click()
    page.wait_for_url(f"**{reverse('reports:dashboard', args=[classroom.pk])}")
    html_is_in(page, "ar")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        T("ar", "Skill reports: %(name)s") % {"name": classroom.name})
    page.locator("#dash-connection span[aria-hidden]").wait_for()  # live: its socket pushed

    # Ann's page (her passwords and class), from the class's roster.
    page.goto(live_daphne + reverse("classroom:class_detail", args=[classroom.pk]))
    page.locator("main").get_by_role("link", name=ann.display_name, exact=True).first.click()
    # The child's page is about one of her classes: `?class=` says which.
    page.wait_for_url(re.compile(re.escape(reverse("classroom:student_detail", args=[ann.pk])) + r"(\?class=\d+)?$"))
    html_is_in(page, "ar")
    expect(page.get_by_role("heading", name=T("ar", "Picture password"))).to_be_visible()

    # Her skill report, and the parents' PDF from it.
    page.goto(live_daphne + reverse("reports:student", args=[classroom.pk, ann.pk]))
    html_is_in(page, "ar")
    expect(page.get_by_role("heading", level=1)).to_have_text(ann.display_name)
    with page.expect_download() as download:
        page.get_by_role("link", name=T("ar", "Progress report for parents (PDF)")).click()
    pdf = PdfReader(io.BytesIO(Path(download.value.path()).read_bytes()))
    text = "\n".join(p.extract_text() or "" for p in pdf.pages)
    letters = ARABIC.findall(text)
    assert len(letters) >= 50, f"the parents' PDF in Arabic has {len(letters)} Arabic letters:\n{text[:500]}"
    assert ann.display_name in text


# ----- 3 and 4. every page fits, in both languages --------------------------------------------------
PAGES: list[tuple[str, str, object, str]] = [  # name, who, World -> path, what to wait for
    ("home", "visitor", lambda w: reverse("home"), ""),
    ("student-home", "student", lambda w: reverse("classroom:student_home"), ""),
    *[(f"table-{spec.key}", "student", lambda w, k=spec.key: reverse("games:game", args=[w.in_play[k]]), "socket")
      for spec in registry.all_games()],
    # One finished table: every game's is checked for sideways scrolling at the end of 1.
    ("finished-numero", "student", lambda w: reverse("games:game", args=[w.finished["numero"]]), "socket"),
    ("class", "teacher", lambda w: reverse("classroom:class_detail", args=[w.classroom.pk]), ""),
    ("dashboard", "teacher", lambda w: reverse("reports:dashboard", args=[w.classroom.pk]), "dashboard"),
    ("student-report", "teacher", lambda w: reverse("reports:student", args=[w.classroom.pk, w.ann_id]), ""),
    ("arena-student", "student", lambda w: reverse("arena:play", args=[w.arena_id]), "socket"),
    ("projector", "teacher", lambda w: reverse("arena:screen", args=[w.arena_id]), ""),
]


@pytest.fixture(scope="module")
def language_contexts(browser, live_daphne, world):
    """A browser context for each of the teacher, Ann and a visitor, in each language: the
    visitor's language is their cookie, the teacher's and Ann's their accounts' (set by each
    test: the tables' sockets render in the account's language)."""
    from django.conf import settings
    made = {}
    for language in LANGUAGES:
        for who, cookie in (("teacher", world.teacher_cookie), ("student", world.student_cookie), ("visitor", None)):
            context = browser.new_context()
            cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_daphne}]
            if cookie:
                cookies.append({"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_daphne})
            context.add_cookies(cookies)
            made[who, language] = context
    yield made
    for context in made.values():
        context.close()


def ready(page, wait: str) -> None:
    if wait == "socket":
        socket_open(page)
        if page.locator("#table-board").count():
            version_at_least(page, int(page.locator("#table-board").get_attribute("data-version")))
    elif wait == "dashboard":
        page.locator("#dash-connection span[aria-hidden]").wait_for(timeout=TIMEOUT)
    page.evaluate("document.fonts.ready.then(() => true)")


# The projector is a big screen's page: at 1024 and 1440 px only (a phone does not show it).
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name,who,path,wait", PAGES, ids=[p[0] for p in PAGES])
def test_the_page_fits_and_axe_finds_nothing(language_contexts, live_daphne, world, language, name, who, path, wait):
    User.objects.filter(pk__in=[world.ann_id, world.classroom.owner_id]).update(language=language)
    page = language_contexts[who, language].new_page()
    page.set_default_timeout(TIMEOUT)
    widths = {w: h for w, h in WIDTHS.items() if w >= 1024} if name == "projector" else WIDTHS
    try:
        response = page.goto(live_daphne + path(world))
        assert response is not None and response.status == 200, f"{name}: {response and response.status}"
        ready(page, wait)
        html_is_in(page, language)
        problems = []
        if language == "ar" and name.startswith("table-"):
            problems += reads_left_to_right(page, f"{language} {name}")
        problems += look_at(page, name, language, widths, axe=True)
    finally:
        page.close()
    assert not problems, "\n".join(problems)


def look_at(page, name: str, language: str, widths: dict[int, int], *, axe: bool) -> list[str]:
    """What is wrong with the page at each width (narrowed or widened in place: the CSS alone
    responds to the width): it scrolls sideways, and (axe) what axe-core finds. Its screenshot
    at 390 and 1440 px is kept as tests/browser/screenshots.py says."""
    page.evaluate(PATH_JS)
    if axe:
        add_axe(page)
    problems = []
    for width, height in sorted(widths.items()):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        here = []
        wide = page.evaluate(SIDEWAYS_JS)
        if wide["scrollWidth"] > wide["width"]:
            here.append(f"{language} {name} at {width}px scrolls sideways ({wide['scrollWidth']}px in "
                        f"{wide['width']}px): " + ("; ".join(wide["outside"]) or "?"))
        if axe:
            here += [f"{language} {name} at {width}px: {line}" for line in axe_lines(run_axe(page))]
        if width in SHOT_WIDTHS or here:
            shot = keep_screenshot(page, f"{language}-{name}-{width}", problems=here)
            here = [problem + naming(shot) for problem in here]
        problems += here
    return problems
