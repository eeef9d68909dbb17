"""One game per press, a Stop that goes when the game ends, and focus that stays, in Chromium:

- free play's "Play" pressed twice (a double tap; the same form sent twice at once) deals one
  game, and the child lands at it;
- "Stop game" goes from an open table as soon as the game ends (the push of the last move
  takes it away), and Numero Solitaire, which can end with cards still in the deck, says why;
- after a Smooth Operator move made by keyboard, focus never falls to the top of the page
  while the others play: it waits on the hand, and moves to the next card to play when the
  child's turn comes back.
"""

import pytest
from playwright.sync_api import expect

from games import engine as engines
from games import registry
from games.adapters.numero import card_label
from games.models import Game
from games.services import SeatSpec, game_apply_move, game_create
from tests.browser.test_play_browser import TIMEOUT, click_so_move, signed_in_page, so_move
from tests.browser.test_reports_browser import in_thread

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# ----- Play twice --------------------------------------------------------------------------
SEND_TWICE = """async form => {
    const send = () => fetch(form.action, {method: "POST", body: new FormData(form), redirect: "manual"});
    const answers = await Promise.all([send(), send()]);
    return answers.map(a => a.type);
}"""


def test_play_pressed_twice_deals_one_game(browser, live_daphne, classroom, student):
    page = signed_in_page(browser, live_daphne, student)
    page.goto(live_daphne + "/play/")
    card = page.locator(".game-card", has_text="Numero Solitaire")
    # The same form sent twice at once, as a double tap without the page's script would.
    assert card.locator("form").evaluate(SEND_TWICE) == ["opaqueredirect", "opaqueredirect"]
    [game] = Game.objects.filter(key="numero_solitaire")
    # The child presses Play (twice, quickly): the game already dealt is the one she gets.
    card.get_by_role("button", name="Play").dblclick()
    page.wait_for_url(f"**/game/{game.pk}/")
    expect(page.locator("[data-connection]")).to_have_text("Connected")
    assert Game.objects.filter(key="numero_solitaire").count() == 1


# ----- Stop game, and the end of Numero Solitaire -----------------------------------------
def solitaire_ending_with_cards_to_draw(classroom, student) -> tuple[Game, dict]:
    """A Numero Solitaire game played by a beginner's moves up to its last one: a plain take
    after which no take is possible, with cards still in the deck. Returns the game and that
    last take (the child makes it on the page)."""
    engine = registry.spec_for("numero_solitaire").engine
    for seed in range(1, 200):
        game = game_create(key="numero_solitaire", classroom=classroom, seed=seed,
                           seats=[SeatSpec("Ann", user=student)])
        state, actions = game.state, []
        while not state["finished"] and len(actions) < 300:
            action = engines.make_bot("numero_solitaire", "beginner", len(actions)).choose(engine.view(state, "Ann"))
            state, _ = engine.apply(state, "Ann", action)
            actions.append(action)
        if state["finished"] and state["deck"] and actions[-1]["type"] == "take":
            seat = game.seats.get()
            for n, action in enumerate(actions[:-1]):
                assert game_apply_move(game_id=game.pk, seat=seat, action=action, expected_version=n,
                                       schedule_bots=False).applied
            game.refresh_from_db()
            return game, actions[-1]
        game.delete()
    raise AssertionError("no deal of the first 200 ends with a take and cards to draw")


def slug(code: str) -> str:
    """A card's element id on the board (without its prefix)."""
    return card_label(code)["slug"]


def test_stop_game_goes_when_the_game_ends_and_solitaire_says_why(browser, live_daphne, classroom, student):
    game, last = in_thread(lambda: solitaire_ending_with_cards_to_draw(classroom, student))
    page = signed_in_page(browser, live_daphne, student, {"width": 390, "height": 844})
    page.goto(f"{live_daphne}/game/{game.pk}/")
    expect(page.locator("[data-connection]")).to_have_text("Connected")
    stop = page.locator("summary", has_text="Stop game")
    expect(stop).to_be_visible()
    stop.click()  # the question opens, and stays open while the child plays on
    expect(page.get_by_text("Stop this game?")).to_be_visible()

    # The last take, tapped as a child taps it: the card, the centre cards, Take.
    card = page.locator(f"#nm-hand-{slug(last['card'])}")
    card.click()
    expect(card).to_have_attribute("aria-pressed", "true")
    for group in last["groups"]:
        for name in group:
            item = page.locator(f"#nm-item-{slug(name)}")
            item.click()
            expect(item).to_have_attribute("aria-pressed", "true")
    page.locator("#nm-take").click()

    page.locator(f'#table-board[data-version="{game.version + 1}"]').wait_for(timeout=TIMEOUT)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    left = len(game.state["deck"])
    expect(page.locator("#results-title")).to_be_visible()
    expect(page.locator("summary", has_text="Stop game")).to_have_count(0)
    expect(page.get_by_text("Stop this game?")).to_have_count(0)
    expect(page.locator(".results-why")).to_have_text(
        "The game ended because no take is possible: no centre card, and no sum of centre cards, makes "
        "a number in your hand, even with the wild cards. In Solitaire that ends the game, even with "
        f"{left} card{'s' if left != 1 else ''} still in the deck.")
    expect(page.locator("#table-log")).to_contain_text("No take is possible any more, even with the wild cards")
    # Opened again later, the finished table has no Stop either.
    page.reload()
    expect(page.locator("#results-title")).to_be_visible()
    expect(page.locator("summary", has_text="Stop game")).to_have_count(0)


# ----- Keyboard focus in Smooth Operator ---------------------------------------------------
# Where focus is a moment after each message of the table's socket (after the page's own
# re-focusing, which runs at once after the swap).
FOCUS_LOG = """
window.__focusLog = [];
document.addEventListener("htmx:wsAfterMessage", function () {
  window.setTimeout(function () {
    const el = document.activeElement;
    window.__focusLog.push(!el || el === document.body ? "BODY" : (el.id || el.tagName));
  }, 30);
});
"""


def test_focus_waits_on_the_hand_while_a_classmate_plays(browser, live_daphne, classroom, student, make_student):
    """Ann plays by keyboard; Ben, at his own computer, takes his time. While Ann waits her
    focus stays on her hand (never the top of the page); when her turn comes back it is on the
    next thing to do, so Enter plays on."""
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    game = in_thread(lambda: game_create(key="smooth_operator", classroom=classroom, seed=5,
                                         options={"target": 650},
                                         seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)]))
    ann = signed_in_page(browser, live_daphne, student, {"width": 390, "height": 844})
    ann.context.add_init_script(FOCUS_LOG)
    ben_page = signed_in_page(browser, live_daphne, ben)
    for page in (ann, ben_page):
        page.goto(f"{live_daphne}/game/{game.pk}/")
        expect(page.locator("[data-connection]")).to_have_text("Connected")
    engine = engines.get("smooth_operator")
    target = ann.locator("#table-board .so-playable button:not([disabled]), #so-end-turn").first

    ann_moves = ben_moves = 0
    while ann_moves < 4 or not ben_moves:
        game.refresh_from_db()
        assert not game.state["finished"], "the game ended before Ben had a turn"
        [name] = engine.waiting_for(game.state)[:1]
        page = ann if name == "Ann" else ben_page
        page.locator(f'#table-board[data-version="{game.version}"]').wait_for(timeout=TIMEOUT)
        if name == "Ben":
            ben_page.wait_for_timeout(300)  # Ben thinks; Ann's page waits
            click_so_move(ben_page, so_move(game, "Ben"))
            ben_moves += 1
        else:
            if ann_moves == 0:
                target.focus()  # she tabbed to her first card
                ann.evaluate("window.__focusLog = []")
            else:
                expect(target).to_be_focused()  # focus came back to the next thing to do
            ann.keyboard.press("Enter")
            ann_moves += 1
        page.wait_for_function(f"() => Number(document.querySelector('#table-board').dataset.version) > {game.version}")

    log = ann.evaluate("window.__focusLog")
    assert "BODY" not in log, f"focus fell to the top of the page: {log}"
    assert "so-hand-title" in log, f"focus did not wait on the hand while Ben played: {log}"
