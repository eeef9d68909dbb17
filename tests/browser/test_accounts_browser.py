"""A teacher signs up and out; a student signs in with pictures; a wrong try shows the message."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_teacher_signs_up_and_signs_out(page, live_daphne):
    page.goto(live_daphne + "/")
    page.get_by_role("link", name="I'm a teacher").click()
    page.get_by_role("link", name="Create a teacher account").click()
    page.get_by_label("Your name").fill("Mr Okafor")
    page.get_by_label("School e-mail").fill("okafor@school.test")
    page.get_by_label("Password", exact=True).fill("a-long-password-1")
    page.get_by_label("Password again").fill("a-long-password-1")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_text("Welcome to Numberdeck, Mr Okafor!")).to_be_visible()
    expect(page.get_by_role("heading", name="My classes")).to_be_visible()
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_text("You are signed out")).to_be_visible()
    expect(page.get_by_role("link", name="Teacher sign-in")).to_be_visible()


def start_join(page, base, code="ABC234", name="Ann"):
    page.goto(base + "/join/")
    page.get_by_label("Class code").fill(code.lower())
    page.get_by_label("Class code").press("Enter")  # keyboard works: Enter submits
    page.get_by_role("link", name=name).click()


def test_student_signs_in_with_picture_password(page, live_daphne, student):
    start_join(page, live_daphne)
    expect(page.get_by_role("heading", name="Hi Ann! Tap your 3 pictures")).to_be_visible()
    go = page.get_by_role("button", name="Go!")
    expect(go).to_be_disabled()
    # Keyboard only: focus each picture and press Enter. The pictures are offered (enabled)
    # only once a tap counts.
    for label in ("Cat", "Sun", "Tree"):
        picture = page.get_by_role("button", name=label, exact=True)
        expect(picture).to_be_enabled()
        picture.focus()
        page.keyboard.press("Enter")
    expect(go).to_be_enabled()
    expect(go).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Hi Ann!")).to_be_visible()
    expect(page.get_by_role("heading", name="My assignments")).to_be_visible()


def test_wrong_picture_password_shows_the_message(page, live_daphne, student):
    start_join(page, live_daphne)
    for label in ("Cat", "Sun", "Moon"):
        page.get_by_role("button", name=label, exact=True).click()
    page.get_by_role("button", name="Go!").click()
    expect(page.get_by_role("alert")).to_contain_text("That wasn't quite right. Have another go!")
    page.get_by_role("button", name="Start again").click()
    expect(page.get_by_role("button", name="Go!")).to_be_disabled()


def test_a_child_in_two_classes_signs_in_through_either_and_switches_by_keyboard(
        page, live_daphne, student, other_classroom):
    from classroom.services import membership_join

    membership_join(student=student, classroom=other_classroom)
    start_join(page, live_daphne, code="XYZ789")
    for label in ("Cat", "Sun", "Tree"):
        page.get_by_role("button", name=label, exact=True).click()
    page.get_by_role("button", name="Go!").click()
    expect(page.get_by_text("You are playing in Other class.")).to_be_visible()
    switch = page.get_by_role("button", name="Play in Class 5B")
    switch.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_text("You are playing in Class 5B.")).to_be_visible()
    expect(page.get_by_role("button", name="Play in Other class")).to_be_visible()
