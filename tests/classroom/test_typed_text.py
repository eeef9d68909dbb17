"""Names and titles a teacher types (a student's name, a class's name and grade, an assignment's
or an arena's title, their own name) refuse invisible control characters with one rule and one
message: a right-to-left override (U+202E) would turn the words after it around wherever the
text is shown. A refused form changes nothing and says why."""

from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.typed_text import has_hidden_characters
from arena.models import Arena
from arena.services import arena_create, arena_join
from classroom.models import Assignment, Classroom
from classroom.services import co_teacher_invite
from privacy.retention import retention_run
from tests.arena.test_teacher_views import new_arena_data
from tests.classroom.helpers import assignment_of
from tests.classroom.test_assignments import form_data
from tests.conftest import classroom_of, members

pytestmark = pytest.mark.django_db

# A right-to-left override, an isolate, an embedding, a pop, a left-to-right mark, a NUL.
HIDDEN = ["\u202e", "\u2067", "\u202b", "\u202c", "\u200e", "\x00"]
MESSAGE = "It has characters that cannot be shown (control characters, such as ones that turn text around)."


def refused(response) -> bool:
    return response.status_code == 200 and MESSAGE in response.content.decode()


@pytest.mark.parametrize("hidden", HIDDEN)
def test_a_class_name_or_grade_with_a_control_character_is_refused(signed_in, classroom, hidden):
    before = list(Classroom.objects.values_list("pk", "name", "grade"))
    assert refused(signed_in.post(reverse("classroom:class_create"), {"name": f"5B{hidden} Maths", "grade": "5"}))
    assert refused(signed_in.post(reverse("classroom:class_create"), {"name": "5B Maths", "grade": f"{hidden}5"}))
    assert refused(signed_in.post(reverse("classroom:class_edit", args=[classroom.pk]),
                                  {"name": f"{hidden}5B", "grade": "5"}))
    assert list(Classroom.objects.values_list("pk", "name", "grade")) == before


@pytest.mark.parametrize("hidden", HIDDEN)
def test_an_assignment_title_with_a_control_character_is_refused(signed_in, classroom, hidden):
    create = reverse("classroom:assignment_create", args=[classroom.pk])
    assert refused(signed_in.post(create, form_data(title=f"Fractions{hidden} week")))
    assert not Assignment.objects.exists()
    assert signed_in.post(create, form_data(title="Fractions week")).status_code == 302
    assignment = Assignment.objects.get()
    edit = reverse("classroom:assignment_edit", args=[assignment.pk])
    assert refused(signed_in.post(edit, form_data(title=f"{hidden}Fractions")))
    assignment.refresh_from_db()
    assert assignment.title == "Fractions week"


@pytest.mark.parametrize("hidden", HIDDEN)
def test_an_arena_title_with_a_control_character_is_refused(signed_in, classroom, hidden):
    response = signed_in.post(reverse("arena:new", args=[classroom.pk]),
                              new_arena_data(classroom, title=f"Friday{hidden} arena"))
    assert refused(response) and not Arena.objects.exists()


def test_a_teachers_own_name_with_a_control_character_is_refused(client, teacher):
    client.force_login(teacher)
    response = client.post(reverse("accounts:teacher_profile"), {"name": "Ms \u202eRivera", "email": teacher.email})
    assert refused(response)
    teacher.refresh_from_db()
    assert teacher.display_name == "Ms Rivera"
    client.logout()
    response = client.post(reverse("accounts:teacher_signup"), {
        "name": "\u202eMr New", "email": "new@school.test", "password": "long-enough-pass",
        "password_again": "long-enough-pass"})
    assert refused(response) and not User.objects.filter(email="new@school.test").exists()


def test_a_students_name_is_refused_by_the_same_rule_with_the_same_words(signed_in, classroom):
    response = signed_in.post(reverse("classroom:students_add", args=[classroom.pk]), {"name": "Ann\u202e"})
    assert refused(response)
    assert not members(classroom).exists()


@pytest.mark.parametrize("language, words", [
    ("es", "Tiene caracteres que no se pueden mostrar (caracteres de control, como los que invierten el texto)."),
    ("ar", "يحتوي على رموز لا يمكن عرضها (رموز تحكم، مثل التي تقلب اتجاه النص)."),
])
def test_the_refusal_is_said_in_the_teachers_language(signed_in, teacher, language, words):
    User.objects.filter(pk=teacher.pk).update(language=language)
    response = signed_in.post(reverse("classroom:class_create"), {"name": "5B\u202e", "grade": ""})
    assert response.status_code == 200 and words in response.content.decode()


def test_words_and_names_in_any_script_are_welcome(signed_in, classroom):
    response = signed_in.post(reverse("classroom:class_edit", args=[classroom.pk]),
                              {"name": "الصف ٥ب – Maths", "grade": "5º"})
    assert response.status_code == 302
    classroom.refresh_from_db()
    assert classroom.name == "الصف ٥ب – Maths"


# ----- Text saved before the rule is shown isolated from the words around it -----------------

OVERRIDE = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: what follows it reads backwards, unless isolated


class Unisolated(HTMLParser):
    """Text holding a hidden character that sits next to other text in its paragraph (its
    nearest block: a heading, a paragraph, a list item, a cell, a button) with no <bdi> or
    dir="auto" element keeping it to itself. Alone in its block it turns nothing else around.
    The page's <title> is aside: it cannot hold markup."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
    BLOCKS = {"html", "head", "body", "title", "main", "header", "footer", "nav", "section", "article",
              "aside", "div", "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd",
              "table", "caption", "thead", "tbody", "tr", "td", "th", "form", "fieldset", "legend",
              "details", "summary", "figure", "figcaption", "blockquote", "pre", "button", "option",
              "select", "textarea", "svg", "template"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open: list[dict] = []
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.open.append({"tag": tag, "isolates": tag == "bdi" or dict(attrs).get("dir") == "auto",
                              "texts": [], "risky": []})

    def handle_endtag(self, tag):
        while self.open:
            element = self.open.pop()
            if element["tag"] in self.BLOCKS:
                whole = " ".join("".join(element["texts"]).split())
                self.found += [f"<{element['tag']}>{whole}</{element['tag']}>" for text in element["risky"]
                               if " ".join(text.split()) != whole]
            if element["tag"] == tag:
                break

    def handle_data(self, data):
        block = next((e for e in reversed(self.open) if e["tag"] in self.BLOCKS), None)
        if block is None:
            return
        block["texts"].append(data)
        isolated = any(e["isolates"] or e["tag"] == "title" for e in self.open)
        if has_hidden_characters(data) and not isolated:
            block["risky"].append(data)


def unisolated(page: str) -> list[str]:
    parser = Unisolated()
    parser.feed(page)
    return parser.found


@pytest.fixture
def saved_before_the_rule(teacher, classroom, student, make_teacher):
    """A class, an assignment and an arena whose names hold a right-to-left override (saved
    before the rule refused it), Ann in the class, joined to the arena; an archived class of
    the same kind about to be erased (its warning on the teacher's home), and a teacher invited
    to co-teach the class."""
    Classroom.objects.filter(pk=classroom.pk).update(name=f"{OVERRIDE}Class 5B")
    classroom.refresh_from_db()
    assignment = assignment_of(classroom, created_by=teacher, title=f"{OVERRIDE}Fractions week")
    arena = arena_create(teacher=teacher, classroom=classroom, title=f"{OVERRIDE}Friday arena",
                         key="smooth_operator", options={"target": 200}, minutes=10, mode="points")
    arena_join(student=student, arena_id=arena.pk)
    old = classroom_of(teacher, name=f"{OVERRIDE}Old class")
    Classroom.objects.filter(pk=old.pk).update(archived_at=timezone.now() - timedelta(days=360))
    assert retention_run()["warned"] == 1
    tokens = []
    co_teacher_invite(classroom=classroom, invited_by=teacher, email="new@school.test",
                      link_for=lambda token: tokens.append(token) or token)
    return {"classroom": classroom, "assignment": assignment, "arena": arena, "invite": tokens[0],
            "invited": make_teacher(name="Mr New", email="new@school.test")}


def test_names_saved_before_the_rule_are_shown_isolated(client, teacher, student, saved_before_the_rule):
    w = saved_before_the_rule
    c, a, arena = w["classroom"].pk, w["assignment"].pk, w["arena"].pk
    pages = {
        teacher: [reverse("classroom:teacher_home"), reverse("classroom:class_detail", args=[c]),
                  reverse("classroom:students_add", args=[c]), reverse("classroom:class_edit", args=[c]),
                  reverse("classroom:assignment_edit", args=[a]), reverse("classroom:assignment_close", args=[a]),
                  reverse("classroom:co_teachers", args=[c]), reverse("classroom:class_join_code", args=[c]),
                  reverse("arena:control", args=[arena]), reverse("arena:screen", args=[arena]),
                  reverse("reports:dashboard", args=[c]), reverse("reports:exports", args=[c]),
                  reverse("privacy:class_access_log", args=[c])],
        w["invited"]: [reverse("classroom:invite_accept", args=[w["invite"]])],
        student: [reverse("classroom:student_home"), reverse("arena:play", args=[arena])],
    }
    found = {}
    for user, urls in pages.items():
        client.force_login(user)
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, url
            page = response.content.decode()
            assert OVERRIDE in page, url  # the page does show one of them
            found[url] = unisolated(page)
    # A message after an action names the assignment: closing it, then the class page.
    client.force_login(teacher)
    closed = client.post(reverse("classroom:assignment_close", args=[a]), follow=True)
    assert "is closed" in closed.content.decode()
    found["the message after closing"] = unisolated(closed.content.decode())
    assert {url: problems for url, problems in found.items() if problems} == {}
