"""Report sentences as a parent and a child read them.

- A sentence about a named student never says "you" or "your" ("Ava took as many cards as you
  could"), and the child's own "You …" sentence never says "their": every measure's
  `well_words` reads right after a name and after "You".
- "Facts to practise" names the card the child needed and what they said for it
  ("12 is 2 × 6 or 3 × 4 (you said 4 × 1)"), never the fact they said as if it were the one to
  learn ("4 × 1 = 4"). The heat map counts facts as declared; the card comes from the move's
  analysis, and a move that did not record it says less.
"""

import io
import re
from html import unescape

import pytest
from django.urls import reverse
from pypdf import PdfReader

from reports import selectors
from reports.measures import all_measures
from reports.words import fact_to_practise, student_sentence, table_ways
from tests.toy.skills import SKILLS as TOY_SKILLS

from .showing import evidence, make_game, rollup

pytestmark = pytest.mark.django_db

SECOND_PERSON = re.compile(r"\b(you|your|yours|yourself)\b", re.IGNORECASE)
THIRD_PERSON = re.compile(r"\b(their|theirs|them|they|his|her|hers|she|he)\b", re.IGNORECASE)


def pdf_text(data: bytes) -> str:
    """The PDF's words on one line each sentence would be on, whitespace joined."""
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split())


# ----- the measures' words, after a name and after "You" -------------------------------------

# Every registered game's measures, and the toy game's (a game copied from it starts with its words).
@pytest.mark.parametrize("measure", [m for m in (*all_measures(), *TOY_SKILLS.measures) if m.has_misses],
                         ids=lambda m: m.id)
def test_every_measure_reads_right_about_a_named_student_and_to_the_student(measure):
    about_ava = student_sentence(measure, 2, 5, who="Ava")
    to_ava = student_sentence(measure, 2, 5)
    assert about_ava.startswith("Ava ") and not SECOND_PERSON.search(about_ava), about_ava
    assert to_ava.startswith("You ") and not THIRD_PERSON.search(to_ava), to_ava


def test_a_measure_reads_as_plain_sentences_about_and_to_a_student():
    assert student_sentence("nu.best_take", 1, 4, who="Ava") == "Ava took as many cards as possible 3 times out of 4."
    assert student_sentence("nu.best_take", 1, 4) == "You took as many cards as possible 3 times out of 4."
    assert student_sentence("mg.missed_play", 0, 1, who="Ava") == "Ava spotted a card to play once out of 1."


def test_the_parent_pdf_never_says_you_about_the_child(client, teacher, classroom, make_student):
    ava = make_student(classroom, "Ava")
    for measure in ("nu.best_take", "nu.missed_take", "mg.missed_play", "mg.facts", "so.lowest_operator"):
        rollup(classroom, measure, student=ava, chances=10, misses=3)
    client.force_login(teacher)
    text = pdf_text(client.get(reverse("reports:student_pdf", args=[classroom.pk, ava.pk])).content)
    assert "Ava took as many cards as possible 7 times out of 10." in text
    assert "Ava spotted a card to play 7 times out of 10." in text
    about_ava = [s for s in re.split(r"(?<=[.!?])\s+", text) if "Ava" in s]
    assert len(about_ava) >= 5
    assert not [s for s in about_ava if SECOND_PERSON.search(s)]


def test_my_progress_says_you(client, classroom, student):
    rollup(classroom, "nu.best_take", student=student, chances=10, misses=3)
    client.force_login(student)
    html = unescape(client.get("/play/progress/").content.decode())
    assert "You took as many cards as possible 7 times out of 10." in html


# ----- the facts to practise ----------------------------------------------------------------

def test_the_ways_of_making_a_card_in_the_tables():
    assert table_ways(12) == [(2, 6), (3, 4)]
    assert table_ways(49) == [(7, 7)]
    assert table_ways(7) == [(1, 7)]
    assert table_ways(11) == []


def test_a_card_to_practise_in_words():
    assert fact_to_practise(12, [(4, 1)]) == "12 is 2 × 6 or 3 × 4 (you said 4 × 1)"
    assert fact_to_practise(12, [(4, 1), (5, 2)], who="Ava") == "12 is 2 × 6 or 3 × 4 (Ava said 4 × 1 and 5 × 2)"
    # The card was not recorded: only what was said, and that it was not what the card needed.
    assert fact_to_practise(None, [(7, 8)]) == "You said 7 × 8 for a card that was not 56"
    assert fact_to_practise(None, [(7, 8)], who="Ava") == "Ava said 7 × 8 for a card that was not 56"


def declared(classroom, student, said: tuple[int, int], card, *, missed: bool):
    """One fact named for `card` in a game of its own, with its evidence row (what the
    analysis task writes; the roll-ups are made by the test)."""
    _, (move,) = make_game(classroom, student, key="multiplication", moves=1)
    a, b = said
    fact = {"a": a, "b": b, "product": a * b, "correct": not missed}
    if card is not None:
        fact["card"] = card
    move.analysis = {"kind": "discard", "fact": fact}
    move.save()
    evidence(move, student, "mg.facts", missed=missed, detail=f"{a}x{b}")


@pytest.fixture
def ava_facts(classroom, make_student):
    """Ava named 4 × 1 three times: right twice for a 4, wrong once for a 12; she named 3 × 4
    right for a 12 once; 6 × 9 wrong twice for a 56 (never right); and 2 × 2 wrong once
    where the move did not record the card."""
    ava = make_student(classroom, "Ava")
    for said, card, missed in [((4, 1), 4, False), ((4, 1), 4, False), ((4, 1), 12, True),
                               ((3, 4), 12, False), ((6, 9), 56, True), ((6, 9), 56, True),
                               ((2, 2), None, True)]:
        declared(classroom, ava, said, card, missed=missed)
    for detail, chances, misses in [("4x1", 3, 1), ("3x4", 1, 0), ("6x9", 2, 2), ("2x2", 1, 1)]:
        rollup(classroom, "mg.facts", student=ava, detail=detail, chances=chances, misses=misses)
    rollup(classroom, "mg.facts", student=ava, chances=7, misses=4)
    return ava


def test_the_cards_to_practise_are_the_cards_she_needed(classroom, ava_facts):
    grid = selectors.fact_grid(classroom=classroom, student=ava_facts)
    assert [(m.card, m.said, m.wrong, m.right) for m in grid.missed] == [
        (56, ((6, 9),), 2, 0),   # never right: first
        (12, ((4, 1),), 1, 1),   # the 12 she named right once (3 × 4)
        (None, ((2, 2),), 1, 0),  # the card was not recorded: last
    ]
    own = selectors.own_progress(student=ava_facts).facts
    assert own.missed == grid.missed


def test_my_progress_shows_the_card_and_what_she_said(client, classroom, ava_facts):
    client.force_login(ava_facts)
    html = unescape(client.get("/play/progress/").content.decode())
    practise = html[html.index("Facts to practise:"):]
    practise = practise[:practise.index("</ul>")]
    assert "56 is 7 × 8 (you said 6 × 9)" in practise
    assert "12 is 2 × 6 or 3 × 4 (you said 4 × 1)" in practise
    assert "You said 2 × 2 for a card that was not 4" in practise
    assert "4 × 1 = 4" not in html and "= 54" not in html


def test_the_parent_pdf_shows_the_card_and_what_she_said(client, teacher, classroom, ava_facts):
    client.force_login(teacher)
    text = pdf_text(client.get(reverse("reports:student_pdf", args=[classroom.pk, ava_facts.pk])).content)
    assert ("Good facts to practise together: 56 is 7 × 8 (Ava said 6 × 9); "
            "12 is 2 × 6 or 3 × 4 (Ava said 4 × 1); Ava said 2 × 2 for a card that was not 4.") in text
    assert "4 × 1 = 4" not in text
