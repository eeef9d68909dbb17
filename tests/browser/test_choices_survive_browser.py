"""A child's half-made choice survives what other players do, and a refused move keeps it.

Two classmates at one table, each in their own browser: what one of them has picked but not
yet sent stays picked while the other's move arrives over the socket (the board is morphed,
not replaced). A move the rules refuse leaves the picks where they were, so the child fixes
one thing instead of starting again; the next try is a new move, not a repeat of the refused
one."""

import pytest
from django.db import connection
from playwright.sync_api import expect

from games import engine as engines
from games.models import Game
from games.services import SeatSpec, game_create
from tests.browser.conftest import off_the_loop
from tests.browser.test_play_browser import TIMEOUT, signed_in_page, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_add_or_multiply_choice_survives_a_classmate_locking_in(
        browser, live_daphne, classroom, student, make_student):
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    cy = make_student(classroom, "Cy", ("boat", "star", "apple"))
    game = off_the_loop(game_create, key="add_or_multiply", classroom=classroom, seed=3,
                        seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben),
                               SeatSpec("Cy", user=cy)])
    ann, ben_page = signed_in_page(browser, live_daphne, student), signed_in_page(browser, live_daphne, ben)
    for page in (ann, ben_page):
        page.goto(live_daphne + f"/game/{game.pk}/")
        expect(page.locator("[data-connection]")).to_have_text("Connected")

    # Ann picks the numbers for Ben and Cy and her own operation, and is still thinking.
    ann_on = engines.get("add_or_multiply").legal_actions(game.state, "Ann")[-1]["on"]
    for name in ("Ben", "Cy"):
        ann.get_by_label(f"Number card to send to {name}").select_option(str(ann_on[name]))
    ann.locator('input[name="act-operation"][value="x"]').check()

    # Ben locks in his choice: Ann's page hears it at once ...
    ben_on = engines.get("add_or_multiply").legal_actions(game.state, "Ben")[0]["on"]
    for name in ("Ann", "Cy"):
        ben_page.get_by_label(f"Number card to send to {name}").select_option(str(ben_on[name]))
    ben_page.locator('input[name="act-operation"][value="+"]').check()
    ben_page.get_by_role("button", name="Lock in my choice").click()
    wait_for_version(ann, game.version + 1)
    expect(ann.locator("#table-board")).to_contain_text("Ben: ✓ chosen")
    # ... and her choice is just as she left it.
    for name in ("Ben", "Cy"):
        expect(ann.get_by_label(f"Number card to send to {name}")).to_have_value(str(ann_on[name]))
    expect(ann.locator('input[name="act-operation"][value="x"]')).to_be_checked()
    expect(ann.locator("[data-choice-notice]")).to_have_text("")

    # She locks it in: it is her choice that the game recorded.
    ann.get_by_role("button", name="Lock in my choice").click()
    wait_for_version(ann, game.version + 2)
    expect(ann.locator("#table-board")).to_contain_text("Your choice is locked in")
    locked = ann.locator("#table-board .alert")
    for name in ("Ben", "Cy"):
        expect(locked).to_contain_text(f"{ann_on[name]} to {name}")
    expect(locked).to_contain_text("× for you")


def refusing_pick(game: Game, name: str) -> tuple[int, tuple[int, int], tuple[int, int]]:
    """A card in `name`'s hand with a legal declaration, and a wrong pair of multipliers."""
    actions = engines.get("multiplication").legal_actions(game.state, name)
    discard = next(a for a in actions if a["type"] == "discard" and a["card"] != "free")
    card, right = discard["card"], tuple(discard["declare"])
    wrong = next((a, b) for a in range(1, 11) for b in range(1, 11) if a * b != card)
    return card, right, wrong


def test_a_refused_multiplication_move_keeps_the_card_and_multipliers(
        browser, live_daphne, classroom, student, make_student):
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))

    def table(seed):
        return game_create(key="multiplication", classroom=classroom, seed=seed, options={"hand_size": 5},
                           seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)])

    game = next(g for g in (off_the_loop(table, seed) for seed in range(1, 40))
                if engines.get("multiplication").waiting_for(g.state) == ["Ann"]
                and any(a["type"] == "discard" and a["card"] != "free"
                        for a in engines.get("multiplication").legal_actions(g.state, "Ann")))
    card, right, wrong = refusing_pick(game, "Ann")
    ann = signed_in_page(browser, live_daphne, student)
    ann.goto(live_daphne + f"/game/{game.pk}/")
    expect(ann.locator("[data-connection]")).to_have_text("Connected")

    # Ann picks a card and says the wrong multipliers: the rules refuse, in words ...
    # The first card of that number (a hand may hold two: either is the same move).
    chosen = ann.locator(f'#table-board input[name="act-card"][value="{card}"]').first
    chosen.check()
    ann.get_by_label("First multiplier").select_option(str(wrong[0]))
    ann.get_by_label("Second multiplier").select_option(str(wrong[1]))
    ann.get_by_role("button", name="3. Put it down").click()
    expect(ann.locator("#table-notice .alert")).to_be_visible(timeout=TIMEOUT)
    # ... and her three steps are still chosen: only the multipliers need fixing.
    expect(chosen).to_be_checked()
    expect(ann.get_by_label("First multiplier")).to_have_value(str(wrong[0]))
    expect(ann.get_by_label("Second multiplier")).to_have_value(str(wrong[1]))
    assert Game.objects.get(pk=game.pk).version == game.version

    # She fixes them; the move goes through (a new move, not a repeat of the refused one).
    ann.get_by_label("First multiplier").select_option(str(right[0]))
    ann.get_by_label("Second multiplier").select_option(str(right[1]))
    ann.get_by_role("button", name="3. Put it down").click()
    wait_for_version(ann, game.version + 1)
    expect(ann.locator("#table-notice .alert")).to_have_count(0)
    assert card not in Game.objects.get(pk=game.pk).state["hands"]["Ann"] or \
        Game.objects.get(pk=game.pk).state["hands"]["Ann"].count(card) < game.state["hands"]["Ann"].count(card)


def _numero_with_ben(classroom, student, ben):
    hands = {"Ann": ["5g", "/2", "3o", "8b", "9r"], "Ben": ["1g", "6b", "7r", "12r", "11o"]}
    options = {"wilds": ["divide"]}
    game = game_create(key="numero", classroom=classroom, seed=3, options=options,
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)])
    state = engines.get("numero").new_game(["Ann", "Ben"], options, 3,
                                           {"hands": hands, "centre": ["2b", "3b", "10g", "4o", "7g"]})
    Game.objects.filter(pk=game.pk).update(state=state)
    connection.close()
    return game


def test_numero_picks_survive_a_classmate_leaving_the_table(browser, live_daphne, classroom, student,
                                                            make_student):
    """Ben leaves while Ann is choosing: a computer player takes his seat and every page is
    told (the side panel changes). Ann's picked cards are still picked, and her take goes
    through. (Her play area did not change, so the push leaves it alone; had it changed,
    static/js/app.js would ask for her picks again.)"""
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    game = off_the_loop(lambda: _numero_with_ben(classroom, student, ben))
    ann = signed_in_page(browser, live_daphne, student)
    ann.goto(live_daphne + f"/game/{game.pk}/")
    expect(ann.locator("[data-connection]")).to_have_text("Connected")
    ann.get_by_role("button", name="5 green").click()
    expect(ann.get_by_role("button", name="5 green")).to_have_attribute("aria-pressed", "true")
    ann.get_by_role("button", name="3 blue").click()
    expect(ann.locator("#nm-sums")).to_contain_text("need 2 more")

    ben_page = signed_in_page(browser, live_daphne, ben)
    ben_page.goto(live_daphne + f"/game/{game.pk}/")
    ben_page.get_by_text("Leave game", exact=True).click()
    ben_page.get_by_role("button", name="Yes, leave the game").click()
    ben_page.wait_for_url("**/play/")
    expect(ann.locator("#table-scores")).to_contain_text("computer")  # the push came
    expect(ann.get_by_role("button", name="5 green")).to_have_attribute("aria-pressed", "true")
    expect(ann.get_by_role("button", name="3 blue")).to_have_attribute("aria-pressed", "true")
    expect(ann.locator("#nm-sums")).to_contain_text("need 2 more")

    ann.get_by_role("button", name="2 blue").click()
    expect(ann.locator("#nm-sums")).to_contain_text("✓ makes 5")
    ann.get_by_role("button", name="Take with your 5").click()
    expect(ann.locator("#table-log")).to_contain_text("Ann took with green 5")
