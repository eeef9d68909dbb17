"""The replay in Chromium: axe-core finds nothing on it at a phone's width (390), a desk's
(1280) and a big screen's (1920), for a teacher and for the child who played, at the start of
the game (Start and Previous move cannot be used), in the middle (with the explained verdicts)
and at the end (Next move and End cannot be used; the board says the game is over). A step
that cannot be used is shown plainly (not faded below a readable contrast) and is no link:
the keyboard passes it by."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.test_arena_browser import axe_problems
from tests.browser.test_play_browser import signed_in_page
from tests.browser.test_reports_browser import finished_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def check_steps(page, problems: list[str], cannot_be_used: list[str]) -> None:
    """The step buttons shown as not usable now must be `cannot_be_used`, and none of them a
    link the keyboard reaches or that leads anywhere."""
    names = []
    for step in page.locator(".replay-steps .btn").all():
        name = " ".join(step.inner_text().replace("◀", "").replace("▶", "").split())
        if step.get_attribute("aria-disabled") == "true":
            names.append(name)
            focusable = step.evaluate("(el) => { el.focus(); return document.activeElement === el; }")
            if step.get_attribute("href") is not None or focusable:
                problems.append(f"{page.url}: {name!r} cannot be used, yet it is a link the keyboard reaches")
    if names != cannot_be_used:
        problems.append(f"{page.url}: shown as not usable: {names}, expected {cannot_be_used}")


def test_axe_finds_nothing_on_the_replay_at_every_width_at_its_start_middle_and_end(
        browser, live_daphne, classroom, student, teacher):
    game = finished_game(classroom, student, "smooth_operator", ["so.lowest_operator=0.5"], seed=4)
    last = game.moves.filter(accepted=True).count()
    replay = live_daphne + reverse("games:replay", args=[game.pk])
    problems: list[str] = []
    for who, user in (("the teacher", teacher), ("the child", student)):
        page = signed_in_page(browser, live_daphne, user)
        page.goto(f"{replay}?turn=0")
        expect(page.get_by_role("status").filter(has_text=f"Move 0 of {last}")).to_be_visible()
        problems += axe_problems(page, f"{who}'s replay at its start")
        check_steps(page, problems, ["Start", "Previous move"])

        page.goto(f"{replay}?turn={last // 2}")
        expect(page.get_by_role("status").filter(has_text=f"Move {last // 2} of {last}")).to_be_visible()
        problems += axe_problems(page, f"{who}'s replay in the middle")
        check_steps(page, problems, [])

        page.goto(f"{replay}?turn={last}")
        expect(page.locator(".so-turn")).to_have_text("The game is over.")
        problems += axe_problems(page, f"{who}'s replay at its end")
        check_steps(page, problems, ["Next move", "End"])
        page.context.close()
    assert not problems, "\n".join(problems)
