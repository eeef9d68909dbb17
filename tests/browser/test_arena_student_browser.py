"""A student's arena in Chromium: the arena page sends a seated child to their table, the
table's Leave question says that leaving loses, and a finished arena game's page goes back to
the arena by itself a few seconds later (static/js/app.js's data-go-after).

The rounds are the server's own (its ticker runs as in production: tests/browser/conftest.py)."""

import re

import pytest
from playwright.sync_api import expect

from arena.services import arena_create, arena_join, arena_start
from games import engine as engines
from games.models import Game
from games.services import game_apply_move

from tests.browser.conftest import off_the_loop
from tests.browser.test_play_browser import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def play_to_end(game: Game) -> Game:
    engine = engines.get(game.key)
    for _ in range(5000):
        game.refresh_from_db()
        if game.state["finished"]:
            return game
        name = engine.waiting_for(game.state)[0]
        action = engines.make_bot(game.key, "beginner", game.version).choose(engine.view(game.state, name))
        assert game_apply_move(game_id=game.pk, seat=game.seats.get(name=name), action=action,
                               expected_version=game.version, schedule_bots=False).applied
    raise AssertionError("game did not finish")


def test_a_child_is_seated_plays_and_is_taken_back_to_the_arena(
        browser, live_daphne, teacher, classroom, student, make_student):
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    arena = arena_create(teacher=teacher, classroom=classroom, title="Friday arena",
                         key="smooth_operator", options={"target": 200}, minutes=10, mode="points")
    ann_page = signed_in_page(browser, live_daphne, student)
    ann_page.goto(live_daphne + "/play/")
    ann_page.get_by_role("button", name=re.compile("Join the arena")).click()
    expect(ann_page.get_by_role("status").filter(has_text="Waiting for your teacher to start")).to_be_visible()
    off_the_loop(arena_join, student=ben, arena_id=arena.pk)
    off_the_loop(arena_start, arena_id=arena.pk)
    # The server's next round seats Ann and Ben; her arena page's socket sends her to the table.
    ann_page.wait_for_url(re.compile(r"/game/\d+/$"), timeout=15_000)
    game_id = int(re.search(r"/game/(\d+)/$", ann_page.url).group(1))
    ann_page.goto(live_daphne + "/play/")
    ann_page.goto(live_daphne + f"/arena/{arena.pk}/play/")  # a child who closed the tab
    ann_page.wait_for_url(f"**/game/{game_id}/")              # comes back to their running table
    ann_page.get_by_text("Leave game").click()
    expect(ann_page.get_by_text("It counts as a loss for you, and Ben will win it.")).to_be_visible()
    ann_page.get_by_text("No, keep playing").click()

    off_the_loop(play_to_end, Game.objects.get(pk=game_id))
    ann_page.goto(live_daphne + f"/game/{game_id}/")
    expect(ann_page.get_by_text("Your next arena game is coming…")).to_be_visible()
    expect(ann_page.get_by_role("link", name="Back to the arena")).to_be_visible()
    # Back to the arena, whose next round (the server's ticker) has seated Ann and Ben again:
    # she lands at the next table by herself.
    ann_page.wait_for_url(re.compile(rf"/game/(?!{game_id}/)\d+/$"), timeout=15_000)

    # The teacher ends the arena on her page and stops the game in play: the arena is over, so
    # no round of the server's runs into the database's flush after the test.
    desk = signed_in_page(browser, live_daphne, teacher)
    desk.goto(live_daphne + f"/arena/{arena.pk}/")
    desk.get_by_text("End early…").click()
    desk.get_by_role("button", name="Yes, end the arena").click()
    desk.get_by_text("Stop the games still playing…").click()
    desk.get_by_role("button", name="Yes, stop them").click()
    expect(desk.get_by_role("list", name="Podium")).to_be_visible()
    arena.refresh_from_db()
    assert arena.status == arena.Status.FINISHED
