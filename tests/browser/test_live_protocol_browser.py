"""The live protocol (docs/live.md, static/js/live.js) in Chromium against the live Daphne, on
the game table, the teacher's dashboard and a student's arena page.

Playwright stands between the page and the server (`route_web_socket`), so the test decides
when the server's frames are lost and when the connection drops, and closes it as the server
does when Redis or the database is away (4013, "try again later"):
- reconnect: what changed while the page heard nothing shows once the page is back;
- resync: a page that missed a push and asks (`{"sync": version}`, sent when the page is
  looked at again) is sent everything, so it shows the change; without the stale check it
  would be sent only what changed since the lost push, which is nothing;
- resend: a move whose answer was lost in the drop is sent again on reconnect and counts once.
(The dashboard takes no moves, so it has nothing to resend; a move lost twice in a row, and a
table that asks after its move's answers were lost, are in test_socket_faults_browser.py.)

The test process's own channel layer does not reach the live server, so a change made here
reaches an open page only through the page's own socket: by reconnecting or by asking.
"""

import json
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from arena.models import ArenaPlayer
from arena.services import arena_create, arena_end, arena_join, arena_start
from games.models import Move
from reports.measures import all_measures
from reports.models import SkillRollup
from tests.browser.conftest import off_the_loop
from tests.browser.test_play_browser import click_mg_move, current, mg_move, signed_in_page, wait_for_version
from tests.browser.test_reports_browser import open_sections
from tests.browser.test_socket_faults_browser import is_move, open_free_game
from tests.reports.showing import rollup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Between:
    """Stands between a page and the server on every socket the page opens to `path`: lets
    everything through until told to drop the server's frames (`deaf`), counts what it
    dropped, and drops the connection with a close code on demand."""

    def __init__(self, page, path: str):
        self.deaf = False
        self.dropped = 0
        self.syncs: list[str] = []
        self.moves: list[str] = []
        self.now = None  # (page side, server side) of the open connection
        page.route_web_socket(re.compile(path), self._route)

    def _route(self, ws):
        server = ws.connect_to_server()
        self.now = (ws, server)

        def from_page(message):
            if isinstance(message, str) and '"sync"' in message:
                self.syncs.append(message)
            if is_move(message):
                self.moves.append(message)
            server.send(message)

        def from_server(message):
            if self.deaf:
                self.dropped += 1
                return
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    def drop(self, code: int = 4013) -> None:
        ws, server = self.now
        self.now = None
        ws.close(code=code, reason="test drop")
        server.close()


def wait_until(page, condition, timeout_ms: int = 20_000) -> None:
    """Let the page and the route run until `condition()` holds."""
    for _ in range(timeout_ms // 100):
        if condition():
            return
        page.wait_for_timeout(100)
    raise AssertionError("timed out waiting")


def looked_at_again(page) -> None:
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")


# ----- the game table -----------------------------------------------------------------------

def test_a_table_that_dropped_after_a_move_reconnects_resends_it_once_and_shows_the_game_now(
        browser, live_daphne, classroom, student):
    page = signed_in_page(browser, live_daphne, student)
    between = Between(page, r"/ws/game/\d+/")
    game_id = open_free_game(page, live_daphne)
    game = current(game_id)
    wait_for_version(page, game.version)
    between.deaf = True  # the move reaches the server, its answer and the computers' moves don't
    click_mg_move(page, mg_move(game, "Ann"))
    wait_until(page, lambda: Move.objects.filter(game_id=game_id, seat__name="Ann", accepted=True).exists())
    expect(page.locator("#table-board")).to_have_attribute("data-version", str(game.version))
    between.deaf = False
    between.drop(4013)
    expect(page.locator("[data-connection]")).to_have_text("Connected")
    wait_for_version(page, current(game_id).version)  # the game as it is now
    keys = {json.loads(m)["idempotency_key"] for m in between.moves}
    assert len(between.moves) == 2 and len(keys) == 1  # the same move, sent again on reconnect
    assert Move.objects.filter(game_id=game_id, seat__name="Ann", accepted=True).count() == 1


# ----- the teacher's dashboard ---------------------------------------------------------------

def open_dashboard(browser, live_daphne, teacher, classroom, student):
    measure = next(m for m in all_measures() if m.has_misses)
    rollup(classroom, measure.id, student=student, chances=20, misses=2)
    rollup(classroom, measure.id, chances=40, misses=4)
    desk = signed_in_page(browser, live_daphne, teacher)
    between = Between(desk, r"/ws/reports/class/\d+/")
    desk.goto(live_daphne + reverse("reports:dashboard", args=[classroom.pk]))
    expect(desk.locator("#dash-connection")).to_contain_text("Live: this page updates by itself")
    open_sections(desk, "skills")
    ann_row = desk.locator("#dash-skills tbody tr", has=desk.get_by_role("rowheader", name="Ann"))
    expect(ann_row).to_contain_text("missed 2 of 20")
    return desk, between, measure, ann_row


def test_a_dashboard_that_reconnects_shows_what_changed_while_it_was_away(
        browser, live_daphne, teacher, classroom, student):
    desk, between, measure, ann_row = open_dashboard(browser, live_daphne, teacher, classroom, student)
    # Changed where no push reaches the page (see the module's doc), then the socket drops.
    SkillRollup.objects.filter(classroom=classroom, student=student, measure=measure.id).update(chances=27, misses=5)
    desk.wait_for_timeout(500)
    expect(ann_row).to_contain_text("missed 2 of 20")
    between.drop(4013)
    expect(ann_row).to_contain_text("missed 5 of 27")  # sent whole on the new socket
    expect(desk.locator("#dash-connection")).to_contain_text("Live: this page updates by itself")


def test_a_dashboard_that_missed_a_push_asks_and_is_sent_everything(
        browser, live_daphne, teacher, classroom, student):
    desk, between, measure, ann_row = open_dashboard(browser, live_daphne, teacher, classroom, student)
    SkillRollup.objects.filter(classroom=classroom, student=student, measure=measure.id).update(chances=27, misses=5)
    between.deaf = True
    looked_at_again(desk)  # its answer, the new numbers, is lost on the way
    wait_until(desk, lambda: between.dropped >= 1)
    expect(ann_row).to_contain_text("missed 2 of 20")
    between.deaf = False
    looked_at_again(desk)  # the page says it shows an older push than the socket sent
    expect(ann_row).to_contain_text("missed 5 of 27")
    assert len(between.syncs) == 2 and between.syncs[0] == between.syncs[1]


# ----- a student's arena page ----------------------------------------------------------------

def waiting_in_an_arena(browser, live_daphne, teacher, classroom, student, make_student):
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    arena = off_the_loop(arena_create, teacher=teacher, classroom=classroom, title="Friday arena",
                         key="smooth_operator", options={"target": 200}, minutes=10, mode="points")
    for child in (student, ben):
        off_the_loop(arena_join, student=child, arena_id=arena.pk)
    page = signed_in_page(browser, live_daphne, student)
    between = Between(page, r"/ws/arena/\d+/me/")
    page.goto(live_daphne + f"/arena/{arena.pk}/play/")
    expect(page.get_by_role("status").filter(has_text="Waiting for your teacher to start")).to_be_visible()
    expect(page.locator("[data-connection]")).to_have_text("Connected")
    return page, between, arena


def seated(arena, student) -> bool:
    return ArenaPlayer.objects.filter(arena=arena, user=student, game__isnull=False).exists()


def start_while_deaf(page, between, arena, student):
    """The arena starts and the server's round seats Ann, while her page hears nothing."""
    between.deaf = True
    off_the_loop(arena_start, arena_id=arena.pk)
    wait_until(page, lambda: seated(arena, student) and between.dropped >= 1)
    page.wait_for_timeout(1500)  # the seating's own push, lost too
    expect(page.get_by_role("status").filter(has_text="Waiting for your teacher to start")).to_be_visible()
    between.deaf = False


def test_an_arena_page_that_reconnects_is_sent_to_the_table_it_was_given_meanwhile(
        browser, live_daphne, teacher, classroom, student, make_student):
    page, between, arena = waiting_in_an_arena(browser, live_daphne, teacher, classroom, student, make_student)
    try:
        start_while_deaf(page, between, arena, student)
        between.drop(4013)
        page.wait_for_url(re.compile(r"/game/\d+/$"), timeout=15_000)
    finally:
        off_the_loop(arena_end, arena_id=arena.pk, stop_games=True)


def test_an_arena_page_that_missed_a_push_asks_and_is_sent_to_its_table(
        browser, live_daphne, teacher, classroom, student, make_student):
    page, between, arena = waiting_in_an_arena(browser, live_daphne, teacher, classroom, student, make_student)
    try:
        start_while_deaf(page, between, arena, student)
        looked_at_again(page)
        page.wait_for_url(re.compile(r"/game/\d+/$"), timeout=15_000)
        assert between.syncs
    finally:
        off_the_loop(arena_end, arena_id=arena.pk, stop_games=True)
