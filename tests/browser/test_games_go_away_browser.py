"""Games that go away (docs/play.md), in Chromium: a child stops a game at its table (asked first)
and it is gone from her page; a child leaves a game a classmate plays on, whose open table
shows a computer player in her seat at once; and on a 390-pixel phone her page shows one
"Carry on" per game, with her assignments still on the first screen."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from classroom.models import Assignment
from games.models import Game
from games.services import SeatSpec, game_create
from tests.browser.test_play_browser import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_a_child_stops_a_game_and_it_is_gone_from_her_page(browser, live_daphne, classroom, student):
    page = signed_in_page(browser, live_daphne, student, PHONE)
    page.goto(live_daphne + "/play/")
    page.locator(".game-card", has_text="Smooth Operator").get_by_role("button", name="Play").click()
    page.wait_for_url("**/game/*/")
    game_id = int(page.url.rstrip("/").split("/")[-1])
    expect(page.locator("[data-connection]")).to_have_text("Connected")

    # Stop asks first, in plain words; nothing has ended yet.
    question = page.get_by_text("Stop this game? It will not count as finished.")
    expect(question).to_be_hidden()
    page.get_by_text("Stop game", exact=True).click()
    expect(question).to_be_visible()
    assert Game.objects.get(pk=game_id).status == Game.Status.ACTIVE
    page.get_by_role("button", name="Yes, stop the game").click()

    page.wait_for_url("**/play/")
    expect(page.get_by_text("You stopped Smooth Operator. It did not count as finished.")).to_be_visible()
    expect(page.get_by_role("heading", name="Carry on playing")).to_have_count(0)
    expect(page.locator(f'a[href="/game/{game_id}/"]')).to_have_count(0)
    assert Game.objects.get(pk=game_id).status == Game.Status.ABANDONED


def test_a_child_leaves_and_her_classmates_table_shows_a_computer_player_in_her_seat(
        browser, live_daphne, classroom, student, make_student):
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    game = game_create(key="multiplication", classroom=classroom, seed=5,
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)])
    ann_page = signed_in_page(browser, live_daphne, student)
    ben_page = signed_in_page(browser, live_daphne, ben)
    for page in (ann_page, ben_page):
        page.goto(live_daphne + f"/game/{game.pk}/")
        expect(page.locator("[data-connection]")).to_have_text("Connected")
    ann_seat = ben_page.locator("#table-scores .player", has_text="Ann")
    expect(ann_seat).not_to_contain_text("computer")

    ann_page.get_by_text("Leave game", exact=True).click()
    expect(ann_page.get_by_text("A computer player takes your place, so Ben can finish.")).to_be_visible()
    ann_page.get_by_role("button", name="Yes, leave the game").click()
    ann_page.wait_for_url("**/play/")
    expect(ann_page.locator(f'a[href="/game/{game.pk}/"]')).to_have_count(0)

    # Ben's open table is told over its socket: Ann's seat is a computer player's now, it has
    # played her turn, and it is Ben's.
    expect(ann_seat).to_contain_text("computer")
    expect(ben_page.locator("#table-status")).to_contain_text("Your turn")
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_on_a_phone_one_carry_on_per_game_and_the_assignments_on_the_first_screen(
        browser, live_daphne, classroom, student):
    Assignment.objects.create(classroom=classroom, title="Times tables warm-up", game="multiplication",
                              opponents="bots", bot_level="beginner", bot_count=1)
    now = timezone.now()
    bots = [SeatSpec("Robo", bot_level="beginner"), SeatSpec("Zip", bot_level="beginner")]
    games = [game_create(key="smooth_operator", classroom=classroom, created_by=student,
                         seats=[SeatSpec("Ann", user=student), *bots]) for _ in range(5)]
    games += [game_create(key="multiplication", classroom=classroom, created_by=student,
                          seats=[SeatSpec("Ann", user=student), bots[0]]) for _ in range(2)]
    for i, game in enumerate(games):  # the later, the more recently played
        Game.objects.filter(pk=game.pk).update(turn_started_at=now - timedelta(minutes=30 - i))

    page = signed_in_page(browser, live_daphne, student, PHONE)
    page.goto(live_daphne + "/play/")
    carry_on = page.get_by_role("link", name="Carry on")
    expect(carry_on).to_have_count(2)  # one per game: the most recently played of each
    expect(page.locator(f'a[href="/game/{games[4].pk}/"]')).to_be_visible()
    expect(page.locator(f'a[href="/game/{games[6].pk}/"]')).to_be_visible()
    # The assignments are on the first screen, without scrolling.
    assert page.evaluate("window.scrollY") == 0
    expect(page.get_by_role("heading", name="My assignments")).to_be_in_viewport(ratio=1)
    expect(page.get_by_role("heading", name="Times tables warm-up")).to_be_in_viewport(ratio=1)
    # The other five are one tap away.
    page.get_by_text("5 more unfinished games").click()
    expect(carry_on).to_have_count(7)
    expect(page.get_by_text("Games you leave for an hour are put away.")).to_be_visible()
