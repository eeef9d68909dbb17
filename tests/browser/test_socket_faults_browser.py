"""The page's socket under faults (docs/play.md), in Chromium against the live Daphne.

Playwright stands between the page and the server (`route_web_socket`), so the test decides
which message is lost and how the connection ends:
- a move is lost twice, each time with the connection closed the way the server or a restart
  closes it (4013 "try again later", then 1012 "service restart"): the page sends the same
  move again after each reconnect, and it counts once (before: re-sent once, and 4013 reloaded
  the page, so the move was lost);
- every answer after a move is lost on the way: the page, hearing nothing, asks the server for
  the table ({"sync": version}) and shows the game as it is.
"""

import json
import re

import pytest
from playwright.sync_api import expect

from games.models import Move
from tests.browser.test_play_browser import click_mg_move, current, mg_move, signed_in_page, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAME_SOCKET = re.compile(r"/ws/game/\d+/")


def open_free_game(page, base: str) -> int:
    page.goto(base + "/play/")
    page.locator(".game-card", has_text="The Multiplication Game").get_by_role("button", name="Play").click()
    page.wait_for_url("**/game/*/")
    expect(page.locator("[data-connection]")).to_have_text("Connected")
    return int(page.url.rstrip("/").split("/")[-1])


def is_move(message) -> bool:
    return isinstance(message, str) and '"idempotency_key"' in message


def play_one_move_between(browser, base: str, student, between, timeout: int) -> int:
    """Ann's page, with `between` standing between it and the server, makes one move of a
    free Multiplication Game; returns the game's id once the page shows a newer table."""
    page = signed_in_page(browser, base, student)
    page.route_web_socket(GAME_SOCKET, between)
    game_id = open_free_game(page, base)
    game = current(game_id)
    wait_for_version(page, game.version)
    click_mg_move(page, mg_move(game, "Ann"))
    # A function, not an expression: the page's policy refuses eval (docs/csp.md).
    page.wait_for_function("(seen) => Number(document.querySelector('#table-board').dataset.version) > seen",
                           arg=game.version, timeout=timeout)
    wait_for_version(page, current(game_id).version)  # the game as it is, computer players' moves too
    expect(page.locator("[data-connection]")).to_have_text("Connected")
    return game_id


def test_a_move_lost_in_two_drops_in_a_row_is_sent_again_each_time_and_counts_once(
        browser, live_daphne, classroom, student):
    sent, closes = [], [4013, 1012]

    def between(ws):
        server = ws.connect_to_server()

        def from_page(message):
            if is_move(message):
                sent.append(json.loads(message)["idempotency_key"])
                if closes:  # lost on the way, and the connection ends
                    ws.close(code=closes.pop(0), reason="test drop")
                    server.close()
                    return
            server.send(message)

        ws.on_message(from_page)

    game_id = play_one_move_between(browser, live_daphne, student, between, timeout=30_000)
    assert len(sent) == 3 and len(set(sent)) == 1  # the same move, sent after each reconnect
    assert Move.objects.filter(game_id=game_id, idempotency_key=sent[0]).count() == 1
    assert Move.objects.filter(game_id=game_id, seat__name="Ann", accepted=True).count() == 1


def test_a_page_that_hears_nothing_after_its_move_asks_for_the_table(browser, live_daphne, classroom, student):
    state = {"deaf": False, "syncs": 0}

    def between(ws):
        server = ws.connect_to_server()

        def from_page(message):
            if is_move(message):
                state["deaf"] = True  # everything the server says next is lost...
            elif isinstance(message, str) and '"sync"' in message:
                state["deaf"], state["syncs"] = False, state["syncs"] + 1  # ...until the page asks
            server.send(message)

        def from_server(message):
            if not state["deaf"]:
                ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    play_one_move_between(browser, live_daphne, student, between, timeout=20_000)
    assert state["syncs"] >= 1
