"""A teacher's first lesson, in Chromium: create a class, paste 25 names, print the sign-in
cards, set an assignment; then a student signs in with pictures and finds the assignment."""

import io

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from accounts import pictures
from accounts.models import User
from classroom.models import Classroom
from classroom.presets import presets_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [f"Pupil {n:02d}" for n in range(1, 26)]


def test_teacher_sets_up_a_class_and_a_student_finds_the_assignment(page, browser, live_daphne, teacher):
    # Sign in.
    page.goto(live_daphne + "/teacher/sign-in/")
    page.get_by_label("E-mail").fill("rivera@school.test")
    page.get_by_label("Password").fill("correct-horse-42")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="No classes yet")).to_be_visible()

    # 1. Create a class.
    page.get_by_role("link", name="Create your first class").click()
    page.get_by_label("Class name").fill("5B Maths")
    page.get_by_label("Grade or year (optional)").fill("5")
    page.get_by_role("button", name="Create the class").click()
    expect(page.get_by_role("heading", name="5B Maths")).to_be_visible()
    expect(page.get_by_text("No students yet")).to_be_visible()
    classroom = Classroom.objects.get(name="5B Maths")

    # 2. Paste 25 names.
    page.get_by_role("link", name="Add students").first.click()
    page.get_by_label("Names, one per line").fill("\n".join(NAMES))
    page.get_by_role("button", name="Add these students").click()
    expect(page.get_by_text("25 students added; the class has 25 students.")).to_be_visible()
    expect(page.locator("table.roster tbody tr")).to_have_count(25)

    # 3. The sign-in cards: the printable page shows every card; the PDF has 4 pages of 8.
    page.get_by_role("link", name="Sign-in cards").click()
    expect(page.get_by_role("heading", name="Sign-in cards")).to_be_visible()
    expect(page.locator("article.sign-in-card")).to_have_count(25)
    expect(page.get_by_role("article", name="Sign-in card for Pupil 25")).to_contain_text(classroom.join_code)
    page.get_by_label("Paper size").select_option("letter")
    pdf_url = f"{live_daphne}/teach/classes/{classroom.pk}/cards.pdf?paper=letter"
    response = page.request.get(pdf_url)  # shares the signed-in browser context's cookies
    assert response.ok and response.headers["content-type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.body()))
    assert len(reader.pages) == 4
    text = "".join(p.extract_text() for p in reader.pages)
    assert all(name in text for name in NAMES)
    with page.expect_response(lambda r: "cards.pdf" in r.url) as opened:
        page.get_by_role("button", name="Open the PDF").click()
    assert opened.value.status == 200 and opened.value.headers["content-type"] == "application/pdf"

    # 4. An assignment: picking Numero swaps in its levels (htmx), then the form is sent.
    page.goto(f"{live_daphne}/teach/classes/{classroom.pk}/")
    page.get_by_role("link", name="New assignment").first.click()
    numero_levels = [p["label"] for p in presets_for("numero").values()]
    page.get_by_label("Game", exact=True).select_option("numero")
    expect(page.get_by_label("Level", exact=True)).to_contain_text(numero_levels[-1])
    page.get_by_label("Level", exact=True).select_option(label=numero_levels[2])
    page.get_by_label("How many computer players at the table").fill("2")
    page.get_by_label("How many games (or wins)").fill("4")
    page.get_by_label("Title (optional)").fill("Subtraction week")
    page.get_by_role("button", name="Set the assignment").click()
    expect(page.get_by_text("“Subtraction week” is set.")).to_be_visible()
    expect(page.locator("table.roster thead")).to_contain_text("Subtraction week")

    # 5. A student signs in with the pictures on their card and sees the assignment.
    pupil = User.objects.get(memberships__classroom=classroom, display_name="Pupil 07")
    student_page = browser.new_context().new_page()
    student_page.goto(live_daphne + "/join/")
    student_page.get_by_label("Class code").fill(classroom.join_code)
    student_page.get_by_label("Class code").press("Enter")
    student_page.get_by_role("link", name="Pupil 07").click()
    for label in pictures.labels(pupil.picture_sequence):
        student_page.get_by_role("button", name=label, exact=True).click()
    student_page.get_by_role("button", name="Go!").click()
    expect(student_page.get_by_role("heading", name="Hi Pupil 07!")).to_be_visible()
    assignment_card = student_page.locator(".student-assignment", has_text="Subtraction week")
    expect(assignment_card).to_contain_text("0 of 4 games")
    assignment_card.get_by_role("link", name="Play Subtraction week").click()
    student_page.get_by_role("button", name="Start the game").click()
    expect(student_page.get_by_role("heading", name="Numero")).to_be_visible()
    expect(student_page.locator("#table-status")).to_contain_text("Your turn")


def test_removing_a_student_asks_first_and_works_by_keyboard(page, live_daphne, teacher, classroom, student):
    page.goto(live_daphne + "/teacher/sign-in/")
    page.get_by_label("E-mail").fill("rivera@school.test")
    page.get_by_label("Password").fill("correct-horse-42")
    page.get_by_label("Password").press("Enter")
    page.goto(f"{live_daphne}/teach/students/{student.pk}/")
    page.get_by_role("link", name="Remove from the class…").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Remove Ann from “Class 5B”?")).to_be_visible()
    # The safe choice has the focus; the destructive one is one Shift+Tab away.
    expect(page.get_by_role("link", name="Cancel, go back")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(page.get_by_role("button", name="Remove from the class")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_text("Ann is no longer in Class 5B.")).to_be_visible()
    expect(page.get_by_text("No students yet")).to_be_visible()
