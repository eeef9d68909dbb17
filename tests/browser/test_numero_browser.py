"""A child plays Numero in Chromium: a wild card changes a centre card, then a take uses it."""


import pytest
from playwright.sync_api import expect

from games import engine as engines
from games.models import Game
from games.services import SeatSpec, game_create
from tests.browser.conftest import off_the_loop
from tests.clients import session_cookie

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fixed_game(*args):
    """A real game whose deal is fixed, so a wild take is there to be found (created as a
    request would create it: `off_the_loop`)."""
    return off_the_loop(_fixed_game, *args)


def _fixed_game(classroom, student, key, names, hands, centre):
    options = {"wilds": ["divide"]}
    seats = [SeatSpec("Ann", user=student)] + [SeatSpec(n, bot_level="beginner") for n in names[1:]]
    game = game_create(key=key, classroom=classroom, seed=3, options=options, seats=seats)
    state = engines.get(key).new_game(names, options, 3, {"hands": hands, "centre": centre})
    Game.objects.filter(pk=game.pk).update(state=state)
    return game


def test_a_student_takes_with_a_wild_card_against_a_bot(page, live_daphne, classroom, student):
    game = fixed_game(classroom, student, "numero", ["Ann", "Robo"],
                      {"Ann": ["5g", "/2", "3o", "8b", "9r"], "Robo": ["1g", "4o", "6b", "7r", "12r"]},
                      ["10g", "2b"])
    page.context.add_cookies([session_cookie(student, live_daphne)])
    page.goto(f"{live_daphne}/game/{game.pk}/")
    expect(page.get_by_text("Connected")).to_be_visible()
    expect(page.get_by_role("status").first).to_contain_text("Your turn: tap a card from your hand")

    # No centre card is worth 5 yet.
    page.get_by_role("button", name="5 green").click()
    expect(page.get_by_role("button", name="5 green")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#nm-step")).to_contain_text("No centre cards add up to 5")
    expect(page.get_by_role("button", name="Take with your 5")).to_be_disabled()

    # The wild card ÷2 is tapped onto the 10: it becomes 5.
    page.get_by_role("button", name="wild card divide by 2").click()
    expect(page.locator("#nm-step")).to_contain_text("Tap the centre card to change with your ÷2")
    expect(page.get_by_role("button", name="2 blue")).to_be_enabled()
    page.get_by_role("button", name="Play your wild card ÷2 on 10 green: 10 ÷ 2 = 5").click()
    expect(page.locator("#table-log")).to_contain_text("Ann played wild card ÷2 on green 10: 10 ÷ 2 = 5.")

    # Now the 5 takes it: tap the card, tap the centre item, press Take.
    page.get_by_role("button", name="5 green").click()
    item = page.get_by_role("button", name="5 (10 green, ÷2 wild card divide by 2)")
    expect(item).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_role("button", name="2 blue")).to_be_disabled()
    item.click()
    expect(item).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#nm-sums")).to_contain_text("✓ makes 5")
    page.get_by_role("button", name="Take with your 5").click()

    expect(page.locator("#table-log")).to_contain_text("Ann took with green 5 (5): 1 take, 3 cards.")
    expect(page.locator(".nm-piles")).to_contain_text("Ann (you): 3 cards won")
    # The bot plays its turn, and it's Ann's turn again.
    expect(page.locator("#table-log")).to_contain_text("Robo")
    expect(page.locator("#table-status")).to_contain_text("Your turn")
    game.refresh_from_db()
    assert sorted(game.state["won"]["Ann"]) == sorted(["5g", "10g", "/2"])


def test_solitaire_by_keyboard_only(page, live_daphne, classroom, student):
    game = fixed_game(classroom, student, "numero_solitaire", ["Ann"],
                      {"Ann": ["5g", "/2", "3o", "8b", "9r"]}, ["2b", "3b", "10g", "4o", "7g"])
    page.context.add_cookies([session_cookie(student, live_daphne)])
    page.goto(f"{live_daphne}/game/{game.pk}/")
    expect(page.get_by_text("Connected")).to_be_visible()
    focused = page.locator(":focus")
    page.get_by_role("button", name="5 green").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="5 green")).to_have_attribute("aria-pressed", "true")
    expect(focused).to_have_attribute("id", "nm-hand-5g")  # focus stays where it was
    # The centre comes before the hand (3 5 8 9 ÷2); only the 2 and the 3 in the centre can
    # make 5, so the other centre cards are disabled and skipped.
    page.keyboard.press("Shift+Tab")
    expect(focused).to_have_attribute("id", "nm-hand-3o")
    page.keyboard.press("Shift+Tab")
    expect(focused).to_have_attribute("id", "nm-item-3b")
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="3 blue")).to_have_attribute("aria-pressed", "true")
    expect(focused).to_have_attribute("id", "nm-item-3b")
    page.keyboard.press("Shift+Tab")
    expect(focused).to_have_attribute("id", "nm-item-2b")
    page.keyboard.press("Enter")
    expect(page.locator("#nm-sums")).to_contain_text("3 + 2 = 5 ✓ makes 5")
    for _ in range(12):
        if focused.get_attribute("id") == "nm-take":
            break
        page.keyboard.press("Tab")
    expect(focused).to_have_text("Take with your 5")
    page.keyboard.press("Enter")
    expect(page.locator("#table-log")).to_contain_text("Ann took with green 5 (3 + 2 = 5): 1 take, 3 cards.")
    expect(page.locator(".nm-piles")).to_contain_text("Ann (you): 3 cards won")
