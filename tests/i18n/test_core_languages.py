"""The shared pages in Spanish, Arabic and the pseudo-language, and choosing a language
(docs/i18n.md): what the every-URL test (test_pseudo_pages.py) cannot reach in the core area.

How a person's language is chosen: their own choice (User.language, kept by the switcher) >
their class's (Classroom.language, for students) > the language cookie (a visitor's switcher) >
the browser's Accept-Language.
"""

import re

import pytest
from django.conf import settings
from django.template import Context, Template
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from accounts.numbers import format_number, format_percent
from tests.i18n.pseudo import english_words

pytestmark = pytest.mark.django_db

CHOOSE = "/language/"
TYPED = {"Ms", "Rivera", "Ann"}  # names the test's people typed
ARABIC_INDIC_DIGITS = re.compile("[\u0660-\u0669\u06f0-\u06f9]")


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]*)" dir="([^"]*)"', response.content.decode()).group(1, 2)


def pressed(response) -> list[str]:
    """The languages the switcher shows as the one in use."""
    return re.findall(r'<button[^>]*value="(\w+)"[^>]*aria-pressed="true"', response.content.decode())


# ---- Choosing a language -------------------------------------------------------------------

def test_a_visitor_reads_the_browsers_language():
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="es")
    assert html_lang(page) == ("es", "ltr")
    assert "Juegos de cartas para aprender a hacer cuentas" in page.content.decode()
    assert pressed(page) == ["es"]
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="ar,en;q=0.5")
    assert html_lang(page) == ("ar", "rtl")
    assert "ألعاب بطاقات تعلّمك الحساب" in page.content.decode()
    english = Client().get("/", HTTP_ACCEPT_LANGUAGE="fr")  # not offered: the site's own
    assert html_lang(english) == ("en", "ltr") and "Card games that teach arithmetic" in english.content.decode()


def test_a_visitor_chooses_with_the_switcher_and_it_lasts_a_year():
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    answer = browser.post(CHOOSE, {"language": "ar", "next": "/join/"})
    assert answer.status_code == 302 and answer["Location"] == "/join/"
    cookie = answer.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "ar" and cookie["max-age"] == 365 * 24 * 60 * 60
    page = browser.get("/")
    assert html_lang(page) == ("ar", "rtl") and pressed(page) == ["ar"]
    assert "أنا طالب" in page.content.decode()
    browser.post(CHOOSE, {"language": "en", "next": "/"})
    assert html_lang(browser.get("/")) == ("en", "ltr")


def test_the_switcher_is_on_every_page_with_each_language_named_in_itself():
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    footer = page[page.index("<footer"):]
    for code, name in (("en", "English"), ("es", "Español"), ("ar", "العربية")):
        assert re.search(rf'<button type="submit" name="language" value="{code}" lang="{code}"[^>]*>{name}</button>',
                         footer), name
    assert 'aria-label="Idioma"' in footer and "<img" not in footer  # named, never a flag
    assert 'name="next" value="/"' in footer


def test_the_switcher_renders_on_its_own():
    """Others include it where a child sees it first (the student's home page)."""
    request = RequestFactory().get("/play/?tab=games")
    with translation.override("ar"):
        html = render_to_string("_language_switcher.html", request=request)
    assert f'action="{reverse("choose_language")}"' in html and 'name="csrfmiddlewaretoken"' in html
    assert 'value="/play/?tab=games"' in html and 'aria-label="اللغة"' in html
    assert re.search(r'value="ar" lang="ar" dir="rtl"[^>]*aria-pressed="true"', html)
    assert re.search(r'value="en" lang="en" dir="ltr"[^>]*aria-pressed="false"', html)


def test_a_teachers_choice_lasts_across_sign_out_and_sign_in(teacher):
    browser = Client()
    browser.force_login(teacher)
    browser.post(CHOOSE, {"language": "es", "next": "/teach/"})
    teacher.refresh_from_db()
    assert teacher.language == "es"
    browser.post(reverse("accounts:logout"))
    # Another computer, whose browser asks for English: the account's choice wins.
    other = Client(HTTP_ACCEPT_LANGUAGE="en")
    signed_in = other.post(reverse("accounts:teacher_login"),
                           {"email": "rivera@school.test", "password": "correct-horse-42"}, follow=True)
    assert html_lang(signed_in) == ("es", "ltr")
    assert "Mis clases" in signed_in.content.decode() and "Salir" in signed_in.content.decode()


def test_a_student_without_a_choice_reads_their_class_language(student, classroom):
    classroom.language = "ar"
    classroom.save()
    browser = Client(HTTP_ACCEPT_LANGUAGE="es")
    browser.force_login(student)
    page = browser.get(reverse("classroom:student_home"))
    assert html_lang(page) == ("ar", "rtl")
    assert "ألعابي" in page.content.decode()  # "My games" in the top bar


def test_a_students_own_choice_beats_the_class_language(student, classroom):
    classroom.language = "ar"
    classroom.save()
    browser = Client()
    browser.force_login(student)
    browser.post(CHOOSE, {"language": "es", "next": reverse("classroom:student_home")})
    student.refresh_from_db()
    assert student.language == "es"
    page = browser.get(reverse("classroom:student_home"))
    assert html_lang(page) == ("es", "ltr") and "Mis juegos" in page.content.decode()


@pytest.mark.parametrize("code", ["fr", "", "xx", "es-ES<script>"])
def test_a_language_not_offered_changes_nothing(code, teacher):
    browser = Client()
    browser.force_login(teacher)
    answer = browser.post(CHOOSE, {"language": code, "next": "/"})
    assert answer.status_code == 400 and answer["Content-Type"].startswith("text/plain")
    assert answer.content.decode() == "That language is not offered."
    assert settings.LANGUAGE_COOKIE_NAME not in answer.cookies
    teacher.refresh_from_db()
    assert teacher.language == ""


def test_choosing_only_comes_back_to_this_site_and_only_by_post():
    browser = Client()
    for unsafe in ("https://elsewhere.example/", "//elsewhere.example/", "javascript:alert(1)", "", CHOOSE):
        answer = browser.post(CHOOSE, {"language": "es", "next": unsafe})
        assert answer.status_code == 302 and answer["Location"] == "/", unsafe
    assert browser.get(CHOOSE).status_code == 405
    refused = Client(enforce_csrf_checks=True).post(CHOOSE, {"language": "es"})
    assert refused.status_code == 403  # the form carries its CSRF token


# ---- The error pages, in every language -----------------------------------------------------

def error_pages(client: Client, **headers) -> dict[str, str]:
    """The 404, the 403 (a page for the other role) and the CSRF refusal, as `client` sees them."""
    pages = {"404": client.get("/no-such-page/", **headers)}
    if client.session.get("_auth_user_id"):  # a visitor is sent to sign in instead
        pages["403"] = client.get(reverse("classroom:student_home"), **headers)
        if pages["403"].status_code != 403:
            pages["403"] = client.get(reverse("classroom:teacher_home"), **headers)
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = client.cookies
    pages["csrf"] = strict.post(CHOOSE, {"language": "es"}, **headers)
    assert {name: page.status_code for name, page in pages.items()} == {
        name: status for name, status in (("404", 404), ("403", 403), ("csrf", 403)) if name in pages}
    return {name: page.content.decode() for name, page in pages.items()}


@pytest.mark.parametrize("who", ["visitor", "teacher", "student"])
def test_the_error_pages_in_the_pseudo_language(who, pseudo_language, teacher, student):
    client = Client()
    if who != "visitor":
        client.force_login(teacher if who == "teacher" else student)
    pages = error_pages(client, HTTP_ACCEPT_LANGUAGE=pseudo_language)
    assert len(pages) == (2 if who == "visitor" else 3)
    for name, html in pages.items():
        assert f'<html lang="{pseudo_language}"' in html, name
        assert not english_words(html, allowed=TYPED), f"{name}: {english_words(html, allowed=TYPED)}"


def test_the_error_pages_in_spanish_and_arabic(student):
    client = Client()
    client.force_login(student)
    spanish = error_pages(client, HTTP_ACCEPT_LANGUAGE="es")
    assert "No encontramos esa página" in spanish["404"]
    assert "esta página es para docentes" in spanish["403"]
    assert "Eso no funcionó" in spanish["csrf"] and "No se cambió nada." in spanish["csrf"]
    arabic = error_pages(client, HTTP_ACCEPT_LANGUAGE="ar")
    assert all('dir="rtl"' in html for html in arabic.values())
    assert "لم نجد هذه الصفحة" in arabic["404"] and "لم ينجح ذلك" in arabic["csrf"]


def test_the_home_page_in_the_pseudo_language_has_only_the_games_words_left(pseudo_language):
    """The home page's own words (the every-URL test also reads the games' names and pitches,
    which the games area marks)."""
    from games import registry

    html = Client().get("/", HTTP_ACCEPT_LANGUAGE=pseudo_language).content.decode()
    games_words = set()
    for game in registry.all_games():
        games_words |= set(re.findall(r"[A-Za-z]+", f"{game.name} {game.pitch} {game.players_label}"))
    assert not english_words(html, allowed=games_words)


# ---- Numbers and lists in the reader's convention ------------------------------------------

def test_percentages_and_numbers_in_each_language():
    with translation.override("en"):
        assert format_percent(0.125, digits=1) == "12.5%" and format_number(1234.5, digits=1) == "1,234.5"
    with translation.override("es"):
        # A no-break space keeps "12,5" and "%" on one line.
        assert format_percent(0.125, digits=1) == "12,5\xa0%"
        assert format_number(1234.5, digits=1) == "1.234,5"
    with translation.override("ar"):
        shown = format_percent(0.125, digits=1) + format_number(1234.5, digits=1)
        assert "12" in shown and "5" in shown and not ARABIC_INDIC_DIGITS.search(shown)  # 0-9, as on the cards
    with translation.override("en"):
        assert format_percent(1) == "100%" and format_percent(0.5, digits=2) == "50%"


def test_the_number_filters_in_a_template():
    template = Template("{% load locale_numbers %}[{{ share|percent:1 }}] [{{ x|number:2 }}] [{{ none|percent }}]")
    with translation.override("es"):
        assert template.render(Context({"share": 0.125, "x": 3.14159, "none": None})) == "[12,5\xa0%] [3,14] []"
    with translation.override("en"):
        assert template.render(Context({"share": "0.125", "x": 2, "none": ""})) == "[12.5%] [2] []"


def test_numbers_in_a_language_babel_does_not_know_fall_back_to_english(pseudo_language):
    with translation.override(pseudo_language):
        assert format_percent(0.125, digits=1) == "12.5%"


def test_a_list_inside_a_sentence_in_each_language():
    template = Template('{% load locale_lists %}{{ names|and_list }}|{{ one|and_list }}|{{ none|and_list }}')
    context = Context({"names": ["Numero", "Smooth Operator", "El <juego>"], "one": ["Numero"], "none": []})
    expected = {"en": "Numero, Smooth Operator and El &lt;juego&gt;|Numero|",
                "es": "Numero, Smooth Operator y El &lt;juego&gt;|Numero|",
                # isolated: "Smooth Operator" is not pulled around the Arabic comma
                "ar": "<bdi>Numero</bdi>، <bdi>Smooth Operator</bdi> و<bdi>El &lt;juego&gt;</bdi>|<bdi>Numero</bdi>|"}
    for language, text in expected.items():
        with translation.override(language):
            assert template.render(context) == text
    with translation.override("es"):
        lead = re.search(r'<p class="lead">(.*?)</p>', Client().get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode(),
                         re.S).group(1)
        assert lead.startswith("Juega con tu clase: ") and " y " in lead


# ---- The reading level of the children's pages --------------------------------------------

def test_the_reading_level_of_every_childrens_page_is_printed():
    """`manage.py reading_level` lists each page a child reads, with its grade, and leaves the
    database as it was."""
    from io import StringIO

    from django.core.management import call_command

    from accounts.models import User
    from devtools.management.commands.reading_level import FIXED_PAGES, TABLE
    from games import registry

    users_before = User.objects.count()
    out = StringIO()
    call_command("reading_level", stdout=out)
    lines = out.getvalue().splitlines()
    grades = {m.group(2): float(m.group(1)) for m in (re.match(r"\s*(-?\d+\.\d)\s+\d+\s+(.+?)  \(", line)
                                                     for line in lines) if m}
    expected = [*FIXED_PAGES, *(TABLE + spec.name for spec in registry.all_games())]
    assert sorted(grades) == sorted(expected)
    assert "average of" in lines[-1]
    assert User.objects.count() == users_before  # the world it read was rolled back
