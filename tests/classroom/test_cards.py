"""Printable sign-in cards: the page and the PDF, 8 cards per page, A4 or Letter."""

import io
from urllib.parse import urlencode

import pytest
import segno
from django.urls import reverse
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4, LETTER

from classroom import services
from classroom.roster_input import Row

pytestmark = pytest.mark.django_db


def add_students(classroom, count):
    return services.students_add(classroom=classroom,
                                 rows=[Row(n, f"Pupil {n:02d}") for n in range(1, count + 1)])


def pdf(client, classroom, paper=None) -> PdfReader:
    query = {"paper": paper} if paper else {}
    response = client.get(reverse("classroom:sign_in_cards_pdf", args=[classroom.pk]), query)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return PdfReader(io.BytesIO(response.content))


def test_25_students_make_4_a4_pages_with_every_name_and_the_class_code(signed_in, classroom):
    add_students(classroom, 25)
    reader = pdf(signed_in, classroom)
    assert len(reader.pages) == 4
    texts = [page.extract_text() for page in reader.pages]
    assert [sum(f"Pupil {n:02d}" in t for n in range(1, 26)) for t in texts] == [8, 8, 8, 1]
    assert all("ABC234" in t for t in texts)
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (round(A4[0]), round(A4[1]))


def test_letter_paper_and_the_pictures_words(signed_in, classroom, student):
    reader = pdf(signed_in, classroom, paper="letter")
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (round(LETTER[0]), round(LETTER[1]))
    page_text = reader.pages[0].extract_text()
    assert "Ann" in page_text
    assert page_text.index("Cat") < page_text.index("Sun") < page_text.index("Tree")


def test_names_with_markup_and_accents_are_printed_as_written(signed_in, classroom, make_student):
    make_student(classroom, "<script>Zoë</script>")
    assert "<script>Zoë</script>" in pdf(signed_in, classroom).pages[0].extract_text()


def test_an_unknown_paper_size_falls_back_to_a4(signed_in, classroom, student):
    box = pdf(signed_in, classroom, paper="tabloid").pages[0].mediabox
    assert round(float(box.height)) == round(A4[1])


def test_the_page_shows_each_card_with_a_qr_code_for_the_students_join_link(signed_in, classroom, student):
    response = signed_in.get(reverse("classroom:sign_in_cards", args=[classroom.pk]))
    page = response.content.decode()
    link = "http://testserver/join/?" + urlencode({"class": "ABC234", "student": student.pk})
    assert segno.make(link, error="m").svg_inline(scale=3, border=4) in page
    assert 'aria-label="Sign-in card for Ann"' in page and "ABC234" in page
    for label in ("Cat", "Sun", "Tree"):
        assert f"<span>{label}</span>" in page


def test_the_qr_link_only_preselects_the_student(client, classroom, student):
    response = client.get(reverse("classroom:join"), {"class": "ABC234", "student": student.pk}, follow=True)
    assert "Hi Ann! Tap your 3 pictures" in response.content.decode()
    assert not response.wsgi_request.user.is_authenticated


def test_a_class_without_students_says_so(signed_in, classroom):
    page = signed_in.get(reverse("classroom:sign_in_cards", args=[classroom.pk])).content.decode()
    assert "No students yet, so no cards." in page
    assert "This class has no students yet." in pdf(signed_in, classroom).pages[0].extract_text()
