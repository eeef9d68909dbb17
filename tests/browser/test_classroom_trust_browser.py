"""Safeguards for a shared class and a user's sessions, in Chromium: what a co-teacher sees instead of
archive, restore and delete; a forwarded invitation; "Sign out everywhere else" by keyboard.
Each page passes axe (the journey test's check)."""

import pytest
from playwright.sync_api import expect

from classroom.services import classroom_archive, co_teacher_invite
from tests.browser.test_class_journey_browser import AXE_JS, add_axe, axe_lines

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OWNER_ONLY = "Only Ms Rivera, who created the class, can archive, restore or delete it."


def sign_in(page, base, email):
    page.goto(base + "/teacher/sign-in/")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill("correct-horse-42")
    page.get_by_label("Password").press("Enter")
    page.wait_for_url(lambda url: "sign-in" not in url)


def axe_problems(page) -> list[str]:
    add_axe(page)
    return axe_lines(page.evaluate(AXE_JS))


def test_a_co_teacher_sees_who_may_archive_and_a_forwarded_invitation(page, live_daphne, teacher, co_teacher,
                                                                     classroom, make_classroom):
    tokens = []  # an invitation to another class of Ms Rivera's, forwarded to Ms Co
    co_teacher_invite(classroom=make_classroom(teacher, name="Class 6A"), invited_by=teacher,
                      email="friend@school.test",
                      link_for=lambda token: tokens.append(token) or token)
    old = make_classroom(teacher, name="Old class")
    old.teachers.add(co_teacher)
    classroom_archive(classroom=old)
    sign_in(page, live_daphne, "co@school.test")
    problems = []
    for path in (f"/teach/classes/{classroom.pk}/edit/", "/teach/classes/archived/",
                 f"/teach/classes/{old.pk}/"):
        page.goto(live_daphne + path)
        expect(page.get_by_text(OWNER_ONLY)).to_be_visible()
        expect(page.get_by_role("link", name="Delete permanently…")).to_have_count(0)
        expect(page.get_by_role("button", name="Restore the class")).to_have_count(0)
        problems += [f"{path}: {line}" for line in axe_problems(page)]
    page.goto(f"{live_daphne}/teach/invite/{tokens[0]}/")
    expect(page.get_by_role("alert")).to_have_text(
        "This invitation was sent to f***@school.test. Sign in with that address, "
        "or ask the teacher to invite you.")
    expect(page.get_by_role("button", name="Accept and co-teach")).to_have_count(0)
    problems += [f"invite: {line}" for line in axe_problems(page)]
    assert not problems, "\n".join(problems)


def test_sign_out_everywhere_else_by_keyboard(page, live_daphne, teacher):
    sign_in(page, live_daphne, "rivera@school.test")
    page.goto(live_daphne + "/teacher/profile/")
    assert not axe_problems(page)
    button = page.get_by_role("button", name="Sign out everywhere else")
    button.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_text("You are signed out on every other device. This one stays signed in.")).to_be_visible()
    expect(page.get_by_role("heading", name="Your profile")).to_be_visible()  # still signed in
