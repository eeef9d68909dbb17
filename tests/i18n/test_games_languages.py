"""The game tables in the reader's language (docs/i18n.md), where the every-URL test does not reach:
each game kind in play and finished, for its player and for the teacher watching; the socket's
fragments and pushes, per viewer; refused moves; the lobby; the replay; and app.js's words in
the JavaScript catalogue. In the pseudo-language no English word may be left (tests/i18n/pseudo.py);
in Spanish and Arabic a real phrase appears, and Arabic pages are right to left."""

import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse
from django.utils import translation

from games import engine as engines
from games import registry
from games.models import Game
from games.rendering import render_table, table_push
from games.services import SeatSpec, game_apply_move, game_create
from tests.contract.helpers import registered
from tests.i18n.pseudo import PSEUDO, english_words
from tests.i18n.readers import speaking
from tests.sockets import connect_as, off_loop
from tests.toy.adapter import SPEC as TOY_SPEC

# Names of the test's people and computer players, and the games' own printed symbols.
NAMES = {"Ann", "Ben", "Robo", "Zip", "Bolt", "Pixel", "Nova", "Class", "KMT4QX"}

# Every game kind: the registry's games, and the toy game (tests/toy/, translated like them: a
# game copied from it is translated too); its key, its fewest seats (Ann is the child, computer
# players fill the others) and the options of a game nobody set up (`GameSpec.free_play_options`).
SEAT_NAMES = ["Ann", "Robo", "Zip", "Bolt", "Pixel", "Nova"]
SPECS = {spec.key: spec for spec in (*registry.all_games(), TOY_SPEC)}
KINDS = [(spec.key, SEAT_NAMES[:spec.min_players], dict(spec.free_play_options)) for spec in SPECS.values()]


@pytest.fixture
def game_kind(key):
    """The kind's game is registered while the test runs (the toy game only then)."""
    with registered(SPECS[key]) as spec:
        yield spec


def seated(classroom, student, key, names, options, seed=5) -> Game:
    seats = [SeatSpec(n, user=student) if n == "Ann" else SeatSpec(n, bot_level="player") for n in names]
    return game_create(key=key, classroom=classroom, seed=seed, options=options, seats=seats)


def play(game: Game, *, moves: int | None = None) -> Game:
    """Bots decide for every seat (Ann's too) through the move service: `moves` moves, or to the end."""
    spec = registry.spec_for(game.key)
    engine = spec.engine
    for done in range(5000):
        game.refresh_from_db()
        if game.state["finished"] or (moves is not None and done >= moves):
            return game
        name = engine.waiting_for(game.state)[0]
        seat = game.seats.get(name=name)
        action = spec.make_bot("beginner", game.version).choose(engine.view(game.state, name))
        assert game_apply_move(game_id=game.pk, seat=seat, action=action,
                               expected_version=game.version, schedule_bots=False).applied
    raise AssertionError("game did not finish")




def left_in_english(html: str) -> list[str]:
    return english_words(html, allowed=NAMES)


@pytest.mark.django_db
@pytest.mark.parametrize("key, names, options", KINDS, ids=[k[0] for k in KINDS])
def test_every_game_in_play_and_finished_has_no_english_left(key, names, options, game_kind, classroom,
                                                              student, teacher, pseudo_language):
    game = play(seated(classroom, student, key, names, options), moves=3)
    child, coach = speaking(student, PSEUDO), speaking(teacher, PSEUDO)
    url = reverse("games:game", args=[game.pk])
    for who, client in (("child", child), ("teacher", coach)):
        html = client.get(url).content.decode()
        assert 'id="table-board"' in html
        # The site's own frame (menu, footer) is the core area's: only the table is checked here.
        table = html[html.index('<div class="game-table"'):html.index("</main>")] if "</main>" in html else html
        assert not left_in_english(table), (key, who, "in play", left_in_english(table))
    play(game)
    for who, client in (("child", child), ("teacher", coach)):
        html = client.get(url).content.decode()
        table = html[html.index('<div class="game-table"'):html.index("</main>")] if "</main>" in html else html
        assert 'id="results-title"' in html
        assert not left_in_english(table), (key, who, "finished", left_in_english(table))
    replay = child.get(reverse("games:replay", args=[game.pk]) + "?turn=2").content.decode()
    body = replay[replay.index('<div class="replay'):replay.index("</main>")] if "</main>" in replay else replay
    assert not left_in_english(body), (key, "replay", left_in_english(body))


@pytest.mark.django_db
@pytest.mark.parametrize("key, names, options", KINDS, ids=[k[0] for k in KINDS])
def test_each_seat_is_pushed_its_view_in_its_own_language(key, names, options, game_kind, classroom, student,
                                                         make_student, pseudo_language):
    """The push renders each human seat's view once, in that seat's reader's language."""
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    ben.language = "ar"
    ben.save(update_fields=["language"])
    student.language = PSEUDO
    student.save(update_fields=["language"])
    spec = game_kind
    humans = names[:1] + (["Ben"] if spec.max_players > 1 else [])
    seats = [SeatSpec(n, user=student if n == "Ann" else ben) for n in humans]
    seats += [SeatSpec(n, bot_level="player") for n in ["Robo", "Zip"][:max(0, spec.min_players - len(seats))]]
    game = play(game_create(key=key, classroom=classroom, seed=3, options=options, seats=seats), moves=2)
    push = table_push(game_id=game.pk)
    by_name = {s.name: str(s.pk) for s in game.seats.all()}
    ann_html = "".join(push.views[by_name["Ann"]].values())
    assert push.languages[by_name["Ann"]] == PSEUDO
    assert not left_in_english(ann_html), left_in_english(ann_html)
    if "Ben" in by_name:
        assert push.languages[by_name["Ben"]] == "ar"
        ben_html = "".join(push.views[by_name["Ben"]].values())
        assert "ماذا حدث للتو" in ben_html  # "What just happened", in Arabic


@pytest.mark.django_db
def test_refused_moves_and_status_lines_are_said_in_the_readers_language(classroom, student, pseudo_language):
    game = seated(classroom, student, "smooth_operator", ["Ann", "Robo"], {"target": 200})
    engine = engines.get(game.key)
    waiting = engine.waiting_for(game.state)[0]
    seat = game.seats.get(name=waiting)
    result = game_apply_move(game_id=game.pk, seat=seat, action={"type": "play", "card": "nonsense"},
                             expected_version=game.version, schedule_bots=False)
    assert result.status == "rejected"
    ann = game.seats.get(name="Ann")
    spoken = {PSEUDO: None, "es": ("Esperando a Robo", "Una parte de esa jugada no está permitida."),
              "ar": ("في انتظار Robo", "جزء من هذه الحركة غير مسموح.")}
    for language, phrases in spoken.items():
        with translation.override(language):
            html = render_table(game_id=game.pk, seat=ann, coach=False, notice=result.message).html
        if phrases is None:
            assert not left_in_english(html), left_in_english(html)
        else:
            assert all(phrase in html for phrase in phrases), (language, html[:400])
    # Every refusal each engine can give, said in Spanish: none is left in English.
    with translation.override("es"):
        from games.words import say
        from games.engine.errors import IllegalMove
        try:
            engine.apply(game.state, "Nobody", {"type": "end_turn"})
        except IllegalMove as exc:
            assert say(exc.message) == "Nobody no juega en esta partida."


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_socket_sends_each_viewer_their_language(classroom, student, teacher, pseudo_language):
    game = await sync_to_async(seated)(classroom, student, "numero", ["Ann", "Robo"], {})
    student.language = PSEUDO
    await sync_to_async(student.save)(update_fields=["language"])
    teacher.language = "ar"
    await sync_to_async(teacher.save)(update_fields=["language"])
    ann = connect_as(student, game.pk)
    assert (await ann.connect())[0]
    html = await ann.receive_from(timeout=5)
    assert 'id="table-board"' in html and not left_in_english(html), left_in_english(html)
    # A refused move: its notice comes back in the viewer's language.
    await ann.send_to(text_data=json.dumps({"action": json.dumps({"type": "take", "card": "99z", "groups": []}),
                                            "expected_version": str(game.version),
                                            "idempotency_key": "k" * 12}))
    reply = await ann.receive_from(timeout=5)
    assert 'id="table-notice"' in reply and not left_in_english(reply), left_in_english(reply)
    await ann.disconnect()
    coach = connect_as(teacher, game.pk)
    assert (await coach.connect())[0]
    html = await coach.receive_from(timeout=5)
    assert "بطاقات الجميع" in html  # "Everyone's cards", the teacher's view in Arabic
    await coach.disconnect()
    off_loop(lambda: None)


@pytest.mark.django_db
def test_the_lobby_and_the_open_tables_in_spanish_and_arabic(classroom, student, make_student):
    from games.services.tables import table_open
    game = table_open(student=student, key="smooth_operator")
    es = speaking(student, "es").get(reverse("games:lobby", args=[game.pk])).content.decode()
    assert "Código de la mesa" in es and "Empezar" in es
    ar = speaking(student, "ar").get(reverse("games:lobby", args=[game.pk])).content.decode()
    assert 'dir="rtl"' in ar and "رمز الطاولة" in ar


@pytest.mark.django_db
def test_app_js_words_are_in_the_javascript_catalogue(client):
    """app.js and live.js say their words through gettext(): the catalogue base.html loads
    serves them (the close codes' words come from Python, live/close_codes.py)."""
    es = client.get(reverse("javascript-catalog"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Comprobando" in es and "Conectado" in es
    ar = client.get(reverse("javascript-catalog"), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert "\\u0645\\u062a\\u0635\\u0644" in ar or "متصل" in ar  # "Connected"


@pytest.mark.django_db
def test_cards_and_equations_keep_left_to_right_in_arabic(classroom, student):
    game = play(seated(classroom, student, "numero", ["Ann", "Robo"], {}), moves=1)
    html = speaking(student, "ar").get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'dir="rtl"' in html
    assert 'class="hand nm-hand" role="list" dir="ltr"' in html
    assert "الوسط" in html  # "Centre"


@pytest.mark.django_db
def test_the_lobby_the_invitations_and_the_teachers_tables_have_no_english_left(
        classroom, student, teacher, make_student, pseudo_language):
    from games.services.tables import table_invite, table_open
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    game = table_open(student=student, key="smooth_operator")
    table_invite(host=student, game_id=game.pk, student_id=ben.pk)
    pages = [
        (speaking(student, PSEUDO), reverse("games:lobby", args=[game.pk]), '<div class="game-table'),
        (speaking(ben, PSEUDO), reverse("games:tables_panel"), '<div id="classmates-panel"'),
        (speaking(teacher, PSEUDO), reverse("classroom:teacher_tables", args=[classroom.pk]), "<h1>"),
    ]
    for client, url, start in pages:
        html = client.get(url).content.decode()
        part = html[html.index(start):html.index("</main>")] if "</main>" in html else html[html.index(start):]
        # The class's own name and head (classroom/_class_head.html) are the classroom area's.
        # The table's code is letters, the same in every language.
        code_words = set(re.findall(r"[A-Za-z]+", game.table_code))
        left = english_words(part.replace("Class 5B", ""), allowed=NAMES | code_words)
        assert not left, (url, left)


@pytest.mark.django_db
def test_skill_words_read_in_the_readers_language_wherever_they_are_shown():
    """A measure's title is an engine `Words`: English as data, said in the reader's language."""
    from games.engine.smooth_operator.skills import MEASURES
    best = MEASURES[0]
    assert best.title == "Best card" and json.dumps(best.title) == '"Best card"'
    with translation.override("es"):
        assert str(best.title) == "Mejor carta"
    with translation.override("ar"):
        assert str(best.title) == "أفضل بطاقة"


@pytest.mark.django_db
def test_each_reader_gets_the_log_lines_of_their_own_language(classroom, student, make_student):
    """The "What just happened" lines are said once per process and language (games/rendering.py
    `event_line`): one table's log, read in three languages in turn and then again, is each
    time in the reader's language."""
    from games.words import say

    game = play(seated(classroom, student, "smooth_operator", ["Ann", "Robo"], {"target": 1000}), moves=4)
    engine = engines.get(game.key)
    lines = {}
    for language in ("es", "ar", "en", "es", "ar"):
        with translation.override(language):  # as a socket renders for its reader
            html = render_table(game_id=game.pk, seat=game.seats.get(name="Ann"), coach=False).parts["log"]
            expected = [say(engine.describe_event(e)) for move in game.recent_events for e in move]
        items = re.findall(r"<li>(.*?)</li>", html, re.S)
        assert items and items == [str(line) for line in expected if line], language
        lines.setdefault(language, items)
        assert items == lines[language]
    assert len({tuple(v) for v in lines.values()}) == 3  # three languages, three different logs


@pytest.mark.django_db
def test_equations_in_arabic_sentences_stay_left_to_right(classroom, student):
    """"12 ÷ 4 = 3" inside an Arabic sentence is kept in a left-to-right isolate (LRI ... PDI,
    games/words.py): otherwise the signs take the sentence's direction and, after an Arabic
    name, the page shows "3 = 4 ÷ 12". Spanish, left to right, gets no marks."""
    from games.words import LRI, PDI, say

    engine = engines.get("smooth_operator")
    play_event = {"type": "play", "player": "سارة", "active": "علي", "card": "/", "high": 12, "low": 4, "award": 3}
    with translation.override("ar"):
        line = say(engine.describe_event(play_event))
    assert f"{LRI}12 ÷ 4 = 3{PDI}" in line and "سارة" in line
    with translation.override("es"):
        assert LRI not in say(engine.describe_event(play_event))
    game = play(seated(classroom, student, "smooth_operator", ["Ann", "Robo"], {"target": 1000}), moves=6)
    with translation.override("ar"):
        log = render_table(game_id=game.pk, seat=game.seats.get(name="Ann"), coach=False).parts["log"]
    equations = re.findall(r"\d+ [−+×÷] \d+ = \d+", log)
    assert equations and all(f"{LRI}{e}{PDI}" in log for e in equations)
