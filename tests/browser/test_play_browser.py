"""Playing in Chromium: two classmates play a whole Multiplication Game at a table they opened
themselves; a student plays Smooth Operator against two computer players to the end; a
student's connection drops mid-game, they reload and carry on.

The tests decide like a child who knows the rules (a legal move, read from the game), but
make every move by clicking or pressing keys on the real page."""

import pytest
from playwright.sync_api import expect

from classroom.models import Assignment
from games import engine as engines
from games import registry
from games.engine.smooth_operator import rules
from games.models import Game
from games.results import NOTHING_COUNTED, how_you_played
from tests.clients import session_cookie

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TIMEOUT = 15_000


def signed_in_page(browser, base: str, user, viewport: dict | None = None):
    """A fresh browser context signed in as `user` (the picture sign-in has its own tests),
    at `viewport` ({"width", "height"}) or Playwright's default size."""
    context = browser.new_context(viewport=viewport) if viewport else browser.new_context()
    context.add_cookies([session_cookie(user, base)])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    return page


def wait_for_version(page, version: int) -> None:
    page.locator(f'#table-board[data-version="{version}"]').wait_for(timeout=TIMEOUT)


def current(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)


def mg_move(game: Game, name: str) -> dict:
    """A discard when one is possible (fewest multipliers first), else a draw."""
    actions = engines.get("multiplication").legal_actions(game.state, name)
    discards = [a for a in actions if a["type"] == "discard" and a["card"] != "free"]
    return discards[0] if discards else {"type": "draw"}


def click_mg_move(page, action: dict) -> None:
    if action["type"] == "draw":
        page.get_by_role("button", name="Draw a card instead").click()
        return
    board = page.locator("#table-board")
    # A hand may hold two cards of one number (deals are unpredictable, and a practice adds
    # extra cards of its fact): the move names the number only, so either card is that move.
    board.locator(f'input[name="act-card"][value="{action["card"]}"]').first.check()
    a, b = action["declare"]
    page.get_by_label("First multiplier").select_option(str(a))
    page.get_by_label("Second multiplier").select_option(str(b))
    page.get_by_role("button", name="3. Put it down").click()


def test_two_classmates_open_a_table_and_play_a_whole_multiplication_game(
        browser, live_daphne, classroom, student, make_student):
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    assignment = Assignment.objects.create(classroom=classroom, title="Times tables duel",
                                           game="multiplication", opponents="classmates",
                                           options={"hand_size": 4})
    ann_page = signed_in_page(browser, live_daphne, student)
    ben_page = signed_in_page(browser, live_daphne, ben)

    # Ann opens a table for the assignment and reads its code out to Ben.
    ann_page.goto(live_daphne + f"/play/assignment/{assignment.pk}/start/")
    ann_page.get_by_role("button", name="Open a table for this assignment").click()
    expect(ann_page.get_by_role("heading", name="Table code")).to_be_visible()
    code = ann_page.locator(".table-code").inner_text().strip()
    expect(ann_page.locator("[data-connection]")).to_have_text("Connected")

    # Ben types the code on his page; Ann's lobby shows him without a reload.
    ben_page.goto(live_daphne + "/play/")
    ben_page.get_by_label("Have a table code?").fill(code.lower())
    ben_page.get_by_label("Have a table code?").press("Enter")
    expect(ben_page.get_by_text("Ann starts the game when everyone is here")).to_be_visible()
    expect(ann_page.locator(".seat-list").get_by_text("Ben", exact=True)).to_be_visible()

    # Ann starts: both pages go to the table.
    ann_page.get_by_role("button", name="Start the game").click()
    game_id = Game.objects.get(table_code=code).pk
    for page in (ann_page, ben_page):
        page.wait_for_url(f"**/game/{game_id}/")
        wait_for_version(page, 0)

    pages = {"Ann": ann_page, "Ben": ben_page}
    for _ in range(400):
        game = current(game_id)
        if game.state["finished"]:
            break
        name = engines.get("multiplication").waiting_for(game.state)[0]
        mover, watcher = pages[name], pages["Ben" if name == "Ann" else "Ann"]
        expect(mover.locator("#table-status")).to_contain_text("Your turn")
        click_mg_move(mover, mg_move(game, name))
        # The move reaches the other player's screen, pushed over their socket.
        wait_for_version(watcher, game.version + 1)
        wait_for_version(mover, game.version + 1)
    game = current(game_id)
    assert game.status == Game.Status.FINISHED
    winners = list(game.seats.filter(is_winner=True).values_list("name", flat=True))
    for name in ("Ann", "Ben"):
        expect(pages[name].locator("#table-status")).to_contain_text(finished_status(winners, name))
    if len(winners) == 1:
        loser = "Ben" if winners[0] == "Ann" else "Ann"
        expect(pages[loser].locator("#table-status")).to_contain_text(f"Game over: {winners[0]} won.")
        expect(pages[loser].get_by_role("link", name="Back to my assignments")).to_be_visible()
    # Every decision was recorded, and the assignment counts the game for both.
    assert game.moves.filter(accepted=True).count() == game.version
    for page in pages.values():
        page.goto(live_daphne + "/play/")
        expect(page.locator(".student-assignment", has_text="Times tables duel")).to_contain_text("1 of 3 games")
        expect(page.locator(".recent-games")).to_contain_text("The Multiplication Game")


def so_move(game: Game, name: str) -> dict:
    """Lowest points when responding; specials are left alone (end the turn)."""
    engine = engines.get("smooth_operator")
    view = engine.view(game.state, name)
    actions = engine.legal_actions(game.state, name)
    if view["decision"] == "response":
        return min(actions, key=lambda a: rules.result(a["card"], view["high"], view["low"]))
    if view["decision"] == "penalty":
        return actions[0]
    return {"type": "end_turn"}


SO_LABEL = {"+": "add", "-": "subtract", "x": "multiply", "/": "divide", "free_turn": "Free Turn",
            "double": "Double", "free_choice": "Free Choice"}


def click_so_move(page, action: dict) -> None:
    board = page.locator("#table-board")
    if action["type"] == "end_turn":
        board.get_by_role("button", name="End my turn").click()
    elif action["type"] == "play":
        board.locator("form.move-form", has=page.locator(
            f'input[name="action"][value=\'{{"type":"play","card":"{action["card"]}"}}\']')).locator("button").first.click()
    else:
        # Two of the same special card give two alike buttons: either one gives one up.
        board.get_by_role("button", name=f"Give up {SO_LABEL[action['discard']]}").first.click()


def test_a_student_plays_smooth_operator_against_two_computer_players_to_the_end(
        browser, live_daphne, classroom, student):
    assignment = Assignment.objects.create(classroom=classroom, title="Lowest wins",
                                           game="smooth_operator", opponents="bots",
                                           bot_level="beginner", bot_count=2,
                                           options={"target": 100})
    page = signed_in_page(browser, live_daphne, student)
    page.goto(live_daphne + "/play/")
    page.get_by_role("link", name="Play Lowest wins").click()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/game/*/")
    game_id = int(page.url.rstrip("/").split("/")[-1])
    assert [s.bot_level for s in current(game_id).seats.all()] == ["", "beginner", "beginner"]
    for _ in range(300):
        game = current(game_id)
        if game.state["finished"]:
            break
        if "Ann" not in engines.get("smooth_operator").waiting_for(game.state):
            page.wait_for_timeout(50)  # the computer players are thinking
            continue
        wait_for_version(page, game.version)  # the page shows the decision Ann must make
        click_so_move(page, so_move(game, "Ann"))
        page.wait_for_function(f"() => Number(document.querySelector('#table-board').dataset.version) > {game.version}")
    game = current(game_id)
    assert game.status == Game.Status.FINISHED
    wait_for_version(page, game.version)
    winners = list(game.seats.filter(is_winner=True).values_list("name", flat=True))
    expect(page.locator("#table-status")).to_contain_text(finished_status(winners, "Ann"))
    expect(page.get_by_role("heading", name="How you played")).to_be_visible()
    # What the page says is the game's own skill evidence for Ann (the same figures as "My
    # progress"). A short game can deal Ann no turn a measure counts (she led every trick):
    # then it says so instead of "0 out of 0".
    lines = [str(line) for line in how_you_played(spec=registry.spec_for("smooth_operator"), game=game,
                                                  seat=game.seats.get(name="Ann"))]
    expect(page.locator("ul.how-you-played li")).to_have_text(lines)
    assert lines == [str(NOTHING_COUNTED)] or all(" out of " in line for line in lines), lines
    expect(page.locator("#table-log")).to_contain_text("points")


def finished_status(winners: list[str], name: str) -> str:
    """The table's last line for `name`: a sole win, a shared win (a turn limit can end a
    game in a tie) or someone else's."""
    if name in winners:
        return "You won! Well played." if len(winners) == 1 else "You share the win!"
    return "Game over"


KEEP_SOCKETS = """
window.__sockets = [];
const RealWebSocket = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const socket = new RealWebSocket(url, protocols);
  window.__sockets.push(socket);
  return socket;
};
window.WebSocket.prototype = RealWebSocket.prototype;
Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
"""


def test_a_student_disconnects_mid_game_reloads_and_carries_on(browser, live_daphne, classroom, student):
    page = signed_in_page(browser, live_daphne, student)
    page.context.add_init_script(KEEP_SOCKETS)  # lets the test cut the connection
    page.goto(live_daphne + "/play/")
    page.locator(".game-card", has_text="The Multiplication Game").get_by_role("button", name="Play").click()
    page.wait_for_url("**/game/*/")
    game_id = int(page.url.rstrip("/").split("/")[-1])
    expect(page.locator("[data-connection]")).to_have_text("Connected")
    game = current(game_id)
    wait_for_version(page, game.version)
    click_mg_move(page, mg_move(game, "Ann"))
    page.wait_for_function(f"() => Number(document.querySelector('#table-board').dataset.version) > {game.version}")

    # The connection drops: the page says so, comes back by itself, and nothing is lost.
    page.evaluate("window.__sockets.forEach(function (s) { s.close(4000, 'test drop'); })")
    expect(page.locator("[data-connection]")).to_contain_text("Reconnecting", timeout=TIMEOUT)
    expect(page.locator("[data-connection]")).to_have_text("Connected")
    wait_for_version(page, current(game_id).version)  # the whole table came back
    # The tab is closed and the game opened again from the home page.
    page.goto(live_daphne + "/play/")
    page.get_by_role("link", name="Carry on").click()
    page.wait_for_url(f"**/game/{game_id}/")
    expect(page.locator("[data-connection]")).to_have_text("Connected")
    game = current(game_id)
    assert "Ann" in engines.get("multiplication").waiting_for(game.state)
    wait_for_version(page, game.version)
    expect(page.locator("#table-status")).to_contain_text("Your turn")
    click_mg_move(page, mg_move(game, "Ann"))
    page.wait_for_function(f"() => Number(document.querySelector('#table-board').dataset.version) > {game.version}")
    assert current(game_id).moves.filter(accepted=True, seat__name="Ann").count() == 2
