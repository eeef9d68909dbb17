"""The classroom in Spanish, Arabic and the pseudo-language (docs/i18n.md): what the every-URL test
(test_pseudo_pages.py) cannot reach: forms posted with errors, messages after a change, empty
states, a teacher's CSV of students with problems, the co-teaching e-mail, the sign-in cards
(page and PDF), and the class's language for its students.
"""

import io
import re

import arabic_reshaper
import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from classroom import services
from classroom.models import Classroom
from classroom.pdf_text import for_pdf
from classroom.roster_input import Row
from tests.conftest import members
from tests.i18n.pseudo import english_words
from tests.i18n.readers import speaking

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def back_to_the_default_language():
    """A request leaves its language active in the thread (LocaleMiddleware activates it and
    nothing deactivates it): later tests in this worker would read Arabic."""
    yield
    translation.deactivate()

# What the tests' people typed (names, the class "Class 5B", e-mail addresses).
TYPED = {"Ms", "Rivera", "Ann", "Ben", "Class", "rivera", "school", "test", "new", "teacher"}


def html_lang(response) -> tuple[str, str]:
    return re.search(r'<html lang="([^"]*)" dir="([^"]*)"', response.content.decode()).group(1, 2)


def text(response) -> str:
    return response.content.decode()




def no_english(response, *, allowed=frozenset()) -> None:
    codes = {run for code in Classroom.objects.values_list("join_code", flat=True)  # random letters
             for run in re.findall("[A-Za-z]+", code)}
    words = english_words(text(response), allowed=TYPED | codes | set(allowed))
    assert not words, f"English left on {response.request['PATH_INFO']}: {' '.join(dict.fromkeys(words))}"


def drawn(line: str) -> str:
    """How pypdf reads back a right-to-left line drawn as `for_pdf(line)`: shaped, and in
    reading order again (pypdf reverses right-to-left runs when it extracts them, so a line
    drawn in reading order, the mistake, would come back reversed)."""
    return arabic_reshaper.reshape(line)


def pdf_text(response) -> str:
    assert response["Content-Type"] == "application/pdf"
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)


def add_students(classroom, *names):
    return services.students_add(classroom=classroom, rows=[Row(n, name) for n, name in enumerate(names, 1)])


# ---- The class's language ------------------------------------------------------------------

def test_the_teacher_sets_the_class_language_and_its_students_read_their_pages_in_it(
        teacher, classroom, student):
    page = speaking(teacher, "")
    form = text(page.get(reverse("classroom:class_edit", args=[classroom.pk])))
    assert "Language for students" in form and "Each student&#x27;s browser decides" in form
    # Each language named in itself, and marked as written in it.
    assert '<option value="ar" lang="ar" dir="rtl">العربية</option>' in form
    answer = page.post(reverse("classroom:class_edit", args=[classroom.pk]),
                       {"name": "Class 5B", "grade": "", "free_play": "on", "language": "ar"}, follow=True)
    classroom.refresh_from_db()
    assert classroom.language == "ar"
    assert "Students' pages are in <strong>العربية</strong>" in text(answer)

    home = speaking(student, "").get(reverse("classroom:student_home"), HTTP_ACCEPT_LANGUAGE="es")
    assert html_lang(home) == ("ar", "rtl")  # the class's language over the browser's
    assert "مرحبًا يا Ann!" in text(home) and "واجباتي" in text(home)


def test_a_students_own_choice_wins_over_the_class_language(classroom, student):
    classroom.language = "ar"
    classroom.save(update_fields=["language"])
    home = speaking(student, "es").get(reverse("classroom:student_home"))
    assert html_lang(home) == ("es", "ltr")
    assert "¡Hola, Ann!" in text(home) and "Mis tareas" in text(home)


def test_without_a_class_language_the_browser_decides(teacher, classroom, student):
    page = speaking(teacher, "").get(reverse("classroom:class_detail", args=[classroom.pk]))
    assert "Students' pages are in the language of each student's browser" in text(page).replace("&#x27;", "'")
    home = speaking(student, "").get(reverse("classroom:student_home"), HTTP_ACCEPT_LANGUAGE="es")
    assert html_lang(home) == ("es", "ltr") and "Mis tareas" in text(home)


def test_a_language_the_site_does_not_offer_is_refused(teacher, classroom):
    answer = speaking(teacher, "").post(reverse("classroom:class_edit", args=[classroom.pk]),
                                        {"name": "Class 5B", "language": "fr"})
    assert answer.status_code == 200 and "Select a valid choice" in text(answer)
    classroom.refresh_from_db()
    assert classroom.language == ""


def test_the_student_home_page_offers_the_language_switch_near_the_top(student):
    page = text(speaking(student, "").get(reverse("classroom:student_home")))
    switch = page.index('class="student-language"')
    assert switch < page.index("My assignments")
    form = page[switch:page.index("</form>", switch)]
    assert f'action="{reverse("choose_language")}"' in form
    for code, name in (("en", "English"), ("es", "Español"), ("ar", "العربية")):
        assert f'value="{code}" lang="{code}"' in form and f">{name}</button>" in form


def test_the_switch_on_the_student_home_page_changes_the_childs_language(student):
    browser = speaking(student, "")
    browser.post(reverse("choose_language"), {"language": "ar", "next": reverse("classroom:student_home")})
    student.refresh_from_db()
    assert student.language == "ar"
    assert html_lang(browser.get(reverse("classroom:student_home"))) == ("ar", "rtl")


# ---- Pages in other states, in the pseudo-language -----------------------------------------

def test_empty_states_are_translated(pseudo_language, teacher, make_teacher, make_classroom, student):
    page = speaking(teacher, pseudo_language)
    empty_class = make_classroom(teacher, name="Class 5B")
    for url in (reverse("classroom:class_detail", args=[empty_class.pk]),  # no students, no work
                reverse("classroom:sign_in_cards", args=[empty_class.pk]),
                reverse("classroom:archived_classes")):
        no_english(page.get(url))
    newcomer = speaking(make_teacher(name="Ms Rivera", email="new@school.test"), pseudo_language)
    no_english(newcomer.get(reverse("classroom:teacher_home")))  # no classes yet
    home = speaking(student, pseudo_language).get(reverse("classroom:student_home"))
    assert "No assignments right now" not in text(home)
    no_english(home, allowed={"Smooth", "Operator", "Add", "or", "Multiply", "Numero", "Solitaire", "The",
                              "Multiplication", "Game"} | set(WORDS_OF_OTHER_AREAS))


# The games' names and descriptions, levels and the classmates panel are the games area's
# (games/locale): this test checks the classroom's own words around them.
WORDS_OF_OTHER_AREAS = """Pick the operator that gives fewest points players Starter easiest Beginner easy Player medium
Expert hard Send numbers to rivals choose for yourself Make sums from centre cards with wild change them Clear on
own player Get rid of by naming times table facts Open tables in your class No open right now one below and
invite classmates Join the arena Have an code operator""".split()


def test_form_errors_and_messages_are_translated(pseudo_language, teacher, classroom, student):
    page = speaking(teacher, pseudo_language)
    no_english(page.post(reverse("classroom:class_create"), {"name": "  "}))
    no_english(page.post(reverse("classroom:students_add", args=[classroom.pk]), {"name": "Ann"}))
    no_english(page.post(reverse("classroom:student_pictures", args=[student.pk]), {"first": "cat"}),
               allowed=PICTURE_NAMES)
    added = page.post(reverse("classroom:students_add", args=[classroom.pk]), {"name": "Ben"}, follow=True)
    assert added.redirect_chain and "Ben" in text(added)
    no_english(added)
    created = page.post(reverse("classroom:class_create"), {"name": "Class 5B", "grade": ""}, follow=True)
    no_english(created)
    archive = page.get(reverse("classroom:class_archive", args=[classroom.pk]))
    no_english(archive)
    archived = page.post(reverse("classroom:class_archive", args=[classroom.pk]), follow=True)
    no_english(archived)
    wrong = page.post(reverse("classroom:class_delete", args=[classroom.pk]), {"typed_name": "5A"})
    assert wrong.status_code == 200
    no_english(wrong)


def test_assignment_and_invitation_errors_are_translated(pseudo_language, teacher, classroom):
    page = speaking(teacher, pseudo_language)
    wrong = page.post(reverse("classroom:assignment_create", args=[classroom.pk]), {
        "game": "smooth_operator", "preset": "quick", "opponents": "bots", "bot_level": "beginner",
        "bot_count": "9", "goal": "until", "audience": "chosen"})
    assert wrong.status_code == 200
    no_english(wrong, allowed=GAME_WORDS)
    no_english(page.post(reverse("classroom:co_teachers", args=[classroom.pk]), {"email": "rivera@school.test"}))


# The games' names, levels and descriptions on the assignment form (games/locale).
GAME_WORDS = set("""Smooth Operator Add or Multiply Numero Solitaire The Multiplication Game Pick the operator
that gives fewest points players Quick game first to Short Standard Long Starter easiest Beginner easy Player
medium Expert hard Just right adapts each child""".split())


# The pictures' names are the accounts area's (accounts/pictures.py).
PICTURE_NAMES = {"Apple", "Ball", "Boat", "Cat", "Fish", "Flower", "Heart", "House", "Moon", "Star", "Sun", "Tree"}


@pytest.mark.parametrize("upload", [
    b"first,last\nAnn,Lee\n",  # no name column
    b"name,username\nAnn,ann!\nAnn,\n\n",  # a bad username, a name twice
    b"name\n",  # column names only
    "\ufeffname\n\"Zoë\nBen\n".encode(),  # a quote never closed
    b"PK\x03\x04 a spreadsheet",
])
def test_csv_import_errors_are_translated(pseudo_language, teacher, classroom, upload):
    answer = speaking(teacher, pseudo_language).post(
        reverse("classroom:students_import", args=[classroom.pk]),
        {"file": io.BytesIO(upload)}, format="multipart")
    assert answer.status_code == 200
    # The file's own words are shown as they were typed.
    no_english(answer, allowed={"first", "last", "Lee", "Zo", "CSV", "UTF", "Excel"})


def test_csv_import_errors_in_spanish_and_arabic_and_translated_column_names(teacher, classroom):
    def upload(client, data):
        return text(client.post(reverse("classroom:students_import", args=[classroom.pk]),
                                {"file": io.BytesIO(data)}))

    spanish = speaking(teacher, "es")
    assert "La primera fila debe nombrar las columnas, con una llamada “nombre”" in upload(
        spanish, b"first,last\nAnn,Lee\n")
    problems = upload(spanish, b"name\nAnn\nann\n")
    assert "Todavía no se agregó a nadie: primero hay que corregir 1 fila." in problems
    assert "“ann” también está en la línea 2." in problems
    # A Spanish teacher may name the columns in Spanish; an Arabic one in Arabic.
    spanish.post(reverse("classroom:students_import", args=[classroom.pk]),
                 {"file": io.BytesIO("nombre,usuario\nZoë,zoe.r\n".encode())})
    arabic = speaking(teacher, "ar")
    assert "يجب أن يسمّي الصف الأول الأعمدة، ومنها عمود اسمه “الاسم”" in upload(arabic, b"first\nAnn\n")
    arabic.post(reverse("classroom:students_import", args=[classroom.pk]),
                {"file": io.BytesIO("الاسم\nليلى\n".encode())})
    assert set(members(classroom).values_list("display_name", flat=True)) == {"Zoë", "ليلى"}


def test_pasted_names_problems_in_arabic_use_its_plural_forms(teacher, classroom):
    arabic = speaking(teacher, "ar")
    page = text(arabic.post(reverse("classroom:students_paste", args=[classroom.pk]),
                            {"names": "Ann\nann\nAnn\n"}))
    assert "صفّان للإصلاح" in page  # two rows: the dual
    assert html_lang(arabic.get(reverse("classroom:students_add", args=[classroom.pk]))) == ("ar", "rtl")


def test_a_student_page_and_confirmations_in_spanish(teacher, classroom, student):
    spanish = speaking(teacher, "es")
    detail = text(spanish.get(reverse("classroom:student_detail", args=[student.pk])))
    assert "Contraseña de imágenes" in detail and "Ann toca estas 3 imágenes, en este orden:" in detail
    confirm = text(spanish.post(reverse("classroom:student_pictures", args=[student.pk])))
    assert "¿Dar a Ann imágenes nuevas al azar?" in confirm and "Cancelar y volver" in confirm


# ---- E-mail --------------------------------------------------------------------------------

def test_the_invitation_is_written_in_the_invited_teachers_language(teacher, classroom, make_teacher,
                                                                      django_capture_on_commit_callbacks):
    invited = make_teacher(name="Ann", email="ann@school.test")
    invited.language = "ar"
    invited.save(update_fields=["language"])
    spanish = speaking(teacher, "es")  # the sender's language is not the reader's
    with django_capture_on_commit_callbacks(execute=True):
        answer = spanish.post(reverse("classroom:co_teachers", args=[classroom.pk]),
                              {"email": "ann@school.test"}, follow=True)
    assert "Invitación enviada a ann@school.test." in text(answer)
    message = mail.outbox[-1]
    assert "إلى التدريس المشترك للصف Class 5B على Numberdeck" in message.subject
    assert "يعمل الرابط مرة واحدة، لمدة 7 أيام." in message.body


def test_an_invitation_to_someone_without_an_account_is_in_the_sites_language(
        teacher, classroom, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        speaking(teacher, "ar").post(reverse("classroom:co_teachers", args=[classroom.pk]),
                                     {"email": "someone@school.test"})
    assert "invited you to co-teach Class 5B on Numberdeck" in mail.outbox[-1].subject


def test_the_invitation_in_the_pseudo_language_has_no_english(pseudo_language, teacher, classroom,
                                                              make_teacher, django_capture_on_commit_callbacks):
    invited = make_teacher(name="Ann", email="ann@school.test")
    invited.language = pseudo_language
    invited.save(update_fields=["language"])
    with django_capture_on_commit_callbacks(execute=True):
        speaking(teacher, "").post(reverse("classroom:co_teachers", args=[classroom.pk]),
                                   {"email": "ann@school.test"})
    message = mail.outbox[-1]
    body = re.sub(r"https?://\S+", "", message.body)  # the link
    assert not english_words(message.subject + "\n" + body, allowed=TYPED | {"ann", "Numberdeck"})


# ---- The sign-in cards ---------------------------------------------------------------------

def test_the_cards_pdf_in_arabic_is_shaped_right_to_left_with_an_arabic_class_name(teacher, classroom):
    classroom.name, classroom.language = "الصف الخامس", "ar"
    classroom.save(update_fields=["name", "language"])
    add_students(classroom, "ليلى", "Ben")
    printed = pdf_text(speaking(teacher, "en").get(reverse("classroom:sign_in_cards_pdf", args=[classroom.pk])))
    assert drawn("رمز الصف") in printed and for_pdf("رمز الصف") != drawn("رمز الصف")
    assert drawn("الصف الخامس") in printed and drawn("ليلى") in printed
    assert drawn("امسح الرمز، ثم المس") in printed  # the first line of the words under the QR code
    assert "Ben" in printed and classroom.join_code in printed
    assert "Class code" not in printed and "Scan" not in printed
    # Shaped: the joined (presentation) forms of the letters, not the isolated ones.
    assert any("\ufe70" <= ch <= "\ufeff" for ch in printed)


def test_the_cards_pdf_follows_the_teachers_language_when_the_class_has_none(teacher, classroom, student):
    printed = pdf_text(speaking(teacher, "es").get(reverse("classroom:sign_in_cards_pdf", args=[classroom.pk])))
    assert "Código de la clase" in printed and "Ann" in printed and "Class code" not in printed
    empty = speaking(teacher, "ar").get(reverse("classroom:sign_in_cards_pdf", args=[
        services.classroom_create(teacher=teacher, name="Class 6").pk]))
    assert drawn("لا يوجد طلاب في هذا الصف بعد") in pdf_text(empty)


def test_the_cards_page_prints_the_cards_in_the_class_language(teacher, classroom, student):
    classroom.language = "ar"
    classroom.save(update_fields=["language"])
    page = text(speaking(teacher, "es").get(reverse("classroom:sign_in_cards", args=[classroom.pk])))
    assert "Tarjetas de acceso" in page  # the teacher's page in their language
    assert "Las tarjetas se imprimen en العربية" in page
    assert '<div class="card-sheet" lang="ar" dir="rtl">' in page
    assert "رمز الصف" in page and 'aria-label="بطاقة دخول Ann"' in page


# ---- A child signing in (the pages are the accounts area's; these answers are the classroom's) ----

def test_a_childs_sign_in_mistakes_are_said_in_their_language(classroom, student):
    child = Client(HTTP_ACCEPT_LANGUAGE="es")
    wrong_code = text(child.post(reverse("classroom:join"), {"code": "ZZZ999"}))
    assert "No encontramos ninguna clase con ese código. Revisa las letras con tu maestro o maestra." in wrong_code
    pictures = reverse("classroom:join_pictures", args=[classroom.join_code, student.pk])
    wrong = Client(HTTP_ACCEPT_LANGUAGE="ar").post(pictures, {"picture": ["sun", "cat", "tree"]})
    assert wrong.status_code == 400
    assert "لم يكن ذلك صحيحًا تمامًا. حاول مرة أخرى!" in text(wrong) and html_lang(wrong) == ("ar", "rtl")


def test_invitation_pages_and_the_owners_refusal_are_translated(pseudo_language, teacher, classroom, co_teacher):
    links = []
    services.co_teacher_invite(classroom=classroom, invited_by=teacher, email="ann@school.test",
                               link_for=lambda token: links.append(token) or token)
    visitor = Client(HTTP_ACCEPT_LANGUAGE=pseudo_language)
    no_english(visitor.get(reverse("classroom:invite_accept", args=[links[0]])))  # sign in first
    unknown = visitor.get(reverse("classroom:invite_accept", args=["not-a-token"]))
    assert unknown.status_code == 404
    no_english(unknown)
    already = speaking(co_teacher, pseudo_language).get(reverse("classroom:invite_accept", args=[links[0]]))
    assert already.status_code == 200
    no_english(already, allowed={"Co"})  # "You already teach this class" (Ms Co is signed in)
    refused = speaking(co_teacher, pseudo_language).get(reverse("classroom:class_archive", args=[classroom.pk]))
    assert refused.status_code == 403
    no_english(refused, allowed={"Co"})  # the co-teacher "Ms Co" is signed in
