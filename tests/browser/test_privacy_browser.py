"""A teacher downloads a student's data and erases it, by keyboard, in Chromium: the zip
arrives with its README and files, the erase page says what will go and asks for the name,
and afterwards the classmate's shared game shows "a former student". axe-core finds nothing
on the erase page or on the class page after it."""

import io
import re
import zipfile

import pytest
from playwright.sync_api import expect

from accounts.models import User
from devtools.planted import PlantedPlayer
from devtools.simulation import play_game
from games.models import Seat
from games.services import SeatSpec, game_create
from tests.browser.conftest import off_the_loop
from tests.arena.conftest import play_to_end
from tests.browser.test_arena_browser import run_axe
from tests.browser.test_class_journey_browser import add_axe, axe_lines
from tests.browser.test_reports_browser import eager_here

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def axe_clean(page) -> None:
    add_axe(page)
    assert axe_lines(run_axe(page)) == [], page.url


def test_teacher_downloads_and_erases_a_students_data_by_keyboard(page, live_daphne, teacher, classroom,
                                                                  student, make_student):
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))

    def games():
        with eager_here():
            play_game(key="multiplication", classroom=classroom, student=student, seed=3,
                      player=PlantedPlayer([]))
            game = game_create(key="smooth_operator", classroom=classroom, seed=9,
                               options={"target": 200},
                               seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)])
            return play_to_end(game)

    shared = off_the_loop(games)

    page.goto(live_daphne + "/teacher/sign-in/")
    page.get_by_label("E-mail").fill("rivera@school.test")
    page.get_by_label("Password").fill("correct-horse-42")
    page.get_by_label("Password").press("Enter")
    page.wait_for_url(re.compile(r"/teach/$"))
    page.goto(f"{live_daphne}/teach/students/{student.pk}/")

    # Download: the link, then Enter.
    page.get_by_role("link", name="Download Ann's data").focus()
    with page.expect_download() as info:
        page.keyboard.press("Enter")
    assert re.fullmatch(r"numberdeck-ann-\d+-\d{4}-\d\d-\d\d\.zip", info.value.suggested_filename)
    with zipfile.ZipFile(io.BytesIO(open(info.value.path(), "rb").read())) as archive:
        names = set(archive.namelist())
        readme = archive.read("README.txt").decode()
    assert {"README.txt", "moves.csv", "moves.json", "games.csv", "skill_evidence.csv"} <= names
    assert "What Numberdeck holds about Ann" in readme

    # Erase: the page names what will go and asks for the name.
    page.get_by_role("link", name="Erase Ann's data…").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Erase everything about Ann?")).to_be_visible()
    expect(page.locator("#erase-counts")).to_contain_text(re.compile(r"\d+ moves"))
    expect(page.locator("#erase-counts")).to_contain_text("2 games played")
    axe_clean(page)
    field = page.get_by_label("Type the student's name to confirm")
    field.focus()
    page.keyboard.type("Bob")  # a wrong name: refused, nothing erased
    page.keyboard.press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("That is not the student's name.")
    assert User.objects.filter(pk=student.pk).exists()
    field.fill("")
    field.focus()
    page.keyboard.type("Ann")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Erase for good")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf"/teach/classes/{classroom.pk}/$"))
    expect(page.get_by_text(re.compile(r"Ann's data is erased: .*moves"))).to_be_visible()
    axe_clean(page)

    assert not User.objects.filter(pk=student.pk).exists()
    assert sorted(Seat.objects.filter(game=shared).values_list("name", flat=True)) == ["Ben", "a former student"]
