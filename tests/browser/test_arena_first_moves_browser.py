"""The first move at a newly dealt arena table shows on the classmate's screen at once, in
Chromium.

Ann and Ben finish a game of the arena. Ann presses "Back to the arena" at once; Ben's page
shows the result for its moment (`Game.SERIES_RESULT_SECONDS`) and comes back by itself. The
server's next round seats them together again while Ben's result is still on screen. Ann, whose
turn it is first, moves as soon as her page shows the new table: Ben's page must show that move
within a second. (Sent to the table at once, Ann would move about two seconds before Ben's page
got there; she is sent when his page comes back to the arena, so both sit down together.)

The rounds are the live server's own (its ticker, tests/browser/conftest.py: a round every
second). The first game is played by the test through the move service up to its last move,
which Ben's or Ann's page makes, so both pages see the game end as it happens.
"""

import re

import pytest
from playwright.sync_api import expect

from arena.models import Arena
from arena.services import arena_create, arena_end, arena_join, arena_start
from games import engine as engines
from games.models import Game, PlayerRating
from games.services import game_apply_move

from tests.browser.conftest import off_the_loop
from tests.browser.test_play_browser import TIMEOUT, current, mg_move, signed_in_page, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KEY = "multiplication"
SHOWN_WITHIN_MS = 1000  # sent to the table at once, Ann was 1.8-2.7 s ahead of Ben's page here

# Run in each page before its own scripts: when the page sent a move, and when its board first
# showed each version (Date.now(): the same clock for both pages, no test-side delays counted).
TIMES = """
window.__shownAt = {};
document.addEventListener("htmx:wsConfigSend", () => { window.__sentAt = Date.now(); });
const seen = () => {
  const board = document.getElementById("table-board");
  if (board && !(board.dataset.version in window.__shownAt)) window.__shownAt[board.dataset.version] = Date.now();
};
document.addEventListener("DOMContentLoaded", seen);
document.addEventListener("htmx:wsAfterMessage", seen);
"""


def table_of(page) -> int:
    return int(re.search(r"/game/(\d+)/$", page.url).group(1))


def play_all_but_the_last_move(game_id: int) -> tuple[str, dict]:
    """Every move up to the one that ends the game, through the move service; that last one
    (whose player, and what) is returned for a page to make."""
    engine = engines.get(KEY)
    for _ in range(2000):
        game = current(game_id)
        name = engine.waiting_for(game.state)[0]
        action = mg_move(game, name)
        if engine.apply(game.state, name, action)[0].get("finished"):
            return name, action
        assert game_apply_move(game_id=game_id, seat=game.seats.get(name=name), action=action,
                               expected_version=game.version, schedule_bots=False).applied
    raise AssertionError("the game did not come to its end")


def choose_mg_move(page, action: dict):
    """Make the move's choices on the page; returns the button that sends it."""
    if action["type"] == "draw":
        return page.get_by_role("button", name="Draw a card instead")
    page.locator(f'#table-board input[name="act-card"][value="{action["card"]}"]').first.check()
    a, b = action["declare"]
    page.get_by_label("First multiplier").select_option(str(a))
    page.get_by_label("Second multiplier").select_option(str(b))
    return page.get_by_role("button", name="3. Put it down")


def test_the_first_move_at_a_new_arena_table_shows_on_the_classmate_s_screen_at_once(
        browser, live_daphne, teacher, classroom, student, make_student):
    ann, ben = student, make_student(classroom, "Ben", ("boat", "star", "apple"))
    # Seats go in rating order and the Multiplication Game starts with the first seat: Ann, the
    # one who hurries back, makes the first move at the new table.
    PlayerRating.objects.create(user=ann, key=KEY, rating=600, games=40)
    PlayerRating.objects.create(user=ben, key=KEY, rating=1400, games=40)
    arena = arena_create(teacher=teacher, classroom=classroom, title="Friday arena", key=KEY,
                         options={"hand_size": 4}, minutes=10, mode="points")
    pages = {}
    for child in (ann, ben):
        off_the_loop(arena_join, student=child, arena_id=arena.pk)
        page = pages[child.display_name] = signed_in_page(browser, live_daphne, child)
        page.context.add_init_script(TIMES)
        page.goto(live_daphne + f"/arena/{arena.pk}/play/")
        expect(page.locator("[data-connection]")).to_have_text("Connected")
    off_the_loop(arena_start, arena_id=arena.pk)
    for page in pages.values():
        page.wait_for_url(re.compile(r"/game/\d+/$"), timeout=TIMEOUT)
    first = table_of(pages["Ann"])
    assert table_of(pages["Ben"]) == first

    # The first game, up to its last move, which the page of the child whose turn it is makes.
    name, last = play_all_but_the_last_move(first)
    version = current(first).version
    for page in pages.values():
        page.goto(live_daphne + f"/game/{first}/")
        wait_for_version(page, version)
    choose_mg_move(pages[name], last).click()
    for page in pages.values():
        expect(page.get_by_text("Your next arena game is coming…")).to_be_visible()
    # Ann goes back at once; Ben's page shows the result for its moment, then comes back itself.
    pages["Ann"].get_by_role("link", name="Back to the arena").click()

    new_table = re.compile(rf"/game/(?!{first}/)\d+/$")
    pages["Ann"].wait_for_url(new_table, timeout=TIMEOUT)
    second = table_of(pages["Ann"])
    game = current(second)
    assert engines.get(KEY).waiting_for(game.state) == ["Ann"], "Ann should move first here"
    expect(pages["Ann"].locator("#table-status")).to_contain_text("Your turn")
    choose_mg_move(pages["Ann"], mg_move(game, "Ann")).click()
    pages["Ben"].wait_for_url(f"**/game/{second}/", timeout=TIMEOUT)
    wait_for_version(pages["Ben"], game.version + 1)
    sent = pages["Ann"].evaluate("() => window.__sentAt")
    shown = pages["Ben"].evaluate("(version) => window.__shownAt[version]", str(game.version + 1))
    assert shown - sent < SHOWN_WITHIN_MS, (
        f"Ann's first move at the new table showed on Ben's screen {shown - sent} ms after she made it")
    wait_for_version(pages["Ann"], game.version + 1)

    # The arena ends, and the game in play stops, before the database is flushed.
    off_the_loop(arena_end, arena_id=arena.pk, stop_games=True)
    arena.refresh_from_db()
    assert arena.status in (Arena.Status.FINISHING, Arena.Status.FINISHED)
    assert Game.objects.filter(pk=second).exclude(status=Game.Status.ACTIVE).exists()
