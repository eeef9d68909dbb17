"""A student's "My progress": their own growth in plain, encouraging words; never a
classmate's name or a comparison with the class."""

from html import unescape

import pytest
from django.urls import reverse

from reports.words import student_sentence

from .showing import evidence, flag, make_game, rollup, this_monday, weeks_ago

pytestmark = pytest.mark.django_db

URL = "/play/progress/"


def test_the_url_is_the_named_one():
    assert reverse("reports:my_progress") == URL


def test_empty_page_says_what_to_do(client, student):
    client.force_login(student)
    html = unescape(client.get(URL).content.decode())
    assert "Finish a game and come back" in html


def test_own_growth_in_encouraging_words(client, classroom, student, make_student):
    rollup(classroom, "so.lowest_operator", student=student, chances=30, misses=6)
    rollup(classroom, "so.lowest_operator", student=student, week=weeks_ago(1), chances=20, misses=5)
    rollup(classroom, "so.lowest_operator", student=student, week=this_monday(), chances=10, misses=1)
    rollup(classroom, "mg.missed_play", student=student, chances=20, misses=1)
    rollup(classroom, "mg.facts", student=student, detail="7x8", chances=3, misses=2)
    rollup(classroom, "mg.facts", student=student, detail="2x3", chances=4, misses=0)
    _, (move,) = make_game(classroom, student, key="multiplication", moves=1)
    move.analysis = {"kind": "discard", "fact": {"a": 7, "b": 8, "card": 54, "product": 56, "correct": False}}
    move.save()
    evidence(move, student, "mg.facts", missed=True, detail="7x8")
    client.force_login(student)
    html = unescape(client.get(URL).content.decode())
    assert student_sentence("so.lowest_operator", 6, 30) in html
    assert "You're getting better! Before: 15 of 20. In the last week played: 9 of 10." in html
    assert "You spotted a card to play 19 times out of 20." in html and "You're great at this!" in html
    assert "Facts to practise:" in html and "54 is 6 × 9 (you said 7 × 8)" in html
    assert "7 × 8: right 1 of 3 times" in html
    assert "/teach/" not in html  # no links into teacher pages


def test_no_classmate_and_no_ranking(client, classroom, student, make_student):
    ben = make_student(classroom, "Benedikt", ("boat", "star", "apple"))
    rollup(classroom, "so.lowest_operator", student=student, chances=10, misses=2)
    rollup(classroom, "so.lowest_operator", student=ben, chances=50, misses=49)
    rollup(classroom, "so.lowest_operator", chances=60, misses=51)  # the class
    rollup(classroom, "mg.facts", student=ben, detail="6x6", chances=5, misses=5)
    flag(classroom, ben)
    client.force_login(student)
    html = unescape(client.get(URL).content.decode())
    assert "8 times out of 10" in html
    assert "Benedikt" not in html and "6 × 6: right" not in html
    assert "Needs help" not in html  # the teacher's words, not a child's
    for word in ("class", "rank", "place", "than others", "average"):
        assert word not in html.lower().replace("class=", "").replace("classroom", ""), word


def test_student_home_links_to_my_progress(client, student):
    client.force_login(student)
    assert URL in client.get(reverse("classroom:student_home")).content.decode()


def test_class_page_links_to_skill_reports(client, teacher, classroom):
    client.force_login(teacher)
    html = client.get(reverse("classroom:class_detail", args=[classroom.pk])).content.decode()
    assert reverse("reports:dashboard", args=[classroom.pk]) in html and "Skill reports" in html
