"""Forms htmx sends ({% sends_once %}, docs/live.md "Forms"), as a teacher and a child use them:
a form that arrived over the socket (no token of its own) is accepted; a sent form shows
"Working…", its button is disabled until the answer comes, and a second tap sends nothing; a
form's errors come back on its own page (a 400 too) at its own address; and Back to a page
whose form sent the browser on shows that page as it is now."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from classroom.selectors import students_of_class
from games.models import Game
from games.services.tables import table_open
from reports.models import RecomputeJob
from tests.browser.conftest import off_the_loop
from tests.browser.test_play_browser import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_lobby_button_pushed_over_the_socket_starts_the_game(browser, live_daphne, classroom, student,
                                                                 make_student):
    classroom.free_play = True
    classroom.save(update_fields=["free_play"])
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    lobby = off_the_loop(table_open, student=student, key="smooth_operator")
    page = signed_in_page(browser, live_daphne, student)
    page.goto(live_daphne + reverse("games:lobby", args=[lobby.pk]))
    expect(page.locator("[data-connection]")).to_have_text("Connected")
    # Ben types the table's code on his page (a form htmx sends, too).
    ben_page = signed_in_page(browser, live_daphne, ben)
    ben_page.goto(live_daphne + reverse("classroom:student_home"))
    ben_page.get_by_label("Have a table code?").fill(lobby.table_code)
    ben_page.get_by_label("Have a table code?").press("Enter")
    expect(ben_page.get_by_text("Ann starts the game when everyone is here")).to_be_visible()
    expect(page.locator(".seat-list").get_by_text("Ben", exact=True)).to_be_visible()
    # The Start form now on the page came in the push: rendered with no request, it has no
    # CSRF field; htmx sends the page's token with it.
    assert page.locator("form.start-form input[name=csrfmiddlewaretoken]").count() == 0
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(f"**/game/{lobby.pk}/")
    assert Game.objects.get(pk=lobby.pk).status == Game.Status.ACTIVE


def test_a_sent_form_says_working_and_a_second_tap_sends_nothing(browser, live_daphne, teacher, classroom):
    page = signed_in_page(browser, live_daphne, teacher)
    page.goto(live_daphne + reverse("reports:exports", args=[classroom.pk]))
    held = []
    page.route("**" + reverse("reports:exports", args=[classroom.pk]),
               lambda route: held.append(route) if route.request.method == "POST" else route.continue_())
    make = page.get_by_role("button", name="Make the file")
    expect(page.locator("#sending")).to_be_hidden()
    make.click()
    expect(make).to_be_disabled()
    expect(page.locator("#sending")).to_be_visible()
    expect(page.locator("#sending")).to_have_text("Working…")
    make.click(force=True)  # a second tap on the disabled button
    page.wait_for_function("() => document.querySelector('#sending').classList.contains('htmx-request')")
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_url("**/jobs/**")
    expect(page.locator("#sending")).to_be_hidden()
    assert RecomputeJob.objects.filter(classroom=classroom, kind="export").count() == 1

    # Back: the downloads page as it is now (the new file listed), its button ready again.
    page.unroute("**" + reverse("reports:exports", args=[classroom.pk]))
    page.go_back()
    expect(page.get_by_role("heading", name="Recent files")).to_be_visible()
    expect(page.get_by_role("button", name="Make the file")).to_be_enabled()
    expect(page.locator("#sending")).to_be_hidden()


def test_a_wrong_arena_code_is_said_on_the_join_page(browser, live_daphne, student):
    page = signed_in_page(browser, live_daphne, student)
    join = live_daphne + reverse("arena:join")
    page.goto(join)
    page.get_by_label("Type the arena code from the big screen").fill("ZZZZZZ")
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.get_by_role("alert")).to_be_visible()  # the answer is a 400: htmx swaps it in
    assert page.url == join
    expect(page.get_by_role("button", name="Join", exact=True)).to_be_enabled()
    expect(page.get_by_label("Type the arena code from the big screen")).to_have_value("ZZZZZZ")


def test_a_teachers_form_with_errors_stays_at_its_address(browser, live_daphne, teacher, classroom):
    page = signed_in_page(browser, live_daphne, teacher)
    add = live_daphne + reverse("classroom:students_add", args=[classroom.pk])
    page.goto(add)
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator(".errorlist, [role=alert]").first).to_be_visible()
    assert page.url == add
    page.get_by_label("Student's name").fill("Zoe")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.get_by_text("Zoe added")).to_be_visible()
    assert [s.display_name for s in students_of_class(classroom=classroom)] == ["Zoe"]
