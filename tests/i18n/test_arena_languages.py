"""The class arena in every language (docs/i18n.md): what the every-URL pseudo test cannot reach.

The projector's pushes and a child's pushes come over sockets, in the language of whoever
opened the page (read once at connect, no middleware there); the projector's push is rendered
once per language and still fits in 2 KB in Arabic, whose letters take two bytes each. Pages in
other states (a finished arena and its podium, a child seated with points and a streak, a
form posted with errors, the "take out" question), the standings CSV's header and the class
line's sentences: in the pseudo-language no English word is left, and Spanish and Arabic say
real sentences (right to left where there is an <html>).
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils import translation

from arena import class_line, screen
from arena.me import render_me
from arena.models import Arena, ArenaGame, ArenaPlayer, ArenaResult
from arena.services import arena_create, arena_end, arena_join, arena_start
from config.asgi import application
from games.services.moves import SeatSpec, game_create
from tests.i18n.pseudo import PSEUDO, english_words
from tests.sockets import cookie_for

pytestmark = pytest.mark.django_db

# What the tests' people typed: names, titles, the class's name.
TYPED = {"Ann", "Ben", "Baker", "Cole", "Friday", "arena", "Class", "Ms", "Rivera", "Maximiliana",
         "Josephine", "Wolfeschlegelsteinhausenbergerdorff", "Featherstonehaugh", "Cholmondeley",
         "Vanderhoeven", "Oppenheimer", "Montgomery", "Fitzwilliam"}
# The games' names are the games area's words (its own test), shown on arena pages.
GAME_NAMES = {"Smooth", "Operator"}
LONG_SURNAMES = ["Wolfeschlegelsteinhausenbergerdorff", "Featherstonehaugh-Cholmondeley",
                 "Vanderhoeven-Oppenheimer", "Montgomery-Fitzwilliam"]


def left_in_english(html: str) -> list[str]:
    """English words left in the arena's part: a whole page's <main> (the site's header and
    footer are the core area's, checked by its own test)."""
    main = re.search(r"<main\b.*?</main>", html, re.S)
    return english_words(main.group(0) if main else html, allowed=TYPED | GAME_NAMES)


def reading(user, language: str):
    user.language = language
    user.save(update_fields=["language"])
    return user


def new_arena(teacher, classroom, mode=Arena.Mode.POINTS) -> Arena:
    return arena_create(teacher=teacher, classroom=classroom, title="Friday arena",
                        key="smooth_operator", options={"target": 200}, minutes=10, mode=mode)


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def socket(user, path: str, accept_language: str = "") -> WebsocketCommunicator:
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie_for(user))]
    if accept_language:
        headers.append((b"accept-language", accept_language.encode()))
    return WebsocketCommunicator(application, path, headers=headers)


def crowd(arena, make_student, classroom, count):
    """`count` players with long names, games, points and streaks (the projector's worst case)."""
    for n in range(count):
        name = f"Maximiliana-Josephine{n:02d} {LONG_SURNAMES[n % len(LONG_SURNAMES)]}"
        player = arena_join(student=make_student(classroom, name), arena_id=arena.pk)
        ArenaPlayer.objects.filter(pk=player.pk).update(
            points=100 - n, games=9, wins=5, draws=1, streak=2 + n % 6, best_streak=6,
            status=ArenaPlayer.Status.RESTING if n % 2 else ArenaPlayer.Status.WAITING)


# ----- the projector -------------------------------------------------------------------------

def test_the_projector_push_fits_in_2_kb_in_every_language_arabic_included(
        teacher, classroom, make_student, monkeypatch):
    arena = new_arena(teacher, classroom)
    crowd(arena, make_student, classroom, 30)
    # The longest generic line the class can have (the games' own lines are shorter).
    monkeypatch.setattr(class_line, "for_arena", lambda *, arena: class_line.Line(
        kind="moves_and_games", facts={"moves": 999_999_999, "games": 999_999}))
    lobby = screen.render_languages(arena=Arena.objects.get(pk=arena.pk))
    assert set(lobby) == {"en", "es", "ar"}
    assert "<strong>30</strong> انضمّوا" in lobby["ar"] and "<strong>30</strong> personas se unieron" in lobby["es"]
    arena_start(arena_id=arena.pk)
    running = screen.render_languages(arena=Arena.objects.get(pk=arena.pk))
    assert "أفضل خمسة" in running["ar"] and "Los cinco mejores" in running["es"]
    arena_end(arena_id=arena.pk, stop_games=True)
    finished = screen.render_languages(arena=Arena.objects.get(pk=arena.pk))
    assert "أحسنتم اللعب جميعًا!" in finished["ar"] and "منصة التتويج" in finished["ar"]
    for state, parts in (("lobby", lobby), ("running", running), ("finished", finished)):
        for code, html in parts.items():
            assert len(html.encode()) <= 2048, (state, code, len(html.encode()))


def test_the_projector_in_the_pseudo_language_has_no_english_left(
        teacher, classroom, make_student, pseudo_language):
    arena = new_arena(teacher, classroom)
    crowd(arena, make_student, classroom, 6)
    with translation.override(PSEUDO):
        lobby = screen.render(arena=Arena.objects.get(pk=arena.pk))
    assert "Maximiliana-Josephine00 W." in lobby
    assert not left_in_english(lobby), left_in_english(lobby)
    arena_start(arena_id=arena.pk)
    with translation.override(PSEUDO):
        running = screen.render(arena=Arena.objects.get(pk=arena.pk))
    assert "Maximiliana-Josephine00 W." in running
    assert not left_in_english(running), left_in_english(running)
    arena_end(arena_id=arena.pk, stop_games=True)
    with translation.override(PSEUDO):
        finished = screen.render(arena=Arena.objects.get(pk=arena.pk))
    assert 'class="podium"' in finished and not left_in_english(finished), left_in_english(finished)

    totals = new_arena(teacher, classroom, mode=Arena.Mode.NO_POINTS)
    crowd(totals, make_student, classroom, 3)
    arena_end(arena_id=totals.pk, stop_games=True)
    with translation.override(PSEUDO):
        no_points = screen.render(arena=Arena.objects.get(pk=totals.pk))
    assert "screen-totals" in no_points and not left_in_english(no_points), left_in_english(no_points)


def test_the_projector_page_is_right_to_left_in_arabic_and_loads_the_js_catalogue(teacher, classroom):
    arena = new_arena(teacher, classroom)
    page = client_of(reading(teacher, "ar")).get(reverse("arena:screen", args=[arena.pk])).content.decode()
    assert '<html lang="ar" dir="rtl">' in page
    assert "انضم إلى ساحة اللعب بالرمز" in page
    assert page.index(reverse("javascript-catalog")) < page.index("js/arena.js")
    spanish = client_of(reading(teacher, "es")).get(reverse("arena:screen", args=[arena.pk])).content.decode()
    assert '<html lang="es" dir="ltr">' in spanish and "Únete a la arena con el código" in spanish


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_each_projector_hears_the_pushes_in_its_own_teacher_s_language(
        teacher, co_teacher, classroom, make_student):
    """Two teachers of the class, each with the projector open: one reads Arabic, the other
    chose nothing and their browser asks for Spanish. One push, each in their language."""
    await sync_to_async(reading)(teacher, "ar")
    arena = await sync_to_async(new_arena)(teacher, classroom)
    path = f"/ws/arena/{arena.pk}/screen/"
    arabic, spanish = socket(teacher, path), socket(co_teacher, path, accept_language="es-MX,es;q=0.9")
    assert (await arabic.connect())[0] and (await spanish.connect())[0]
    first_ar, first_es = await arabic.receive_from(timeout=5), await spanish.receive_from(timeout=5)
    assert "لم ينضمّ أحد بعد" in first_ar and "Todavía no hay nadie" in first_es
    ann = await sync_to_async(make_student)(classroom, "Ann Baker")
    await sync_to_async(arena_join)(student=ann, arena_id=arena.pk)
    pushed_ar, pushed_es = await arabic.receive_from(timeout=5), await spanish.receive_from(timeout=5)
    assert "<strong>1</strong> انضمّ" in pushed_ar and "<li>Ann B.</li>" in pushed_ar
    assert "<strong>1</strong> persona se unió" in pushed_es and "<li>Ann B.</li>" in pushed_es
    assert len(pushed_ar.encode()) <= 2048
    await arabic.disconnect()
    await spanish.disconnect()


# ----- a child's page and pushes -------------------------------------------------------------

def seated_with_history(arena, student, other):
    """The child with points, a streak and a last game counted (a doubled win)."""
    for child in (student, other):
        arena_join(student=child, arena_id=arena.pk)
    arena_start(arena_id=arena.pk)
    ArenaPlayer.objects.filter(user=other).update(points=1, games=2, wins=0, draws=1, losses=1)
    ArenaPlayer.objects.filter(user=student).update(points=8, games=3, wins=3, streak=3,
                                                    status=ArenaPlayer.Status.WAITING)
    player = ArenaPlayer.objects.get(user=student)
    game = game_create(key="smooth_operator", classroom=arena.classroom, options={"target": 200},
                       seats=[SeatSpec(student.display_name, user=student),
                              SeatSpec(other.display_name, user=other)], seed=3, announce=False)
    table = ArenaGame.objects.create(arena=arena, game=game, round=1)
    ArenaResult.objects.create(table=table, player=player, outcome="win", points=4, doubled=True)
    return player


@pytest.mark.parametrize("mode", [Arena.Mode.POINTS, Arena.Mode.NO_POINTS])
def test_the_child_s_box_in_the_pseudo_language_in_play_and_at_the_end(
        mode, teacher, classroom, student, make_student, pseudo_language):
    arena = new_arena(teacher, classroom, mode=mode)
    seated_with_history(arena, student, make_student(classroom, "Ben Cole"))
    ArenaPlayer.objects.filter(user=student).update(best_score=37)
    with translation.override(PSEUDO):
        playing = render_me(user=student, arena_id=arena.pk)
    assert "arena-streak" in playing and "arena-last" in playing
    assert not left_in_english(playing), left_in_english(playing)
    Arena.objects.filter(pk=arena.pk).update(status=Arena.Status.FINISHED)
    with translation.override(PSEUDO):
        over = render_me(user=student, arena_id=arena.pk)
    assert not left_in_english(over), left_in_english(over)


def test_the_child_s_page_in_spanish_and_arabic(teacher, classroom, student, make_student):
    arena = new_arena(teacher, classroom)
    seated_with_history(arena, student, make_student(classroom, "Ben Cole"))
    spanish = client_of(reading(student, "es")).get(reverse("arena:play", args=[arena.pk])).content.decode()
    assert "Tienes 8 puntos." in spanish and "¡Vas en primer lugar!" in spanish
    assert "Ganaste 3 partidas seguidas. ¡Estás en racha: las victorias cuentan doble!" in spanish
    assert "Ganaste tu última partida: +4 puntos (¡doble!)" in spanish
    arabic = client_of(reading(student, "ar")).get(reverse("arena:play", args=[arena.pk])).content.decode()
    assert '<html lang="ar" dir="rtl">' in arabic
    assert "لديك 8 نقاط." in arabic and "أنت في المركز الأول!" in arabic
    assert "فزت في 3 مباريات متتالية." in arabic


def test_places_counts_and_ordinals_in_the_child_s_words():
    from arena import words
    with translation.override("es"):
        assert words.place_line(12, 30, games=3) == "Vas 12.º de 30."
        assert words.points_line(1, 1) == "Tienes 1 punto."
    with translation.override("ar"):
        # Arabic's six plural forms: none, one, two, a few (3-10), many (11-99), 100 and more.
        assert [words.games_line(n) for n in (1, 2, 5, 11, 100)] == [
            "لعبت حتى الآن مباراة واحدة.", "لعبت حتى الآن مباراتين.", "لعبت حتى الآن 5 مباريات.",
            "لعبت حتى الآن 11 مباراةً.", "لعبت حتى الآن 100 مباراة."]
        assert words.place_line(12, 30, games=3) == "أنت في المركز 12 من 30."


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_child_s_socket_speaks_the_class_s_language(teacher, classroom, student, make_student):
    """The child chose nothing; their class reads Arabic: the socket, with no middleware, says
    it in Arabic at connect and in each push."""
    classroom.language = "ar"
    await sync_to_async(classroom.save)(update_fields=["language"])
    arena = await sync_to_async(new_arena)(teacher, classroom)
    await sync_to_async(arena_join)(student=student, arena_id=arena.pk)
    comm = socket(student, f"/ws/arena/{arena.pk}/me/", accept_language="en")
    assert (await comm.connect())[0]
    assert "ننتظر أن يبدأ معلّمك…" in await comm.receive_from(timeout=5)
    ben = await sync_to_async(make_student)(classroom, "Ben Cole")
    await sync_to_async(arena_join)(student=ben, arena_id=arena.pk)
    await sync_to_async(arena_start)(arena_id=arena.pk)
    pushed = await comm.receive_from(timeout=5)
    assert "نبحث عن شخص تلعب معه…" in pushed or "مباراتك جاهزة" in pushed
    await comm.disconnect()


# ----- the teacher's pages in other states ---------------------------------------------------

def test_the_finished_control_page_and_its_podium_in_the_pseudo_language(
        teacher, classroom, student, make_student, pseudo_language):
    arena = new_arena(teacher, classroom)
    seated_with_history(arena, student, make_student(classroom, "Ben Cole"))
    client = client_of(reading(teacher, PSEUDO))
    asking = client.get(reverse("arena:control", args=[arena.pk]), {"out": arena.players.first().pk})
    assert 'id="confirm-out"' in asking.content.decode()
    assert not left_in_english(asking.content.decode()), left_in_english(asking.content.decode())
    arena_end(arena_id=arena.pk, stop_games=True)
    page = client.get(reverse("arena:control", args=[arena.pk])).content.decode()
    assert 'class="podium"' in page and 'arena-standings' in page
    assert not left_in_english(page), left_in_english(page)

    totals = new_arena(teacher, classroom, mode=Arena.Mode.NO_POINTS)
    arena_join(student=student, arena_id=totals.pk)
    ArenaPlayer.objects.filter(arena=totals).update(games=2, wins=1, best_score=40)
    arena_end(arena_id=totals.pk, stop_games=True)
    page = client.get(reverse("arena:control", args=[totals.pk])).content.decode()
    assert "arena-results" in page and not left_in_english(page), left_in_english(page)


def test_the_podium_in_spanish_and_arabic(teacher, classroom, student, make_student):
    arena = new_arena(teacher, classroom)
    seated_with_history(arena, student, make_student(classroom, "Ben Cole"))
    arena_end(arena_id=arena.pk, stop_games=True)
    spanish = client_of(reading(teacher, "es")).get(reverse("arena:control", args=[arena.pk])).content.decode()
    assert 'aria-label="Podio"' in spanish and '<span class="podium-points">8 ptos.</span>' in spanish
    arabic = client_of(reading(teacher, "ar")).get(reverse("arena:control", args=[arena.pk])).content.decode()
    assert '<html lang="ar" dir="rtl">' in arabic and '<span class="podium-place">الأول</span>' in arabic
    assert '<span class="podium-points">نقطة واحدة</span>' in arabic  # Ben's one point


def test_the_new_arena_form_with_errors_in_the_pseudo_language(teacher, classroom, pseudo_language):
    client = client_of(reading(teacher, PSEUDO))
    response = client.post(reverse("arena:new", args=[classroom.pk]),
                           {"game": "smooth_operator", "minutes": "999", "mode": "points",
                            "joining": "chosen", "table_size": "2"})
    page = response.content.decode()
    assert 'class="error"' in page
    # The game's own names, levels and pitch are the games area's words (its own test).
    words = [w for w in left_in_english(page) if w not in GAME_WORDS]
    assert not words, words


# What the games area words (the game's name, its pitch, its levels): not the arena's strings.
GAME_WORDS = {"Smooth", "Operator", "Add", "or", "Multiply", "Numero", "The", "Multiplication", "Game",
              "Pick", "the", "operator", "that", "gives", "fewest", "points", "players", "Quick", "game",
              "first", "to", "Short", "Standard", "Long", "Solitaire"}


def test_the_join_page_with_a_wrong_code_in_the_pseudo_language(student, pseudo_language):
    client = client_of(reading(student, PSEUDO))
    page = client.post(reverse("arena:join"), {"code": "nope"}).content.decode()
    assert 'id="arena-code-error"' in page
    assert not left_in_english(page), left_in_english(page)


# ----- the standings file --------------------------------------------------------------------

@pytest.mark.parametrize("language, header", [
    ("en", ["Place", "Name", "Class", "Points", "Games", "Wins", "Draws", "Losses", "Best streak", "Status"]),
    ("es", ["Puesto", "Nombre", "Clase", "Puntos", "Partidas", "Victorias", "Empates", "Derrotas",
            "Mejor racha", "Estado"]),
    ("ar", ["الترتيب", "الاسم", "الصف", "النقاط", "المباريات", "الانتصارات", "التعادلات", "الخسائر",
            "أطول سلسلة انتصارات", "الحالة"]),
])
def test_the_csv_header_is_translated_and_its_numbers_stay_plain(
        language, header, teacher, classroom, student, make_student):
    arena = new_arena(teacher, classroom)
    seated_with_history(arena, student, make_student(classroom, "Ben Cole"))
    ArenaPlayer.objects.filter(user=student).update(points=12345)
    response = client_of(reading(teacher, language)).get(reverse("arena:standings_csv", args=[arena.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == header
    first = rows[1]
    assert first[1] == "Ann" and first[3] == "12345"  # no thousands separator, whatever the language
    assert all(re.fullmatch(r"\d+", value) for value in first[3:9])


def test_the_csv_header_in_the_pseudo_language(teacher, classroom, pseudo_language):
    arena = new_arena(teacher, classroom)
    response = client_of(reading(teacher, PSEUDO)).get(reverse("arena:standings_csv", args=[arena.pk]))
    header = next(csv.reader(io.StringIO(response.content.decode())))
    assert not left_in_english(" ".join(header)), header


# ----- the class line ------------------------------------------------------------------------

LINES = [
    class_line.Line(kind="first_moves"),
    class_line.Line(kind="moves_and_games", facts={"moves": 17, "games": 1}),
    class_line.Line(kind="fact_run", facts={"a": 7, "b": 8, "count": 14}),
    class_line.Line(kind="facts_right", facts={"right": 9, "count": 12}),
    class_line.Line(kind="sums_run", facts={"count": 23}),
    class_line.Line(kind="most_played_operator", facts={"card": "x", "count": 31}),
    class_line.Line(kind="best_round", facts={"a": 8, "operation": "x", "b": 9, "points": 72}),
    class_line.Line(kind="most_taken_card", facts={"card": 12, "count": 9}),
]


def test_every_class_line_is_worded_in_each_language_with_its_equation_left_to_right(pseudo_language):
    with translation.override("en"):
        assert str(LINES[2]) == "7 × 8 named right 14 times in a row."
        assert str(LINES[6]) == "Best round: 8 × 9 = 72 points."
        assert LINES[2].html() == "<bdi>7 × 8</bdi> named right <bdi>14</bdi> times in a row."
    with translation.override("es"):
        assert str(LINES[2]) == "7 × 8: bien dicho 14 veces seguidas."
    with translation.override("ar"):
        assert LINES[6].html() == "أفضل جولة: <bdi>8 × 9 = 72</bdi> نقطةً."
        assert str(LINES[1]) == "قام الصف بـ 17 حركةً. انتهت مباراة واحدة."
    with translation.override(PSEUDO):
        for line in LINES:
            assert not left_in_english(str(line)), str(line)


def test_a_game_s_own_english_sentence_is_still_shown_as_it_is():
    """The games' hooks return finished English sentences today (games/engine/*/skills.py); a
    hook that returns its facts ({"line": kind, ...}) is worded here in every language."""
    line = class_line.Line(text="Most taken card: 12 (9 takes).")
    assert str(line) == line.html() == "Most taken card: 12 (9 takes)."


# ----- the clock's words (static/js/arena.js) ------------------------------------------------

def javascript_catalogue(language: str) -> dict:
    """The /jsi18n/ catalogue a page in `language` loads (before static/js/arena.js)."""
    script = Client().get(reverse("javascript-catalog"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    return json.loads(re.search(r"const newcatalog = (\{.*?\n  \});", script, re.S).group(1))


def test_the_clock_s_words_are_in_the_javascript_catalogue():
    spanish = javascript_catalogue("es")
    assert spanish["%(count)s minute left."] == ["Queda %(count)s minuto.", "Quedan %(count)s minutos.",
                                                 "Quedan %(count)s minutos."]
    assert spanish["The arena is paused."] == "La arena está en pausa."
    assert spanish["the arena's clock\x04Time's up!"] == "¡Se acabó el tiempo!"
    arabic = javascript_catalogue("ar")
    assert len(arabic["%(count)s minute left."]) == 6 and arabic["Not started yet."] == "لم تبدأ بعد."
