""""Practise this" (docs/reports-dashboard.md): each game's practice hook gives options its engine accepts; the
report's Practise links open the assignment form prefilled (a GET changes nothing) for a
student, a group or the class; submitting it sets a focused assignment the students see on
their home page; and a simulated class shows the report's before and after."""

from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client
from django.urls import reverse

from classroom.models import Assignment
from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_assignment_games, play_game
from games import practice, registry
from games.engine.skills import OPERATIONS
from reports import selectors, services
from reports.models import SkillEvidence

from .test_exports import pdf_text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


# ----- the hook, per game -------------------------------------------------------------------

def _asks():
    """(measure id, detail, weakest) for every measure of every game with a hook: the whole
    measure, each detail a report shows (a fact, an operation), and a weakest list."""
    for spec in registry.all_games():
        for m in spec.skills.measures if spec.skills else ():
            yield m.id, "", ()
            if m.fact_grid:
                yield m.id, "7x8", ()
                yield m.id, "8x7", ()
                yield m.id, "", ("7x8", "6x9")
                yield m.id, "", ("7x8", "7x9", "6x7", "3x4")  # three share the 7 times table
            if m.by_operation:
                for op in OPERATIONS:
                    yield m.id, op, ()
                yield m.id, "", ("÷", "−")


@pytest.mark.parametrize("measure_id,detail,weakest", sorted(set(_asks())))
def test_every_practice_is_accepted_by_its_engine(measure_id, detail, weakest):
    focus = practice.focus_for(measure_id, detail, weakest)
    if measure_id.startswith("all."):
        assert focus is None  # rule errors and thinking time: no game unless the evidence names one
        return
    assert focus is not None, measure_id
    if practice.why_no_focus(measure_id):
        # No deal gives it many more chances: the usual game, and the form says why.
        assert focus.plain and focus.game == registry.spec_for(focus.game).key
        assert focus.words == [practice.plain_words(focus.game, measure_id)]
        assert "usual game" in focus.words[0]
        return
    spec = registry.spec_for(focus.game)
    assert measure_id in {m.id for m in spec.skills.measures}
    for preset in spec.presets:
        options = practice.merged_options(focus.game, dict(preset.options), focus.options)
        if "level" in focus.options and preset.key != practice.preset_for(focus.game, focus.options):
            continue  # a Numero level sets the whole pack: prefilled with its own preset
        for count in range(spec.min_players, spec.max_players + 1):
            spec.engine.resolve_options(dict(options), count)  # raises BadScenario if not
        # Dealt for the tables a practice is set for (ten cards each fit four players; the
        # form refuses a bigger table in words: test_a_table_too_big_is_refused_in_words).
        for count in range(spec.min_players, min(spec.max_players, 4) + 1):
            assert practice.options_accepted(focus.game, options, [count]) == ""
    assert practice.options_words(focus.game, focus.options)


def test_each_focus_practises_what_its_flag_names():
    assert practice.focus_for("mg.facts", "7x8").options == {"focus_facts": ["7x8"], "hand_size": 10}
    assert practice.focus_for("mg.facts", "", ("8x7", "6x9")).options == {
        "focus_facts": ["7x8", "6x9"], "hand_size": 10}
    assert practice.focus_for("mg.facts", "", ("7x8", "7x9", "6x7")).options == {
        "focus_tables": [7], "hand_size": 10}
    assert practice.focus_for("so.mental_math", "÷").options == {"focus_operators": ["/"],
                                                                "low_range": [1, 5]}
    assert practice.focus_for("so.mental_math", "−").options == {"focus_operators": ["-"]}
    assert practice.focus_for("so.mental_math", "×").options == {"focus_operators": ["x"],
                                                                "low_range": [1, 5]}
    assert practice.focus_for("mg.squares").options == {"focus_facts": [f"{k}x{k}" for k in range(1, 11)]}
    # No deal gives these many more chances: their practice is the usual game, said so (never a
    # plain game passed off as a focus), played at the level the evidence came from (the page's).
    for measure_id in ("so.lowest_operator", "so.specials", "so.even_division", "nu.missed_take",
                       "nu.best_take", "nu.valid_build", "am.operation"):
        focus = practice.focus_for(measure_id)
        assert focus.plain and "has no practice deal of its own" in practice.why_no_focus(measure_id)
        assert focus.words[0].startswith(practice.why_no_focus(measure_id)) and "usual game" in focus.words[0]
    # The rules: in the game the evidence names, the usual game.
    assert practice.focus_for("all.rule_errors") is None
    rules = practice.focus_for("all.rule_errors", game="numero_solitaire")
    assert rules.plain and rules.game == "numero_solitaire" and rules.label == "the rules of Numero Solitaire"
    assert practice.focus_for("nu.best_take", game="numero_solitaire").game == "numero_solitaire"
    assert practice.focus_for("mg.facts", "7x8", game="numero").game == "multiplication"  # not Numero's
    focus = practice.focus_for("mg.facts", "8x7")
    assert focus.label == "7 × 8" and set(focus.details) == {"7x8", "8x7"}


# ----- the prefilled form --------------------------------------------------------------------

@pytest.fixture
def teacher_client(teacher):
    client = Client()
    client.force_login(teacher)
    return client


def _has_played(classroom, kid, key: str, measure: str, detail: str, plant: str) -> None:
    """A few of `kid`'s games of `key`, until the report has evidence of measure:detail:
    "Practise this" is for a student with evidence (docs/reports.md)."""
    player = PlantedPlayer([parse_plant(plant)], seed=f"played:{kid.pk}")
    for g in range(8):
        with services.deferred_class_refresh():
            play_game(key=key, classroom=classroom, student=kid, player=player, seed=500 + g)
        if SkillEvidence.objects.filter(student=kid, measure=measure, detail__in=(detail, detail[::-1])).exists():
            return
    raise AssertionError(f"no evidence of {measure}:{detail} in 8 games")


@pytest.fixture
def ann_played(classroom, student):
    """Ann has named 7 × 8 in a game (and got it wrong now and then)."""
    _has_played(classroom, student, "multiplication", "mg.facts", "7x8", "mg.facts:7x8=0.5")
    return student


def _open(client, classroom, **query):
    """Follow a Practise link: (the redirect's query, the form page)."""
    before = Assignment.objects.count()
    response = client.get(reverse("reports:practise", args=[classroom.pk]), query)
    assert response.status_code == 302, response.content[:400]
    target = urlparse(response["Location"])
    assert target.path == reverse("classroom:assignment_create", args=[classroom.pk])
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert Assignment.objects.count() == before, "a GET must not set anything"
    return parse_qs(target.query), page.content.decode()


def _post_from(page_query, **extra) -> dict:
    data = {k: v if k == "students" else v[0] for k, v in page_query.items()}
    data.setdefault("bot_count", "1")
    data.setdefault("opponents", "bots")
    data.update(extra)
    return data


def test_practise_a_fact_for_one_student_prefills_the_form(teacher_client, classroom, student, ann_played):
    query, html = _open(teacher_client, classroom, measure="mg.facts", detail="7x8", student=student.pk)
    assert query["game"] == ["multiplication"] and query["goal_count"] == ["3"]
    assert query["audience"] == ["chosen"] and query["students"] == [str(student.pk)]
    assert query["due_on"] and query["bot_level"] == ["just_right"]
    assert json.loads(query["focus"][0])["options"] == {"focus_facts": ["7x8"], "hand_size": 10}
    assert "Practice: 7 × 8" in html
    assert "Extra cards 56 (7 × 8)" in html
    assert re.search(r'<input[^>]*name="focus_cards"[^>]*checked', html)
    assert f'value="{student.pk}"' in html


def test_practise_for_a_group_and_for_the_class(teacher_client, classroom, student, make_student):
    ben = make_student(classroom, "Ben", ("moon", "star", "fish"))
    _has_played(classroom, ben, "smooth_operator", "so.mental_math", "÷", "so.mental_math=0.2")
    query, html = _open(teacher_client, classroom, measure="so.mental_math", detail="÷",
                        student=[student.pk, ben.pk])
    assert query["game"] == ["smooth_operator"] and sorted(query["students"]) == sorted(
        [str(student.pk), str(ben.pk)])
    assert "Many more ÷ (dividing) operator cards" in html
    query, html = _open(teacher_client, classroom, measure="mg.squares")
    assert query["audience"] == ["class"] and "students" not in query
    assert "Extra square cards" in html


def test_practise_refuses_what_it_cannot_practise(teacher_client, classroom, student):
    url = reverse("reports:practise", args=[classroom.pk])
    response = teacher_client.get(url, {"measure": "all.rule_errors"})  # no game focuses it: words
    assert response.status_code == 200 and "comes up in every game" in response.content.decode()
    assert teacher_client.get(url, {"measure": "nope"}).status_code == 400
    response = teacher_client.get(url, {"student": student.pk})  # nothing played yet: words
    assert response.status_code == 200 and "Ann has not finished a game yet" in response.content.decode()
    assert not Assignment.objects.exists()


def test_submitting_sets_a_focused_assignment_the_student_sees(teacher_client, classroom, student, ann_played):
    query, _ = _open(teacher_client, classroom, measure="mg.facts", detail="7x8", student=student.pk)
    response = teacher_client.post(reverse("classroom:assignment_create", args=[classroom.pk]),
                                   _post_from(query))
    assert response.status_code == 302, response.content.decode()[:2000]
    a = Assignment.objects.get()
    assert a.title == "Practise 7 × 8" and a.bot_level == "just_right"
    assert a.options["focus_facts"] == ["7x8"] and a.options["hand_size"] == 10
    assert a.focus["measure"] == "mg.facts" and a.focus["detail"] == "7x8"
    assert list(a.students.all()) == [student]
    kid = Client()
    kid.force_login(student)
    home = kid.get(reverse("classroom:student_home")).content.decode()
    assert "Practise 7 × 8" in home


def test_unticking_the_practice_cards_keeps_the_level_and_the_before_after(teacher_client, classroom,
                                                                           student, ann_played):
    query, _ = _open(teacher_client, classroom, measure="mg.facts", detail="7x8", student=student.pk)
    data = _post_from(query)
    data.pop("focus_cards")
    assert teacher_client.post(reverse("classroom:assignment_create", args=[classroom.pk]),
                               data).status_code == 302
    a = Assignment.objects.get()
    assert "focus_facts" not in a.options and a.focus["options"] == {} and a.focus["label"] == "7 × 8"


def test_a_table_too_big_is_refused_in_words(teacher_client, classroom, student, ann_played):
    query, _ = _open(teacher_client, classroom, measure="mg.facts", detail="7x8", student=student.pk)
    response = teacher_client.post(reverse("classroom:assignment_create", args=[classroom.pk]),
                                   _post_from(query, bot_count="5"))
    assert response.status_code == 200
    assert "be played with 6 players" in response.content.decode()
    assert not Assignment.objects.exists()


# ----- a simulated class: before and after ---------------------------------------------------

FACT = "7x8"
BEFORE_RATE, DURING_RATE = 0.6, 0.15   # the planted learning effect
BEFORE_GAMES, STUDENTS = 12, 3


def test_a_simulated_class_shows_before_and_after(teacher_client, teacher, classroom, make_student,
                                                  capsys):
    """A class with a planted weakness on 7 × 8 plays; the teacher uses Practise this on the
    class heat map's weakest fact; the students (now missing it less: the learning effect)
    play the practice through the same start as their Play button; the reports show both."""
    kids = [make_student(classroom, name, pics) for name, pics in
            (("Ann", ("cat", "sun", "tree")), ("Ben", ("moon", "star", "fish")),
             ("Cal", ("cat", "moon", "fish")))][:STUDENTS]
    with services.deferred_class_refresh():
        for i, kid in enumerate(kids):
            player = PlantedPlayer([parse_plant(f"mg.facts:{FACT}={BEFORE_RATE}")], seed=f"before:{i}")
            for g in range(BEFORE_GAMES):
                play_game(key="multiplication", classroom=classroom, student=kid, player=player,
                          seed=1000 * i + g)
    grid = selectors.fact_grid(classroom=classroom)
    weakest = grid.practise()[0]
    assert weakest.detail == FACT
    facts_page = teacher_client.get(reverse("reports:facts", args=[classroom.pk])).content.decode()
    practise_href = f"{reverse('reports:practise', args=[classroom.pk])}?measure=mg.facts&amp;detail={FACT}"
    assert practise_href in facts_page  # the square's Practise link, for the whole class
    query, html = _open(teacher_client, classroom, measure="mg.facts", detail=FACT)
    assert "Practice: 7 × 8" in html
    assert teacher_client.post(reverse("classroom:assignment_create", args=[classroom.pk]),
                               _post_from(query, bot_level="beginner")).status_code == 302
    assignment = Assignment.objects.get()
    assert assignment.students.count() == 0  # the whole class
    with services.deferred_class_refresh():
        for i, kid in enumerate(kids):
            learnt = PlantedPlayer([parse_plant(f"mg.facts:{FACT}={DURING_RATE}")], seed=f"during:{i}")
            for game in play_assignment_games(assignment=assignment, student=kid, player=learnt,
                                              games=assignment.goal_count, seed=i + 1):
                assert game.options["focus_facts"] == [FACT]
                services.game_finished(game_id=game.pk)
    outcomes = selectors.focus_outcomes(classroom=classroom, assignment=assignment)
    assert [o.student for o in outcomes] == kids
    before = [sum(o.before[k] for o in outcomes) for k in (0, 1)]
    during = [sum(o.during[k] for o in outcomes) for k in (0, 1)]
    with capsys.disabled():
        print(f"\n7 × 8, {STUDENTS} students: before {before[0]} of {before[1]} wrong "
              f"({before[0] / before[1]:.0%}); in the practice {during[0]} of {during[1]} wrong "
              f"({during[0] / during[1]:.0%})")
        for o in outcomes:
            print(f"  {o.student.display_name}: {o.words}")
    assert all(o.done for o in outcomes)
    # The focused pack gives the fact many more chances a game than the games before it.
    assert during[1] / (STUDENTS * assignment.goal_count) >= 2 * before[1] / (STUDENTS * BEFORE_GAMES)
    assert before[1] >= 8 and during[1] >= 8
    assert before[0] / before[1] >= 0.4 and during[0] / during[1] <= 0.3
    # The student's page and the assignment's report say it in words.
    ann = outcomes[0]
    page = teacher_client.get(reverse("reports:student", args=[classroom.pk, kids[0].pk])).content.decode()
    assert "Practice: before and after" in page and ann.words in page
    report = teacher_client.get(reverse("reports:dashboard", args=[classroom.pk]),
                                {"assignment": assignment.pk}).content.decode()
    assert all(o.words in report for o in outcomes)
    # The rating, and the outcome, in the student CSV and the parent PDF.
    assert "Playing level" in page and "rating-teacher" in page
    body = teacher_client.get(reverse("reports:skills_csv", args=[classroom.pk])).content.decode("utf-8-sig")
    rows = [r for r in csv.reader(io.StringIO(body)) if r and r[0] == "Ann"]
    rating = next(r for r in rows if r[2] == "rating:multiplication")
    assert rating[3] == "Rating" and int(rating[13]) > 0 and rating[11]
    outcome = next(r for r in rows if r[2].startswith(f"practice:{assignment.pk}:mg.facts"))
    assert outcome[15].startswith(ann.words)
    assert int(outcome[6]) == ann.during[0] and int(outcome[7]) == ann.during[1]
    text = pdf_text(teacher_client.get(reverse("reports:student_pdf",
                                               args=[classroom.pk, kids[0].pk])).content)
    flat = " ".join(text.split())
    assert "Focused practice" in flat and "Playing level" in flat
    assert f"before {ann.before[0]} of {ann.before[1]} wrong" in flat
    assert "The Multiplication Game:" in flat and "rating" in flat
    # The child sees a friendly level, never the number.
    kid = Client()
    kid.force_login(kids[0])
    mine = kid.get(reverse("reports:my_progress")).content.decode()
    assert "My level in each game" in mine and "rating-child" in mine and "rating-number" not in mine
    assert SkillEvidence.objects.filter(assignment=assignment, detail=FACT).exists()
