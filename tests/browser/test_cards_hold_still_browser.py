"""A card under the mouse holds still. A child resting the pointer on a card (on its lower
edge too) sees it light up, never shake: a hover that moved the card away from the pointer
lost the hover, dropped back under it and shook, frame after frame, and a click could miss."""

import pytest
from playwright.sync_api import expect

from games.services import SeatSpec, game_create
from tests.browser.conftest import off_the_loop
from tests.browser.test_play_browser import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The top of the element in each of 12 animation frames.
TOPS_OVER_FRAMES = """el => new Promise(done => {
  const tops = [];
  function frame() {
    tops.push(el.getBoundingClientRect().top);
    if (tops.length < 12) requestAnimationFrame(frame); else done(tops);
  }
  requestAnimationFrame(frame);
})"""


def test_a_card_under_the_pointer_holds_still(browser, live_daphne, classroom, student):
    # Every board's cards are `.card-button`s (static/css/app.css); Numero's table items
    # follow the same rule (static/css/games/numero.css).
    game = off_the_loop(game_create, key="smooth_operator", classroom=classroom, seed=9,
                        options={"target": 650},
                        seats=[SeatSpec("Ann", user=student), SeatSpec("Bot", bot_level="beginner")])
    page = signed_in_page(browser, live_daphne, student)
    page.goto(f"{live_daphne}/game/{game.pk}/")
    button = page.locator("#table-board button.card-button").first
    expect(button).to_be_visible()
    box = button.bounding_box()
    still = button.evaluate(TOPS_OVER_FRAMES)
    assert len(set(still)) == 1
    for y in (box["y"] + box["height"] / 2, box["y"] + box["height"] - 1):  # its middle, its lower edge
        page.mouse.move(box["x"] + box["width"] / 2, y)
        assert button.evaluate(TOPS_OVER_FRAMES) == still, f"the card moved under the pointer at y={y}"
    page.context.close()
