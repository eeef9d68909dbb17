"""The class arena in Arabic in Chromium (docs/i18n.md): the projector read from the back of the
room at 1280×720 and 1920×1080 runs right to left (the join code and QR code on the right, the
live part on the left; each row of the top five from its place on the right), its join code
still reads left to right, nothing scrolls, the clock's words come from the JavaScript
catalogue; a child's arena page on a phone does not scroll sideways. axe-core finds nothing.
With SCREENSHOT_DIR set, screenshots are saved there for a person to look at.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from arena.models import Arena, ArenaPlayer
from arena.services import arena_create, arena_end, arena_join, arena_start
from tests.browser.conftest import off_the_loop
from tests.browser.screenshots import keep_screenshot
from tests.browser.test_arena_browser import axe_problems
from tests.browser.test_play_browser import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TIMEOUT = 15_000
SCREENS = {1280: 720, 1920: 1080}
NAMES = ["Ann Lee", "Ben Cho", "Cal Diaz", "Dee Ortiz", "Eve Park", "Fin Quinn", "Gus Reid"]

NO_SCROLL = """() => {
  const root = document.documentElement;
  return {wide: root.scrollWidth - window.innerWidth, tall: root.scrollHeight - window.innerHeight};
}"""


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def test_the_projector_in_arabic_reads_right_to_left_without_scrolling(
        browser, live_daphne, teacher, classroom, make_student):
    base = live_daphne
    teacher.language = "ar"
    teacher.save(update_fields=["language"])
    arena = arena_create(teacher=teacher, classroom=classroom, title="Friday arena",
                         key="smooth_operator", options={"target": 200}, minutes=10,
                         mode=Arena.Mode.POINTS)
    for n, name in enumerate(NAMES):
        player = off_the_loop(arena_join, student=make_student(classroom, name), arena_id=arena.pk)
        # Resting: the server's rounds seat nobody once the arena runs (the rows stay put).
        ArenaPlayer.objects.filter(pk=player.pk).update(points=20 - 2 * n, games=5, wins=4 - n % 4,
                                                        streak=n % 4, status=ArenaPlayer.Status.RESTING)
    screen = signed_in_page(browser, base, teacher, {"width": 1280, "height": 720})
    screen.goto(base + reverse("arena:screen", args=[arena.pk]))
    expect(screen.locator("html")).to_have_attribute("dir", "rtl")
    expect(screen.locator("html")).to_have_attribute("lang", "ar")
    expect(screen.locator(".screen-joined li")).to_have_count(len(NAMES))
    # The clock's words come from /jsi18n/: not started yet, it says so in Arabic.
    expect(screen.locator("[data-arena-clock-status]")).to_have_text("لم تبدأ بعد.")
    try:
        off_the_loop(arena_start, arena_id=arena.pk)
        screen.reload()
        expect(screen.locator(".screen-h")).to_have_text("أفضل خمسة")
        look_at_the_top_five(screen)
    finally:
        off_the_loop(arena_end, arena_id=arena.pk, stop_games=True)  # no round of the server's left running


def look_at_the_top_five(screen) -> None:
    """At each projector size: nothing scrolls, the code and QR code are on the right and the
    code reads left to right, each row of the top five starts from its place on the right."""
    for width, height in SCREENS.items():
        screen.set_viewport_size({"width": width, "height": height})
        overflow = screen.evaluate(NO_SCROLL)
        assert overflow["wide"] <= 0 and overflow["tall"] <= 0, (width, overflow)
        join, side = box(screen, ".screen-join"), box(screen, ".screen-side")
        assert join["x"] > side["x"] + side["width"] - 1, (width, join, side)  # the code on the right
        qr = box(screen, ".screen-qr svg")
        assert qr["y"] + qr["height"] <= height and qr["x"] >= 0 and qr["x"] + qr["width"] <= width
        letters = [screen.locator(".screen-code span").nth(i).bounding_box()["x"] for i in range(6)]
        assert letters == sorted(letters), letters  # the code reads left to right, as typed
        row = screen.locator(".screen-top li").first
        place, name = row.locator(".place").bounding_box(), row.locator(".name").bounding_box()
        assert place["x"] > name["x"], (place, name)  # a row starts from its place, on the right
        keep_screenshot(screen, f"projector-ar-{width}", full_page=False)

    problems = axe_problems(screen, "the projector in Arabic")
    assert not problems, "\n".join(problems)


def test_a_child_s_arena_page_in_arabic_fits_a_phone(browser, live_daphne, teacher, classroom,
                                                      make_student):
    base = live_daphne
    classroom.language = "ar"
    classroom.save(update_fields=["language"])
    arena = arena_create(teacher=teacher, classroom=classroom, title="Friday arena",
                         key="smooth_operator", options={"target": 200}, minutes=10,
                         mode=Arena.Mode.POINTS)
    child = make_student(classroom, "Ann Lee")
    off_the_loop(arena_join, student=child, arena_id=arena.pk)
    page = signed_in_page(browser, base, child, {"width": 390, "height": 844})
    page.goto(base + reverse("arena:play", args=[arena.pk]))
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("#arena-me-live [role=status]")).to_have_text("ننتظر أن يبدأ معلّمك…")
    # The socket's own render (no middleware there) is in the class's language too.
    expect(page.locator("[data-connection]")).not_to_have_text("جارٍ الاتصال…", timeout=TIMEOUT)
    expect(page.locator("#arena-me-live [role=status]")).to_have_text("ننتظر أن يبدأ معلّمك…")
    overflow = page.evaluate(NO_SCROLL)
    assert overflow["wide"] <= 0, overflow
    keep_screenshot(page, "child-ar-390")
    problems = axe_problems(page, "a child's arena page in Arabic")
    assert not problems, "\n".join(problems)
