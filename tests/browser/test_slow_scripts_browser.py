"""On a slow school network the page's words arrive before its scripts. What a teacher or a
child does in that moment is not lost: a game chosen early still brings that game's levels,
and the sign-in pictures are offered only once a tap counts.

The scripts are held back with Playwright's routing, then let through."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from classroom.presets import presets_for
from tests.browser.test_play_browser import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCRIPTS = "**/*.js"


class HeldScripts:
    """Holds every script request the page makes (static files and the translations'
    catalogue) until `let_through`."""

    def __init__(self, page):
        self.held: list = []
        self.holding = True
        page.route(SCRIPTS, self.route)

    def route(self, route) -> None:
        if self.holding:
            self.held.append(route)
        else:
            route.continue_()

    def let_through(self) -> None:
        self.holding = False
        for route in self.held:
            route.continue_()
        self.held.clear()


def test_a_game_chosen_before_the_scripts_came_brings_its_own_levels(browser, live_daphne, teacher, classroom):
    page = signed_in_page(browser, live_daphne, teacher)
    scripts = HeldScripts(page)
    page.goto(live_daphne + reverse("classroom:assignment_create", args=[classroom.pk]),
              wait_until="commit")
    level = page.get_by_label("Level", exact=True)
    smooth_levels = [p["label"] for p in presets_for("smooth_operator").values()]
    numero_levels = [p["label"] for p in presets_for("numero").values()]
    expect(level).to_contain_text(smooth_levels[0])
    page.get_by_label("Game", exact=True).select_option("numero")
    assert scripts.held, "the page asked for no script: nothing was held back"
    expect(level).not_to_contain_text(numero_levels[-1])  # no script yet: nothing could ask

    scripts.let_through()
    expect(level).to_contain_text(numero_levels[-1])
    assert smooth_levels[0] not in level.inner_text()
    page.context.close()


def test_the_sign_in_pictures_wait_for_the_script_that_counts_the_taps(page, live_daphne, student):
    scripts = HeldScripts(page)
    scripts.let_through()
    page.goto(live_daphne + "/join/")
    start_join_from_the_code_page(page)
    scripts.holding = True
    page.get_by_role("link", name="Ann").click()
    cat = page.get_by_role("button", name="Cat", exact=True)
    expect(cat).to_be_visible()
    expect(cat).to_be_disabled()  # a tap now would be lost: it is not offered

    scripts.let_through()
    for label in ("Cat", "Sun", "Tree"):
        page.get_by_role("button", name=label, exact=True).click()
    page.get_by_role("button", name="Go!").click()
    expect(page.get_by_role("heading", name="My assignments")).to_be_visible()


def start_join_from_the_code_page(page) -> None:
    page.get_by_label("Class code").fill("abc234")
    page.get_by_label("Class code").press("Enter")
