"""Why a decision was judged as it was, in the reader's language (docs/i18n.md): the verdicts the
replay and the moves page show (each game's `explain`, games/engine/*/verdicts.py), the units
of the amounts (`Measure.amount_words`) and what a practice game's options do
(`GameSkills.focus_words`). They are the engines' sentences (games/engine/words.py `Words`),
whole sentences with named values, said through the games catalogue.

In the pseudo-language no English word may be left (tests/i18n/pseudo.py); in Spanish and
Arabic a real sentence appears."""

from __future__ import annotations

import re
from functools import cache

import pytest
from django.urls import reverse
from django.utils import translation

from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_game
from devtools.validity import STUDENT, planted_student, play_one
from games import practice, registry
from games.engine.skills import Judged, points
from reports.measures import RULES, THINK
from reports.models import SkillEvidence
from reports.selectors import verdict_of
from tests.i18n.pseudo import PSEUDO, english_words
from tests.i18n.readers import speaking
from tests.reports.showing import evidence, make_game
from tests.reports.test_verdicts_explained import PLANTS  # each game with every one of its measures planted

GAMES = sorted(PLANTS)




def section(html: str, start: str, end: str = "</section>") -> str:
    at = html.index(start)
    return html[at:html.index(end, at)]


def names_in(game) -> set[str]:
    """The seats' names (the student's and the computer players'): typed, not translated."""
    return {word for seat in game.seats.all() for word in re.findall(r"[A-Za-z]+", seat.name)}


@cache
def verdicts_of_planted_games(key: str) -> list:
    """Every counted decision of a few planted games, explained (no database): each sentence
    kind a game says comes up (a miss and a fine decision of every measure, and more)."""
    skills = registry.spec_for(key).skills
    student = planted_student(PLANTS[key], seed=f"i18n-verdicts:{key}")
    found = []
    for seed in range(12):
        attempts: list = []
        for row in play_one(key, student, seed=seed, bot_level="player", actions_out=attempts):
            if row.measure in (RULES, THINK):
                continue
            analysis, action = attempts[row.move_id]
            verdict = skills.explain(Judged(row.measure, row.detail, row.missed, row.amount, analysis, action))
            if verdict is not None:
                found.append((row.measure, verdict))
    return found


@pytest.mark.django_db
@pytest.mark.parametrize("key", GAMES)
def test_every_verdict_of_planted_games_is_said_in_the_readers_language(key, pseudo_language):
    """All the sentences of many explained decisions: none keeps an English word (a value a
    sentence was glued from, or a sentence nobody marked, would)."""
    found = verdicts_of_planted_games(key)
    measures = {m.id for m in registry.spec_for(key).skills.measures if m.has_misses}
    assert {measure for measure, _ in found} == measures
    problems = set()
    with translation.override(PSEUDO):
        for measure, verdict in found:
            for text in (verdict.played, verdict.expert, verdict.worth):
                # The players' names are data (devtools/validity.py names them).
                left = english_words(str(text), allowed={STUDENT, "Robo"})
                if left:
                    problems.add(f"{measure}: {str(text)!r} ({str.__str__(text)!r})")
    assert not problems, "\n".join(sorted(problems))


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery")
@pytest.mark.parametrize("key", GAMES)
def test_the_replay_shows_each_games_verdicts_with_no_english_left(key, classroom, student, teacher,
                                                                  pseudo_language):
    """A teacher replays a planted student's game in the pseudo-language, at the position of a
    missed and of a fine decision of each measure: the verdicts' section has no English word."""
    wanted = {(m.id, missed) for m in registry.spec_for(key).skills.measures if m.has_misses
              for missed in (True, False)}
    shown: dict[tuple[str, bool], SkillEvidence] = {}
    for seed in range(8):
        game = play_game(key=key, classroom=classroom, student=student, seed=seed,
                         player=PlantedPlayer([parse_plant(p) for p in PLANTS[key]], seed=f"i18n:{seed}"))
        for row in (SkillEvidence.objects.filter(game=game).exclude(measure__in=(RULES, THINK))
                    .select_related("game", "move", "move__seat")):
            if (row.measure, row.missed) not in shown and verdict_of(row) is not None:
                shown[(row.measure, row.missed)] = row
        if wanted <= set(shown):
            break
    assert wanted <= set(shown), f"not played: {sorted(wanted - set(shown))}"
    coach = speaking(teacher, PSEUDO)
    for (measure, missed), row in sorted(shown.items()):
        html = coach.get(reverse("games:replay", args=[row.game_id]), {"turn": row.turn}).content.decode()
        verdicts = section(html, '<section class="replay-verdicts')
        left = english_words(verdicts, allowed=names_in(row.game))
        assert not left, (key, measure, missed, left)


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery")
def test_a_verdict_on_the_replay_in_spanish_and_arabic(classroom, student, teacher):
    """A child who drew when a card could be played: the teacher reads why, in their language."""
    for seed in range(8):
        game = play_game(key="multiplication", classroom=classroom, student=student, seed=seed,
                         player=PlantedPlayer([parse_plant("mg.missed_play=0.5")], seed=f"i18n:{seed}"))
        row = SkillEvidence.objects.filter(game=game, measure="mg.missed_play", missed=True).first()
        if row is not None:
            break
    assert row is not None
    url = reverse("games:replay", args=[row.game_id])
    spanish = section(speaking(teacher, "es").get(url, {"turn": row.turn}).content.decode(),
                      '<section class="replay-verdicts')
    assert "Robó una carta." in spanish and "El experto descartaría " in spanish
    assert "más en la mano que después de descartar" in spanish
    arabic = section(speaking(teacher, "ar").get(url, {"turn": row.turn}).content.decode(),
                     '<section class="replay-verdicts')
    assert "سحب بطاقة." in arabic and "كان الخبير سيلقي " in arabic
    assert "أكثر في اليد مما بعد الإلقاء" in arabic


@pytest.mark.django_db
def test_amounts_on_the_moves_page_take_the_readers_plural_forms(client, teacher, classroom, student,
                                                                pseudo_language):
    """"5 points given away" on the moves page: Spanish and Arabic words, Arabic's own form
    for 1, 2 and 5 (one, two, a few), and no English left in the pseudo-language."""
    game, moves = make_game(classroom, student, moves=3)
    for move, amount in zip(moves, (1, 2, 5)):
        evidence(move, student, "so.lowest_operator", missed=True, amount=amount)
    url = reverse("reports:moves", args=[classroom.pk]) + "?measure=so.lowest_operator&missed=all"
    client.force_login(teacher)
    for language, words in (("en", ["1 point given away", "2 points given away", "5 points given away"]),
                            ("es", ["1 punto regalado", "2 puntos regalados", "5 puntos regalados"]),
                            ("ar", ["نقطة واحدة مُعطاة", "نقطتان مُعطاتان", "5 نقاط مُعطاة"])):
        teacher.language = language
        teacher.save(update_fields=["language"])
        html = client.get(url).content.decode()
        assert all(w in html for w in words), (language, words)
    teacher.language = PSEUDO
    teacher.save(update_fields=["language"])
    table = section(client.get(url).content.decode(), "<table", "</table>")
    assert not english_words(table, allowed={"Ann", "Computer"}), english_words(table, allowed={"Ann", "Computer"})


@pytest.mark.django_db
def test_a_total_and_a_number_with_a_decimal_in_the_readers_language():
    """A total's heading, and a fraction of a point with the reader's decimal sign."""
    unit = next(m for m in registry.spec_for("smooth_operator").skills.measures
                if m.id == "so.lowest_operator").amount_words
    assert unit == ("point given away", "points given away")  # as data: English, as before
    assert str.__str__(points(2.5)) == "2.5 points"
    with translation.override("es"):
        assert str(unit.title) == "Puntos regalados" and str(points(2.5)) == "2,5 puntos"
    with translation.override("ar"):
        assert str(unit.title) == "النقاط المُعطاة" and str(unit.of(11)) == "11 نقطة مُعطاة"


def focus_cases():
    """Every game's focused practice options, as "Practise this" makes them."""
    cases = [("smooth_operator", "so.mental_math", "÷", ()), ("smooth_operator", "so.mental_math", "", ("×", "−")),
             ("multiplication", "mg.facts", "7x8", ()), ("multiplication", "mg.facts", "", ("7x8", "7x9", "6x7")),
             ("multiplication", "mg.squares", "", ()), ("numero", "nu.best_take", "", ())]
    return cases


@pytest.mark.django_db
def test_what_a_practice_game_does_is_said_in_the_readers_language(pseudo_language):
    seen = set()
    for game, measure, detail, weakest in focus_cases():
        focus = practice.focus_for(measure, detail, weakest)
        assert focus is not None, (measure, detail)
        with translation.override(PSEUDO):
            texts = [*focus.words, str(focus.label)]
            for text in texts:
                assert not english_words(text), (measure, detail, text)
        seen.add(game)
    numbers = {"wilds": ["subtract", "fraction", "power"], "level": 6}
    add = {"number_range": [3, 6]}
    with translation.override(PSEUDO):
        for game, options in (("numero", numbers), ("add_or_multiply", add)):
            for text in practice.options_words(game, options):
                assert not english_words(text), (game, text)
    with translation.override("es"):
        assert practice.options_words("numero", numbers) == [
            "Se juega en el nivel 6 de Numero.", "Comodines: restar, fracción y potencia y raíz."]
    with translation.override("ar"):
        assert practice.options_words("add_or_multiply", add) == ["بطاقات الأرقام من 3 إلى 6 فقط."]
    assert seen == {"smooth_operator", "multiplication", "numero"}
    # A focus is stored with its English label; pages say it again in the reader's language.
    stored = practice.focus_for("so.mental_math", "÷").as_json()
    assert stored["label"] == "Mental maths: ÷"
    with translation.override("es"):
        assert practice.label_of(stored) == "Cálculo mental: ÷"
    tables = practice.focus_for("mg.facts", "", ("7x8", "7x9", "6x7")).as_json()
    with translation.override("ar"):
        assert practice.label_of(tables) == "جدول ضرب 7"


@pytest.mark.django_db
def test_a_facts_detail_and_seconds_on_the_moves_page(client, teacher, classroom, student):
    """The times-table fact a card needed, and the seconds it took, as the reader says them."""
    game, moves = make_game(classroom, student, key="multiplication", moves=1)
    evidence(moves[0], student, "mg.facts", missed=True, detail="7x8", amount=2.0)
    url = reverse("reports:moves", args=[classroom.pk]) + "?measure=mg.facts&missed=all"
    client.force_login(teacher)
    html = client.get(url).content.decode()
    assert "needed <bdi>7x8</bdi>" in html and "2 seconds" in html
    teacher.language = "es"
    teacher.save(update_fields=["language"])
    html = client.get(url).content.decode()
    assert "necesitaba <bdi>7x8</bdi>" in html and "2 segundos" in html
    teacher.language = "ar"
    teacher.save(update_fields=["language"])
    html = client.get(url).content.decode()
    assert "المطلوب <bdi>7x8</bdi>" in html and "ثانيتان" in html
