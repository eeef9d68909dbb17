"""A practice step for every flag and every Practise or Needs help band: a "Practise this" on
the student's dashboard row, on the student page and as the one action of each flag card, in
the game and at the level the evidence came from. Each link is followed to the prefilled
assignment form, the assignment is set, and its first game is dealt by the engine with the
focus (the fact or the operation comes up in it).

The class (evidence written directly, then the real roll-ups and flags):
- Ann: 7 × 8 wrong 12 of 16 (a fact flag) in The Multiplication Game with free cards, though
  her times tables as a whole are Strong; ÷ wrong 11 of 20 in Smooth Operator's mental maths
  (an operation flag), though her mental maths as a whole is Getting there;
- Ben: "Best card" at Needs help (no deal gives it more chances);
- Cy: "Biggest take" at Needs help, from Numero at level 4;
- Dee: 5 moves the rules refused in one game of Numero Solitaire at level 3 (a rule-errors flag).
"""

from __future__ import annotations

import json
import re
from html import unescape
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from classroom.models import Assignment
from devtools.planted import PlantedPlayer
from devtools.simulation import play_assignment_games
from games import practice, registry
from games.models import Game
from reports import selectors, services
from reports.models import NeedsHelpFlag, SkillEvidence
from reports.selectors import monday

from .showing import make_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

NUMERO_LEVEL_4 = {"max_number": 15, "wilds": ["subtract", "multiply", "divide"], "scoring": False,
                  "challenges": False}
NUMERO_LEVEL_3 = {"max_number": 15, "wilds": ["subtract"], "scoring": False, "challenges": False}
MG_FREE_CARDS = {"free_cards": 2, "hand_size": 7, "turn_limit": 400}
SO_STANDARD = {"target": 1000}


def evidence_move(classroom, student, key: str, options: dict):
    """A finished game of `student` dealt with `options`, and the move its evidence rows point at."""
    game, moves = make_game(classroom, student, key=key, moves=1)
    Game.objects.filter(pk=game.pk).update(options=options)
    return moves[0]


def evidence_rows(move, student, measure: str, detail: str, misses: int, chances: int) -> list[SkillEvidence]:
    """`chances` evidence rows of a measure (and detail) in the move's game, `misses` of them missed."""
    now = timezone.now()
    return [SkillEvidence(game=move.game, move=move, student=student, classroom=move.game.classroom,
                          measure=measure, detail=detail, missed=i < misses, turn=i, played_at=now,
                          week=monday(timezone.localdate())) for i in range(chances)]


@pytest.fixture
def flagged(classroom, make_student):
    ann = make_student(classroom, "Ann", ("cat", "sun", "tree"))
    ben = make_student(classroom, "Ben", ("moon", "star", "fish"))
    cy = make_student(classroom, "Cy", ("cat", "moon", "fish"))
    dee = make_student(classroom, "Dee", ("sun", "star", "tree"))
    rows = []
    times = evidence_move(classroom, ann, "multiplication", MG_FREE_CARDS)
    rows += evidence_rows(times, ann, "mg.facts", "7x8", 12, 16)
    for n, fact in enumerate(f"{a}x{b}" for a in range(2, 7) for b in range(a, a + 5)):
        rows += evidence_rows(times, ann, "mg.facts", fact, 1 if n % 6 == 0 else 0, 12)
    sums = evidence_move(classroom, ann, "smooth_operator", SO_STANDARD)
    for sign, misses, chances in (("÷", 11, 20), ("+", 1, 40), ("×", 2, 30)):
        rows += evidence_rows(sums, ann, "so.mental_math", sign, misses, chances)
    rows += evidence_rows(evidence_move(classroom, ben, "smooth_operator", SO_STANDARD), ben, "so.lowest_operator", "", 14, 20)
    rows += evidence_rows(evidence_move(classroom, cy, "numero", NUMERO_LEVEL_4), cy, "nu.best_take", "", 9, 14)
    rules = evidence_move(classroom, dee, "numero_solitaire", NUMERO_LEVEL_3)
    rows += evidence_rows(rules, dee, "all.rule_errors", "not_in_hand", 5, 5)
    rows += evidence_rows(rules, dee, "all.think_time", "take", 0, 20)
    SkillEvidence.objects.bulk_create(rows)
    services.class_reports_refresh(classroom_id=classroom.pk)
    found = sorted((f.student.display_name, f.reason, f.measure, f.detail)
                   for f in NeedsHelpFlag.objects.filter(classroom=classroom))
    assert found == [("Ann", "fact", "mg.facts", "7x8"), ("Ann", "operation", "so.mental_math", "÷"),
                     ("Dee", "rule_errors", "all.rule_errors", "")], found
    return {"ann": ann, "ben": ben, "cy": cy, "dee": dee, "rules_game": rules.game}


@pytest.fixture
def teacher_client(teacher):
    client = Client()
    client.force_login(teacher)
    return client


def _flag_cards(html: str) -> dict[str, list[str]]:
    """Each flag card's HTML, by the student it is about."""
    cards: dict[str, list[str]] = {}
    for card in re.findall(r'<li class="card flag">(.*?)</li>', html, flags=re.S):
        name = re.search(r"<h3>.*?<a [^>]*>([^<]+)</a>", card, flags=re.S).group(1)
        cards.setdefault(name, []).append(card)
    return cards


def _practise_links(html: str) -> list[tuple[str, str]]:
    """(href, accessible name) of every "Practise this" link in `html`."""
    return [(unescape(href), unescape(label)) for href, label in
            re.findall(r'<a class="practise-link" href="([^"]+)" aria-label="([^"]+)">', html)]


def _row(html: str, student) -> str:
    """The heading of the student's row of the skill table: their name and their Practise this."""
    return html.split(f'id="dash-row-{student.pk}"')[1].split("</th>")[0]


def _follow(client, href: str) -> tuple[dict, str]:
    """Follow a Practise link: (the prefilled form's query, the form page). A GET sets nothing."""
    before = Assignment.objects.count()
    response = client.get(href)
    assert response.status_code == 302, response.content.decode()[:600]
    target = urlparse(response["Location"])
    page = client.get(response["Location"])
    assert page.status_code == 200 and Assignment.objects.count() == before
    return parse_qs(target.query), page.content.decode()


def _set(client, classroom, query: dict) -> Assignment:
    data = {k: v if k == "students" else v[0] for k, v in query.items()}
    if registry.spec_for(data["game"]).multiplayer:  # a one-player game's form has no table to set
        data.setdefault("bot_count", "1")
        data.setdefault("opponents", "bots")
    response = client.post(reverse("classroom:assignment_create", args=[classroom.pk]), data)
    assert response.status_code == 302, response.context["form"].errors
    return Assignment.objects.latest("pk")


def _first_game(assignment, student) -> Game:
    """The assignment's first game, dealt as the student's Play button deals it and played out;
    its evidence is written as at the end of any game."""
    game = play_assignment_games(assignment=assignment, student=student, player=PlantedPlayer([]), games=1)[0]
    services.game_finished(game_id=game.pk)
    return game


def test_a_fact_flag_is_practised_from_the_card_the_row_and_the_student_page(teacher_client, classroom,
                                                                              flagged):
    ann = flagged["ann"]
    dash = teacher_client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode()
    page = teacher_client.get(reverse("reports:student", args=[classroom.pk, ann.pk])).content.decode()
    for html in (dash, page):
        cards = _flag_cards(html)["Ann"]
        assert len(cards) == 2
        for card in cards:  # one action each, beside the links to the moves
            assert len(_practise_links(card)) == 1 and "See the 1" in card
    fact_card = next(c for c in _flag_cards(dash)["Ann"] if "7 × 8: 12 of 16 wrong" in c)
    (href, label), = _practise_links(fact_card)
    assert label == "Practise this: 7 × 8 for Ann"
    # The dashboard row and the student page offer the fact too, not "nothing to practise".
    row = _row(dash, ann)
    assert "No skill at Practise" not in row
    assert _practise_links(row) == [(href, "Practise this: Ann's weakest skill, 7 × 8")]
    assert "Nothing to practise" not in page
    weakest = re.search(r'<a class="btn" href="([^"]+)">Practise the weakest skill', page).group(1)
    assert unescape(weakest) == href

    query, form = _follow(teacher_client, href)
    assert query["game"] == ["multiplication"] and query["preset"] == ["free_cards"]  # her level
    assert query["students"] == [str(ann.pk)] and query["title"] == ["Practise 7 × 8"]
    focus = json.loads(query["focus"][0])
    assert (focus["measure"], focus["detail"]) == ("mg.facts", "7x8")
    assert focus["options"] == {"focus_facts": ["7x8"], "hand_size": 10}
    assert "Practice: 7 × 8" in form and "Extra cards 56 (7 × 8)" in form
    assignment = _set(teacher_client, classroom, query)
    assert assignment.options["free_cards"] == 2 and assignment.options["focus_facts"] == ["7x8"]
    game = _first_game(assignment, ann)
    assert SkillEvidence.objects.filter(game=game, student=ann, measure="mg.facts",
                                        detail__in=("7x8", "8x7")).exists()
    kid = Client()
    kid.force_login(ann)
    assert "Practise 7 × 8" in kid.get(reverse("classroom:student_home")).content.decode()


def test_an_operation_flag_is_practised_in_its_game(teacher_client, classroom, flagged):
    ann = flagged["ann"]
    page = teacher_client.get(reverse("reports:student", args=[classroom.pk, ann.pk])).content.decode()
    card = next(c for c in _flag_cards(page)["Ann"] if "÷ (dividing) in Mental maths: 11 of 20 wrong" in c)
    (href, label), = _practise_links(card)
    assert label == "Practise this: ÷ (dividing) in Mental maths for Ann"
    query, form = _follow(teacher_client, href)
    assert query["game"] == ["smooth_operator"] and query["preset"] == ["standard"]
    focus = json.loads(query["focus"][0])
    assert (focus["measure"], focus["detail"]) == ("so.mental_math", "÷")
    assert focus["options"] == {"focus_operators": ["/"], "low_range": [1, 5]}
    assert "Many more ÷ (dividing) operator cards" in form
    assignment = _set(teacher_client, classroom, query)
    assert assignment.options["target"] == 1000 and assignment.options["focus_operators"] == ["/"]
    game = _first_game(assignment, ann)
    assert SkillEvidence.objects.filter(game=game, student=ann, measure="so.mental_math", detail="÷").exists()


def test_a_needs_help_band_no_deal_can_focus_gets_the_usual_game(teacher_client, classroom, flagged):
    ben = flagged["ben"]
    dash = teacher_client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode()
    row = _row(dash, ben)
    assert "Practise by playing more games" not in row
    (href, label), = _practise_links(row)
    assert label == "Practise this: Ben's weakest skill, Best card"
    page = teacher_client.get(reverse("reports:student", args=[classroom.pk, ben.pk])).content.decode()
    assert (href, "Practise this: Best card for Ben") in _practise_links(page)
    query, form = _follow(teacher_client, href)
    assert query["game"] == ["smooth_operator"] and query["preset"] == ["standard"]
    assert json.loads(query["focus"][0])["options"] == {}
    assert practice.plain_words("smooth_operator", "so.lowest_operator") in unescape(form)
    assignment = _set(teacher_client, classroom, query)
    assert assignment.options == {"target": 1000} and assignment.focus["measure"] == "so.lowest_operator"


def test_numero_is_practised_at_the_level_played(teacher_client, classroom, flagged):
    """A child of Numero's level 4 practises at level 4, never at level 6's powers and roots."""
    cy = flagged["cy"]
    dash = teacher_client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode()
    (href, label), = _practise_links(_row(dash, cy))
    assert label == "Practise this: Cy's weakest skill, Biggest take"
    query, form = _follow(teacher_client, href)
    assert query["game"] == ["numero"] and query["preset"] == ["level4"]
    assert "level 6" not in form.lower().replace("level 6:", "")  # only in the list of levels
    assignment = _set(teacher_client, classroom, query)
    assert assignment.preset == "level4" and "power" not in assignment.options["wilds"]
    game = _first_game(assignment, cy)
    assert game.options["wilds"] == ["subtract", "multiply", "divide"]


def test_a_rule_errors_flag_practises_the_rules_of_that_game(teacher_client, classroom, flagged):
    dee, flagged_game = flagged["dee"], flagged["rules_game"]
    dash = teacher_client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode()
    card, = _flag_cards(dash)["Dee"]
    (href, label), = _practise_links(card)
    assert label == "Practise this: the rules of Numero Solitaire for Dee"
    assert f"game={flagged_game.pk}" in href and "See the 5 attempts" in card
    assert _practise_links(_row(dash, dee)) == [(href, "Practise this: Dee's weakest skill, the rules of "
                                                       "Numero Solitaire")]
    query, form = _follow(teacher_client, href)
    assert query["game"] == ["numero_solitaire"] and query["preset"] == ["level3"]
    assert query["title"] == ["Practise the rules of Numero Solitaire"]
    assert "Practice: the rules of Numero Solitaire" in form and "play by the rules" in form
    assignment = _set(teacher_client, classroom, query)
    assert assignment.preset == "level3" and assignment.focus["measure"] == "all.rule_errors"
    _first_game(assignment, dee)
    outcome, = selectors.focus_outcomes(classroom=classroom, assignment=assignment)
    # Before: the 5 refused of her 25 attempts in Numero Solitaire (every attempt is a chance).
    assert outcome.before == (5, 25) and outcome.during[1] > 0


def test_a_rule_errors_link_to_a_game_of_another_class_is_refused(teacher_client, classroom, flagged,
                                                                   other_classroom, make_student):
    stranger = make_student(other_classroom, "Eve", ("moon", "sun", "fish"))
    elsewhere = evidence_move(other_classroom, stranger, "numero", NUMERO_LEVEL_4).game
    url = reverse("reports:practise", args=[classroom.pk])
    dee = flagged["dee"]
    assert teacher_client.get(url, {"measure": "all.rule_errors", "game": elsewhere.pk,
                                    "student": dee.pk}).status_code == 404
    assert teacher_client.get(url, {"measure": "all.rule_errors", "game": "1; drop",
                                    "student": dee.pk}).status_code == 400
    assert not Assignment.objects.exists()


def test_a_family_flag_practises_its_weakest_measure():
    """A family flag (a weakness spread thin over its measures) practises the measure of it the
    student most likely misses most, as a whole."""
    flag = NeedsHelpFlag(reason=NeedsHelpFlag.Reason.FAMILY, measure="", detail="strategy", evidence={
        "kind": "family", "key": "strategy", "misses": 16, "chances": 40, "parts": [
            {"measure": "so.lowest_operator", "detail": "", "misses": 5, "chances": 20},
            {"measure": "so.specials", "detail": "", "misses": 8, "chances": 12},
            {"measure": "mg.squares", "detail": "", "misses": 3, "chances": 8}]})
    target = selectors.flag_target(flag)
    assert (target.measure, target.detail, target.game_id) == ("so.specials", "", None)
    assert target.what == "Special cards"


def test_what_a_plain_practice_is_said_in_the_readers_language():
    """The rules' label is stored in English and said again in the reader's language; the
    sentence the form shows for a practice without a focused deal is translated."""
    stored = practice.focus_for("all.rule_errors", game="numero_solitaire").as_json()
    assert stored["label"] == "the rules of Numero Solitaire"
    with translation.override("es"):
        assert practice.label_of(stored) == "las reglas de Numero Solitario"
        assert practice.focus_for("nu.best_take").words[0].startswith("«La mayor toma» no tiene un reparto")
    with translation.override("ar"):
        assert practice.label_of(stored) == "قواعد نومرو الفردية"
        assert "اللعبة المعتادة" in practice.focus_for("so.lowest_operator").words[0]
