"""The class arena's projector and the teacher's desk in Chromium, in every state of an arena
(lobby, running, paused, ended early, finished) and in English, Spanish and Arabic:

- the projector fits the screen at 1024 x 768, 1280 x 720 and 1920 x 1080: nothing scrolls,
  nothing runs off the screen or out of its box (the clock's words, the join code, a name);
- the lobby shows who has joined (first name and initial); once finished, the podium (ties
  shown as ties), not the join code, fills the screen;
- on a phone (390 px) neither the projector nor the desk scrolls sideways;
- axe-core finds nothing on the projector at 390, 1280 and 1920, nor on the desk at 390;
- the clock stands still before the start (the desk and the projector agree), and after "End
  early" it says the arena was ended early, not that time is up.

The arena moves on by the teacher's buttons on the desk and the live server's own rounds
(tests/browser/conftest.py). Screenshots are kept as tests/browser/screenshots.py says (every
one in SCREENSHOT_DIR when it is set, otherwise those with problems) for a person to look at.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.translation.trans_real import DjangoTranslation
from playwright.sync_api import expect

from arena.models import Arena, ArenaPlayer
from arena.selectors import public_name
from arena.services import arena_create, arena_join
from tests.browser.conftest import off_the_loop
from tests.browser.languages import SIDEWAYS_JS, T
from tests.browser.screenshots import keep_screenshot, naming
from tests.browser.test_arena_browser import HOLD_LIVE, run_axe
from tests.browser.test_class_journey_browser import PATH_JS, add_axe, axe_lines
from tests.browser.test_play_browser import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TIMEOUT = 15_000
FIT = {1024: 768, 1280: 720, 1920: 1080}     # projectors: everything on one screen
AXE = {390: 844, 1280: 720, 1920: 1080}      # axe-core's widths
PHONE = {"width": 390, "height": 844}
# Eight children, one with a long first name and one written in Arabic letters.
NAMES = ["Ann Lee", "Ben Cho", "Cal Diaz", "Dee Ortiz", "Maximiliana Featherstonehaugh",
         "ليلى حسن", "Gus Reid", "Hal Wu"]
TIED = NAMES[:4]  # level in 1st at the end: one place, four names

# Everything the projector shows is on the screen, inside the live part (which clips what does
# not fit) and inside its own box (a box that clips on purpose, such as an ellipsis, is left
# alone); the page itself neither scrolls down nor across.
FITS_JS = """
() => {
  const w = document.documentElement.clientWidth, h = window.innerHeight, root = document.documentElement;
  const found = [];
  const live = document.getElementById('arena-screen-live');  // it clips what does not fit
  const box = live.getBoundingClientRect();
  if (root.scrollWidth > w) found.push(`the page is ${root.scrollWidth}px wide`);
  if (root.scrollHeight > h) found.push(`the page is ${root.scrollHeight}px tall`);
  for (const el of document.querySelectorAll('main *')) {
    if (el.closest('.sr-only, svg') && el.tagName.toLowerCase() !== 'svg') continue;
    if (!el.checkVisibility({checkVisibilityCSS: true})) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.left < -0.5 || r.right > w + 0.5 || r.top < -0.5 || r.bottom > h + 0.5) {
      found.push(`${window.__journeyPath(el)} is off the screen (${Math.round(r.left)}..${Math.round(r.right)} x ` +
                 `${Math.round(r.top)}..${Math.round(r.bottom)})`);
    } else if (live && live !== el && live.contains(el) && (r.bottom > box.bottom + 0.5 || r.right > box.right + 0.5
               || r.left < box.left - 0.5)) {
      found.push(`${window.__journeyPath(el)} is cut off at the edge of the live part`);
    } else if (el.clientWidth && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible') {
      found.push(`${window.__journeyPath(el)} runs out of its box (${el.scrollWidth}px in ${el.clientWidth}px)`);
    }
    if (found.length >= 8) break;
  }
  return found;
}
"""


def settle(page) -> None:
    """Two animation frames: the layout at the new size (or after a push) is the one read."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def look_at_projector(page, what: str) -> list[str]:
    """What is wrong with the projector now: at each projector size something does not fit; at
    390 it scrolls sideways; at axe-core's widths what axe finds."""
    page.bring_to_front()
    page.evaluate(PATH_JS)
    add_axe(page)
    problems = []
    for width, height in sorted({**FIT, **AXE}.items()):
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        if width in FIT:
            here = [f"{what} at {width}x{height}: {line}" for line in page.evaluate(FITS_JS)]
        else:
            here = sideways(page, f"{what} at {width}px")
        if width in AXE:
            here += [f"{what} at {width}px: {line}" for line in axe_lines(run_axe(page))]
        shot = keep_screenshot(page, f"{what}-{width}", problems=here, full_page=False)
        problems += [problem + naming(shot) for problem in here]
    page.set_viewport_size({"width": 1920, "height": 1080})
    return problems


def sideways(page, what: str) -> list[str]:
    wide = page.evaluate(SIDEWAYS_JS)
    if wide["scrollWidth"] <= wide["width"]:
        return []
    return [f"{what} scrolls sideways ({wide['scrollWidth']}px in {wide['width']}px): "
            + ("; ".join(wide["outside"]) or "?")]


def look_at_desk(page, what: str) -> list[str]:
    """The teacher's page on a phone: no sideways scroll, and axe-core finds nothing."""
    page.bring_to_front()
    page.evaluate(PATH_JS)
    add_axe(page)
    page.evaluate(HOLD_LIVE, True)  # the live part is fetched again every 2 s: held meanwhile
    page.set_viewport_size(PHONE)
    settle(page)
    problems = sideways(page, what) + [f"{what}: {line}" for line in axe_lines(run_axe(page))]
    shot = keep_screenshot(page, what, problems=problems)
    problems = [problem + naming(shot) for problem in problems]
    page.evaluate(HOLD_LIVE, False)
    page.set_viewport_size({"width": 1280, "height": 720})
    return problems


def press(desk, action: str) -> None:
    """Press the desk's button that posts to this control (start, pause, end), whatever the
    page's language; "End early…" and "Stop the games…" open their question first."""
    form = desk.locator(f'form[action$="/{action}/"]').first
    details = desk.locator("details.arena-end", has=form)
    if details.count():
        details.locator("summary").click()
    with desk.expect_navigation():
        form.locator('button[type="submit"]').click()


def clock_words(language: str, words: str) -> str:
    """The clock's words (static/js/arena.js, "the arena's clock") in the page's language."""
    if language == "en":
        return words
    said = DjangoTranslation(language, domain="djangojs").pgettext("the arena's clock", words)
    assert said != words, f"{words!r} has no {language} translation in the catalogue"
    return said


def projector_status(screen, status: str) -> None:
    screen.locator(f'#arena-screen-live[data-status="{status}"]').wait_for(timeout=TIMEOUT)


@pytest.mark.parametrize("language", ["en", "es", "ar"])
def test_the_projector_fits_and_passes_axe_in_every_state(
        browser, live_daphne, teacher, classroom, make_student, language):
    base = live_daphne
    teacher.language = language
    teacher.save(update_fields=["language"])
    arena = arena_create(teacher=teacher, classroom=classroom, title="Friday arena",
                         key="smooth_operator", options={"target": 200}, minutes=12,
                         mode=Arena.Mode.POINTS)
    for n, name in enumerate(NAMES):
        off_the_loop(arena_join, student=make_student(classroom, name, ("cat", "sun", "tree")), arena_id=arena.pk)
    desk = signed_in_page(browser, base, teacher, {"width": 1280, "height": 720})
    desk.goto(base + reverse("arena:control", args=[arena.pk]))
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    screen.set_default_timeout(TIMEOUT)
    screen.context.add_cookies(desk.context.cookies())
    screen.goto(base + reverse("arena:screen", args=[arena.pk]))
    problems: list[str] = []

    # The lobby: who has joined, by first name and initial, the latest first.
    joined = screen.locator(".screen-joined li")
    expect(joined).to_have_text([public_name(name) for name in reversed(NAMES)])
    assert "Featherstonehaugh" not in screen.locator("main").inner_text()
    problems += look_at_projector(screen, f"{language} projector lobby")
    problems += look_at_desk(desk, f"{language} desk lobby")

    # Running: everyone is seated by the server's next round; points come in.
    press(desk, "start")
    projector_status(screen, "running")
    expect(screen.locator(".screen-counts strong").first).to_have_text(str(len(NAMES)))
    for n, name in enumerate(NAMES):
        ArenaPlayer.objects.filter(arena=arena, user__display_name=name).update(
            points=4 if name in TIED else 2 if n < 6 else 0, wins=2 if name in TIED else 1 if n < 6 else 0,
            games=2, losses=0 if name in TIED else 1 if n < 6 else 2, streak=2 if n < 2 else 0)
    expect(screen.locator(".screen-top li")).to_have_count(5)  # the next round's push
    problems += look_at_projector(screen, f"{language} projector running")
    problems += look_at_desk(desk, f"{language} desk running")

    press(desk, "pause")
    projector_status(screen, "paused")
    problems += look_at_projector(screen, f"{language} projector paused")

    # Ended early while the games are played: the last games finish.
    press(desk, "end")
    projector_status(screen, "finishing")
    ended = clock_words(language, "Ended early")
    expect(screen.locator("[data-arena-clock]")).to_have_text(ended)
    expect(desk.locator("[data-arena-clock]")).to_have_text(ended)
    problems += look_at_projector(screen, f"{language} projector ended early")

    # Finished: the podium fills the screen, the four level in 1st on one place.
    press(desk, "end")  # "Stop the games still playing"
    projector_status(screen, "finished")
    steps = screen.get_by_role("list", name=T(language, "Podium") if language != "en" else "Podium").locator(":scope > li")
    expect(steps).to_have_count(1)
    expect(steps.first.locator(".podium-names li")).to_have_text([public_name(n) for n in TIED])
    problems += look_at_projector(screen, f"{language} projector finished")
    problems += look_at_desk(desk, f"{language} desk finished")
    assert not problems, "\n".join(problems)
    expect(screen.locator(".screen-code")).to_be_hidden()
    expect(screen.locator(".screen-qr")).to_be_hidden()
    podium = screen.locator(".podium").bounding_box()
    assert podium["width"] > 0.8 * 1920 and podium["height"] > 0.3 * 1080, podium


def test_the_clock_stands_still_until_the_start_and_says_when_the_arena_was_ended_early(
        browser, live_daphne, teacher, classroom, make_student):
    base = live_daphne
    arena = arena_create(teacher=teacher, classroom=classroom, title="Friday arena",
                         key="smooth_operator", options={"target": 200}, minutes=12,
                         mode=Arena.Mode.POINTS)
    for name in NAMES[:2]:
        off_the_loop(arena_join, student=make_student(classroom, name), arena_id=arena.pk)
    desk = signed_in_page(browser, base, teacher, {"width": 1280, "height": 720})
    screen = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    screen.set_default_timeout(TIMEOUT)
    screen.context.add_cookies(desk.context.cookies())
    for page in (desk, screen):
        page.clock.install()  # the pages' own clock: moved on by the test, not by waiting
    desk.goto(base + reverse("arena:control", args=[arena.pk]))
    screen.goto(base + reverse("arena:screen", args=[arena.pk]))
    clocks = [page.locator("[data-arena-clock]") for page in (desk, screen)]
    for clock in clocks:
        expect(clock).to_have_text("12:00")
    for page in (desk, screen):
        page.clock.run_for(5_000)
    for page, clock in zip((desk, screen), clocks):
        expect(clock).to_have_text("12:00")
        expect(page.locator("[data-arena-clock-status]")).to_have_text("Not started yet.")

    # Started, the clock counts down.
    press(desk, "start")
    projector_status(screen, "running")
    expect(screen.locator(".screen-counts strong").first).to_have_text("2")  # both seated
    screen.clock.run_for(3_000)
    expect(clocks[1]).to_have_text(re.compile(r"^11:5\d$"))

    # Ended early: both say so (the games still being played then finish).
    press(desk, "end")
    projector_status(screen, "finishing")
    for page in (desk, screen):
        expect(page.locator("[data-arena-clock]")).to_have_text("Ended early")
        expect(page.locator("[data-arena-clock-status]")).to_have_text(
            "The teacher ended the arena: the last games are finishing.")
    assert "Time's up" not in desk.locator("main").inner_text()
    press(desk, "end")  # stop the last games: the arena is over, no round left running
    projector_status(screen, "finished")


def test_a_big_class_fits_the_projector_too(browser, live_daphne, teacher, classroom, make_student):
    """Forty children with long names: the lobby names the latest thirty and counts the rest;
    at the end, 1st, 2nd and thirty-eight sharing 3rd. Everything still fits each screen."""
    arena = arena_create(teacher=teacher, classroom=classroom, title="Friday morning arena for 5B and 6A",
                         key="smooth_operator", options={"target": 200}, minutes=12,
                         mode=Arena.Mode.POINTS)
    for n in range(40):
        off_the_loop(arena_join, student=make_student(classroom, f"Maximiliana{n:02d} Featherstonehaugh"),
                     arena_id=arena.pk)
    screen = signed_in_page(browser, live_daphne, teacher, {"width": 1920, "height": 1080})
    screen.goto(live_daphne + reverse("arena:screen", args=[arena.pk]))
    expect(screen.locator(".screen-joined li")).to_have_count(31)  # thirty names and "and 10 more"
    expect(screen.locator(".screen-joined li").last).to_have_text("and 10 more")
    problems = look_at_projector(screen, "a big lobby")

    players = list(arena.players.order_by("id"))
    ArenaPlayer.objects.filter(pk=players[0].pk).update(points=9, wins=4, games=4)
    ArenaPlayer.objects.filter(pk=players[1].pk).update(points=8, wins=4, games=4)
    ArenaPlayer.objects.filter(pk__in=[p.pk for p in players[2:]]).update(points=6, wins=3, games=4, losses=1)
    Arena.objects.filter(pk=arena.pk).update(status=Arena.Status.FINISHED)  # no round runs after
    screen.reload()
    steps = screen.locator(".podium > li")
    expect(steps).to_have_count(3)
    expect(steps.nth(2).locator(".podium-names li").last).to_have_text("and 28 more")
    problems += look_at_projector(screen, "a big tie")
    assert not problems, "\n".join(problems)


def test_a_child_who_joins_while_the_projector_is_up_appears_on_it(
        require_redis, browser, live_daphne, teacher, classroom, make_student):
    """A join the test makes itself, as a request would (`off_the_loop`), reaches the projector
    already listening: its push after commit is sent, not lost to the test's event loop. (A
    push from the test's process reaches the live server's sockets through Redis: the
    in-memory channel layer is the process's own.)"""
    arena = arena_create(teacher=teacher, classroom=classroom, title="Friday arena",
                         key="smooth_operator", options={"target": 200}, minutes=12,
                         mode=Arena.Mode.POINTS)
    screen = signed_in_page(browser, live_daphne, teacher, {"width": 1280, "height": 720})
    with screen.expect_websocket() as opened:
        screen.goto(live_daphne + reverse("arena:screen", args=[arena.pk]))
    opened.value.wait_for_event("framereceived")  # the screen it is sent on connect: it listens
    expect(screen.locator(".screen-h")).to_have_text("0 players have joined")
    off_the_loop(arena_join, student=make_student(classroom, "Ann Lee"), arena_id=arena.pk)
    expect(screen.locator(".screen-h")).to_have_text("1 player has joined")
    expect(screen.locator(".screen-joined li")).to_have_text([public_name("Ann Lee")])
