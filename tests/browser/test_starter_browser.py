"""The starter in Chromium (docs/play.md): on a 390-pixel phone a child picks "Starter (easiest)"
in a free-play game's "Computer's level" menu (a target of 44 px at least, reached by its
label) and plays against a starter; the table names it."""

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.test_play_browser import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_a_child_picks_the_starter_for_free_play(browser, live_daphne, classroom, student):
    page = signed_in_page(browser, live_daphne, student, PHONE)
    page.goto(live_daphne + "/play/")
    card = page.locator(".game-card", has_text="The Multiplication Game")
    menu = card.get_by_label("Computer's level")
    expect(menu).to_have_value("player")  # the level free play always had
    box = menu.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, box
    menu.select_option(label="Starter (easiest)")
    card.get_by_role("button", name="Play").click()
    page.wait_for_url("**/game/*/")
    game = Game.objects.get(pk=int(page.url.rstrip("/").split("/")[-1]))
    assert [s.bot_level for s in game.seats.order_by("position")] == ["", "starter"]
    expect(page.locator("#table-scores")).to_contain_text("computer · starter")
    # A game played alone has no computer player to choose.
    solitaire = page.context.new_page()
    solitaire.goto(live_daphne + "/play/")
    expect(solitaire.locator(".game-card", has_text="Numero Solitaire").get_by_label(
        "Computer's level")).to_have_count(0)
