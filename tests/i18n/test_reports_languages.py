"""The skill reports in the reader's language (docs/reports.md): what the every-page test
(test_pseudo_pages.py -k reports) cannot reach because its world has no games yet: the
dashboard and a student's page with numbers and flags, the moves behind a number, a child's own
progress, job pages in each state, the live dashboard's socket fragments, the exports' headers
and the parents' PDF.

Each page is checked in the pseudo-language (no English word left in the page's <main>, except
the names the test typed and the words the games declare: measure names and game names are the
games area's strings, translated in its own catalogue), then spot-checked in Spanish and Arabic.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from channels.testing import WebsocketCommunicator
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook
from pypdf import PdfReader

from arabic_reshaper import reshape
from config.asgi import application
from games import registry
from reports import flags
from reports.exports.rows import skill_header
from reports.models import RecomputeJob
from tests.i18n.pseudo import PSEUDO, english_words
from tests.reports.showing import evidence, make_game, rollup, this_monday, weeks_ago
from tests.sockets import cookie_for

pytestmark = pytest.mark.django_db

# What the test typed, and "English": the PDF language choice names each language in itself
# (its option says lang="en", which tests/i18n/pseudo.py honours once the core area's change is in).
TYPED = {"Ann", "Ben", "Ms", "Rivera", "Class", "5B", "Warm", "up", "English"}


@pytest.fixture(autouse=True)
def numbers_in_any_language(monkeypatch):
    """Babel has no data for the pseudo-language: numbers in it are written as in English.
    (The core area's accounts/numbers.py falls back the same way; this keeps the test
    independent of which lands first.)"""
    from babel import Locale, UnknownLocaleError

    from accounts import numbers

    original = numbers._locale

    def known() -> str:
        code = original()
        try:
            Locale.parse(code)
        except (UnknownLocaleError, ValueError):
            return "en"
        return code

    monkeypatch.setattr(numbers, "_locale", known)


def games_words() -> set[str]:
    """The words of what the games declare (measure names and sentences, game names): the
    games area translates them; a report only places them."""
    texts = [spec.name for spec in registry.all_games()]
    from reports.measures import all_measures

    for m in all_measures():
        # (not the units of amounts nor the words of details: those are said in the reader's
        # language, tests/i18n/test_verdict_languages.py)
        texts += [m.title, m.miss_words, m.chance_unit, m.about, m.well_words]
        spec = registry.get(m.game) if m.game else None
        if spec is not None:
            texts.append(spec.name)
    from games.practice import why_no_focus

    texts += [why_no_focus(m.id) for m in all_measures()]  # the games' "no practice game" reasons
    texts += ["uneven_division"]  # an engine's error code, shown as it is (lang="en")
    words: set[str] = set()
    for text in texts:
        words |= set(re.findall(r"[A-Za-z]{2,}", str(text)))
    # games/templates/_verdict_tag.html and the "once / N times" of games' well_sentence.
    return words | {"Missed", "Good", "once", "times", "out", "of", "You", "did", "well", "at"}


def main_of(html: str) -> str:
    """The page's <main>: the site's header and footer are the core area's."""
    start = html.index("<main")
    return html[start:html.index("</main>", start)]


def left_in_english(html: str) -> list[str]:
    return english_words(main_of(html), allowed=TYPED | games_words())


def as_reader(client, user, language: str):
    user.language = language
    user.save(update_fields=["language"])
    client.force_login(user)
    return client


@pytest.fixture
def busy_class(classroom, make_student):
    """A class with numbers everywhere: skills, operations, totals, facts, trends, flags
    (a miss rate, a rule-errors game and a detail row) and a few decisions."""
    ann = make_student(classroom, "Ann")
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    for student, misses in ((ann, 15), (ben, 2)):
        rollup(classroom, "so.lowest_operator", student=student, chances=20, misses=misses)
        rollup(classroom, "so.lowest_operator", student=student, week=this_monday(), chances=10, misses=misses // 2)
        rollup(classroom, "so.lowest_operator", student=student, week=weeks_ago(1), chances=10, misses=misses // 2)
        rollup(classroom, "all.think_time", student=student, chances=30, median=4.5)
        rollup(classroom, "so.mental_math", student=student, detail="÷", chances=20, misses=misses)
        rollup(classroom, "so.mental_math", student=student, chances=20, misses=misses)
        rollup(classroom, "mg.facts", student=student, detail="7x8", chances=16, misses=misses)
        rollup(classroom, "mg.facts", student=student, chances=16, misses=misses)
    rollup(classroom, "so.lowest_operator", chances=40, misses=17)
    rollup(classroom, "so.lowest_operator", week=this_monday(), chances=20, misses=8)
    rollup(classroom, "so.lowest_operator", week=weeks_ago(1), chances=20, misses=9)
    rollup(classroom, "all.think_time", chances=60, median=4.5)
    rollup(classroom, "so.mental_math", detail="÷", chances=40, misses=17)
    rollup(classroom, "so.mental_math", chances=40, misses=17)
    rollup(classroom, "mg.facts", detail="7x8", chances=32, misses=17)
    rollup(classroom, "mg.facts", chances=32, misses=17)
    game, moves = make_game(classroom, ann, moves=5)
    for move in moves[:4]:
        evidence(move, ann, "all.rule_errors", missed=True, detail="uneven_division")
    evidence(moves[4], ann, "so.lowest_operator", missed=True, amount=5)
    flags.refresh(classroom_id=classroom.pk)  # flags Ann: a miss rate, a rule-errors game, a detail row
    return ann, ben, game


def teacher_pages(classroom, ann):
    moves = reverse("reports:moves", args=[classroom.pk])
    return [reverse("reports:dashboard", args=[classroom.pk]),
            reverse("reports:student", args=[classroom.pk, ann.pk]),
            reverse("reports:facts", args=[classroom.pk]) + f"?student={ann.pk}",
            reverse("reports:facts", args=[classroom.pk]),
            f"{moves}?measure=so.lowest_operator&missed=all",
            f"{moves}?measure=so.lowest_operator&student={ann.pk}&missed=1&page=9",
            f"{moves}?measure=nothing",  # a link that names no skill: the bad-request page
            # "Practise this" for a student with nothing to practise: the page that says why.
            reverse("reports:practise", args=[classroom.pk]) + f"?student={ann.pk}&measure=nu.best_take"]


def test_teacher_pages_with_numbers_and_flags_hold_no_english(client, teacher, classroom, busy_class,
                                                               pseudo_language):
    ann, _, _ = busy_class
    as_reader(client, teacher, PSEUDO)
    problems = []
    for url in teacher_pages(classroom, ann):
        response = client.get(url)
        assert response.status_code in (200, 400), url
        words = left_in_english(response.content.decode())
        if words:
            problems.append(f"{url}: {' '.join(dict.fromkeys(words))}")
    assert not problems, "\n".join(problems)


def test_teacher_pages_in_spanish_and_arabic(client, teacher, classroom, busy_class):
    ann, _, _ = busy_class
    as_reader(client, teacher, "es")
    dashboard = client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode()
    assert "Necesita ayuda" in dashboard and "Toda la clase" in dashboard
    assert "Tendencias de la clase por semana" in dashboard
    student = client.get(reverse("reports:student", args=[classroom.pk, ann.pk])).content.decode()
    assert "7 × 8: 15 de 16 incorrectas" in student  # the detail flag, in the reader's words
    assert "Informe de progreso para las familias (PDF)" in student
    as_reader(client, teacher, "ar")
    dashboard = client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode()
    assert 'dir="rtl"' in dashboard and "يحتاج مساعدة" in dashboard and "الصف كله" in dashboard
    heat = client.get(reverse("reports:facts", args=[classroom.pk])).content.decode()
    assert 'class="table-wrap heatmap-wrap" role="region" aria-labelledby="heat-caption" tabindex="0" dir="ltr"' in heat
    # (the grid of numbers reads left to right, like the cards)


def test_a_childs_progress_page_in_every_language(client, classroom, busy_class, pseudo_language):
    ann, _, _ = busy_class
    url = reverse("reports:my_progress")
    as_reader(client, ann, PSEUDO)
    html = client.get(url).content.decode()
    assert not left_in_english(html), left_in_english(html)
    as_reader(client, ann, "es")
    html = client.get(url).content.decode()
    assert "Mi progreso" in html and "Mis tablas de multiplicar" in html
    as_reader(client, ann, "ar")
    html = client.get(url).content.decode()
    assert 'dir="rtl"' in html and "تقدّمي" in html


def test_empty_states_in_every_language(client, teacher, classroom, student, pseudo_language):
    urls = [reverse("reports:dashboard", args=[classroom.pk]),
            reverse("reports:student", args=[classroom.pk, student.pk]),
            reverse("reports:facts", args=[classroom.pk]), reverse("reports:exports", args=[classroom.pk])]
    as_reader(client, teacher, PSEUDO)
    for url in urls:
        assert not left_in_english(client.get(url).content.decode()), url
    as_reader(client, teacher, "es")
    assert "Aún no hay números de habilidades" in client.get(urls[0]).content.decode()
    as_reader(client, teacher, "ar")
    html = client.get(urls[0]).content.decode()
    assert 'dir="rtl"' in html and "لا أرقام للمهارات بعد" in html


def job_of(classroom, teacher, **fields) -> RecomputeJob:
    return RecomputeJob.objects.create(classroom=classroom, requested_by=teacher, **fields)


def test_job_pages_in_each_state(client, teacher, classroom, pseudo_language):
    """Working, waiting, paused, failed (a message a worker stored in English) and ready."""
    jobs = [job_of(classroom, teacher, kind="export", export_format="csv", status="running", total=3, done=1),
            job_of(classroom, teacher, kind="recompute", status="queued"),  # never sent: paused
            job_of(classroom, teacher, kind="export", export_format="xlsx", status="failed",
                   message=RecomputeJob.FAILED_EXPORT),
            job_of(classroom, teacher, kind="recompute", status="ready")]
    urls = [reverse("reports:job", args=[classroom.pk, job.pk]) for job in jobs]
    as_reader(client, teacher, PSEUDO)
    for url in urls + [reverse("reports:exports", args=[classroom.pk])]:
        html = client.get(url).content.decode()
        assert not left_in_english(html), (url, left_in_english(html))
    as_reader(client, teacher, "es")
    html = client.get(urls[0]).content.decode()
    assert "Trabajando en ello… 1 de 3 listos." in html
    assert "Algo salió mal al crear este archivo" in client.get(urls[2]).content.decode()
    as_reader(client, teacher, "ar")
    assert "حدث خطأ أثناء إنشاء هذا الملف" in client.get(urls[2]).content.decode()


# ----- the live dashboard ---------------------------------------------------------------

def dashboard_socket(user, classroom_id, accept_language: str = "") -> WebsocketCommunicator:
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie_for(user))]
    if accept_language:
        headers.append((b"accept-language", accept_language.encode()))
    return WebsocketCommunicator(application, f"/ws/reports/class/{classroom_id}/", headers=headers)


async def first_fragment(user, classroom_id, accept_language: str = "") -> str:
    socket = dashboard_socket(user, classroom_id, accept_language)
    connected, _ = await socket.connect(timeout=10)
    assert connected
    html = await socket.receive_from(timeout=5)
    await socket.disconnect()
    return html


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_debounce")
async def test_each_teacher_reads_the_live_dashboard_in_their_own_language(
        teacher, co_teacher, classroom, student, pseudo_language):
    from channels.db import database_sync_to_async

    @database_sync_to_async
    def set_up():
        rollup(classroom, "so.lowest_operator", student=student, chances=37, misses=4)
        rollup(classroom, "so.lowest_operator", chances=37, misses=4)
        for user, language in ((teacher, "es"), (co_teacher, "ar")):
            user.language = language
            user.save(update_fields=["language"])

    await set_up()
    spanish = await first_fragment(teacher, classroom.pk)
    arabic = await first_fragment(co_teacher, classroom.pk)
    assert "Jugando ahora" in spanish and "falló" in spanish and "Toda la clase" in spanish
    assert "يلعبون الآن" in arabic and "الصف كله" in arabic

    @database_sync_to_async
    def pseudo_and_none():
        teacher.language = PSEUDO
        teacher.save(update_fields=["language"])
        co_teacher.language = ""
        co_teacher.save(update_fields=["language"])

    await pseudo_and_none()
    pseudo = await first_fragment(teacher, classroom.pk)
    assert not english_words(pseudo, allowed=TYPED | games_words()), english_words(pseudo, allowed=TYPED | games_words())
    # No language of their own: the browser's, as the page itself was rendered.
    browser = await first_fragment(co_teacher, classroom.pk, accept_language="es-MX,es;q=0.9")
    assert "Jugando ahora" in browser


@pytest.fixture
def no_debounce(settings):
    settings.REPORTS_DASHBOARD_DEBOUNCE_SECONDS = 0
    settings.REPORTS_DASHBOARD_REFRESH_SECONDS = 0


# ----- exports ------------------------------------------------------------------------

def read_csv(body: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


def test_the_skills_csv_has_headers_in_the_teachers_language_and_neutral_numbers(
        client, teacher, classroom, busy_class):
    as_reader(client, teacher, "es")
    rows = read_csv(client.get(reverse("reports:skills_csv", args=[classroom.pk])).content)
    assert rows[0][:2] == ["Estudiante", "Familia"] and "Fallos (%)" in rows[0]
    with translation.override("es"):
        assert rows[0] == skill_header()
    ann_row = next(r for r in rows if r[0] == "Ann" and r[2] == "so.lowest_operator")
    assert ann_row[8] == "75.0"  # a dot, no % sign: any spreadsheet reads it as a number
    assert ann_row[4] != "" and ann_row[11] == "Necesita ayuda"
    as_reader(client, teacher, "ar")
    rows = read_csv(client.get(reverse("reports:skills_csv", args=[classroom.pk])).content)
    assert rows[0][0] == "الطالب"


@pytest.mark.usefixtures("eager_celery")
def test_a_workbook_made_in_the_background_is_in_the_language_it_was_asked_in(
        client, teacher, classroom, busy_class, settings, tmp_path, django_capture_on_commit_callbacks):
    """The worker has no request: the file is in the asking teacher's language (here their
    browser's, since they chose none), kept on the job."""
    settings.MEDIA_ROOT = tmp_path
    client.force_login(teacher)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("reports:exports", args=[classroom.pk]), {"format": "xlsx"},
                    HTTP_ACCEPT_LANGUAGE="ar")
    job = RecomputeJob.objects.get(classroom=classroom, kind="export")
    assert job.language == "ar" and job.status == "ready"
    workbook = load_workbook(job.file.path, read_only=True)
    assert workbook.sheetnames[:2] == ["المهارات", "حسب العملية"]
    header = next(workbook["المهارات"].iter_rows(max_row=1, values_only=True))
    assert header[0] == "الطالب"


# ----- the parents' PDF -----------------------------------------------------------------

def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_the_parents_pdf_in_arabic_is_shaped_and_right_to_left(client, teacher, classroom, busy_class):
    ann, _, _ = busy_class
    client.force_login(teacher)
    url = reverse("reports:student_pdf", args=[classroom.pk, ann.pk])
    text = pdf_text(client.get(url, {"language": "ar"}).content)
    # Shaped: the joined letter forms (pypdf gives a line back in reading order).
    assert reshape("Ann: تقرير التقدّم") in text and reshape("جداول الضرب") in text
    assert "\ufe97" in text  # "ت" at the start of a word: a joined form, not the bare letter
    assert "progress report" not in text
    # The teacher's own language when the form names none; Spanish chosen on the form.
    assert "Ann: progress report" in pdf_text(client.get(url).content)
    spanish = " ".join(pdf_text(client.get(url, {"language": "es"}).content).split())
    assert "Ann: informe de progreso" in spanish and "Gracias por su apoyo" in spanish


def test_the_student_page_offers_the_pdf_in_each_language_by_its_own_name(client, teacher, classroom, student):
    client.force_login(teacher)
    html = client.get(reverse("reports:student", args=[classroom.pk, student.pk])).content.decode()
    assert '<option value="es" lang="es">español</option>' in html
    assert 'lang="ar">العربيّة</option>' in html
