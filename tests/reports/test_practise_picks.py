""""Practise this" picks what the evidence supports (docs/reports.md, on what "Practise this" picks):

- facts are ranked by the miss rate a student very likely has at least (the band's lower
  edge), never by the raw rate: a slip in one or two tries never outranks a fact with evidence;
- a table-wide practice always keeps the child's single worst fact: a child planted wrong on
  37 % of 7 × 8 (and on a few other facts by chance) is sent to practise 7 × 8, over 8 seeds;
- it is offered only where a band says Practise or Needs help: never to a child rated Strong
  whose one miss is a slip, and never for a student with no games, where the page says why
  in words instead of a broken link.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client
from django.urls import reverse

from classroom.models import Assignment
from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_game
from devtools.validity import planted_student, play
from games import practice
from games.models import Game
from games.engine.multiplication.skills import practice as mg_practice
from games.engine.skills import parse_fact
from reports import selectors, services
from reports.uncertainty import band_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

WORST = "7x8"
# A child wrong on 37 % of 7 × 8, and now and then on any other fact.
WORST_RATE, SLIP_RATE = 0.37, 0.06


def _keeps(options: dict, fact: str) -> bool:
    """Whether a times-table practice deals `fact`: as a fact of its own or in a table."""
    a, b = parse_fact(fact)
    return fact in (options.get("focus_facts") or []) or bool({a, b} & set(options.get("focus_tables") or []))


# ----- the rule, without the database -----------------------------------------------------

def test_rank_by_evidence_not_raw_rate():
    counts = {"1x2": (1, 1), "3x6": (2, 3), "7x8": (6, 16), "6x9": (2, 20), "4x4": (0, 30)}
    # 1 of 1 and 2 of 3 are raw rates of 100 % and 67 %, but too few tries to say anything:
    # they come last (still better than the plain game when nothing else was missed).
    assert selectors.rank_weakest(counts) == ["7x8", "6x9", "3x6", "1x2"]
    assert selectors.rank_weakest({"1x2": (1, 1), "3x6": (2, 3)}) == ["3x6", "1x2"]
    # A fact whose band says Practise outranks one that does not, even one whose lower edge
    # is higher (22 of 100 is "Getting there"): the band is what the teacher reads.
    assert band_for(3, 9).key == "practise" and band_for(22, 100).key == "fair"
    assert selectors.rank_weakest({"6x7": (22, 100), "3x9": (3, 9)}) == ["3x9", "6x7"]
    assert selectors.rank_weakest({"6x9": (1, 40)}) == ["6x9"]  # still listed: it has evidence
    assert selectors.rank_weakest({}) == [] and selectors.rank_weakest({"2x2": (0, 9)}) == []


def test_a_table_wide_practice_keeps_the_worst_fact():
    # The trap: most of the top facts share the 3 and 6 tables, none of them 7 × 8.
    worst_first = ("7x8", "3x6", "6x10", "3x10", "6x9", "3x4")
    options = mg_practice("mg.facts", "", worst_first)
    assert _keeps(options, "7x8") and options["focus_facts"][0] == "7x8"
    # A table only when it is one of the worst fact's own and most of the weakest share it.
    assert mg_practice("mg.facts", "", ("7x8", "7x9", "6x7"))["focus_tables"] == [7]
    assert mg_practice("mg.facts", "", ("7x8", "8x9", "3x8", "2x7"))["focus_tables"] == [8]
    assert mg_practice("mg.facts", "", ("3x4", "7x8", "7x9", "6x7"))["focus_facts"][0] == "3x4"


def test_pick_weakest_needs_a_band_that_says_practise():
    can = lambda m: m != "all.rule_errors"  # noqa: E731 - a game can practise the others
    assert selectors.pick_weakest([("mg.facts", 1, 80), ("mg.squares", 0, 20)], can) is None  # Strong
    assert selectors.pick_weakest([("mg.facts", 3, 4)], can) is None                          # too few
    rows = [("mg.facts", 12, 40), ("mg.squares", 6, 10), ("all.rule_errors", 30, 40)]
    assert selectors.pick_weakest(rows, can) == "mg.squares"


def _fact_counts(tallies) -> dict[str, tuple[int, int]]:
    """(misses, chances) per fact, a × b and b × a merged, as the heat map counts them."""
    counts: dict[str, tuple[int, int]] = {}
    for label, t in tallies.items():
        measure, _, detail = label.partition(":")
        fact = parse_fact(detail) if measure == "mg.facts" else None
        if fact:
            key = f"{min(fact)}x{max(fact)}"
            misses, chances = counts.get(key, (0, 0))
            counts[key] = (misses + t.misses, chances + t.chances)
    return counts


def test_the_worst_fact_is_practised_over_seeds():
    """8 simulated children (the reports' own counting, no database), wrong on 37 % of 7 × 8
    and now and then on any fact: the whole times-table practice always deals the child's
    worst fact by the evidence, and that is 7 × 8 whenever its own band says Practise or
    Needs help (the dice decide how often 40 games show it; most of the time)."""
    shown = 0
    for seed in range(8):
        student = planted_student([f"mg.facts={SLIP_RATE}", f"mg.facts:{WORST}={WORST_RATE}"],
                                  seed=f"worst:{seed}")
        counts = _fact_counts(play("multiplication", student, games=40, seed=seed))
        weakest = selectors.rank_weakest(counts)
        options = practice.focus_for("mg.facts", "", weakest).options
        assert _keeps(options, weakest[0]), (seed, weakest, options)
        if band_for(*counts[WORST]).offers_practice:
            shown += 1
            assert weakest[0] == WORST and _keeps(options, WORST), (seed, counts[WORST], weakest)
    assert shown >= 5, shown


# ----- the pages ----------------------------------------------------------------------------

@pytest.fixture
def teacher_client(teacher):
    client = Client()
    client.force_login(teacher)
    return client


def _plays(classroom, kid, plants, games, seed):
    player = PlantedPlayer([parse_plant(p) for p in plants], seed=f"{kid.display_name}:{seed}")
    with services.deferred_class_refresh():
        for g in range(games):
            play_game(key="multiplication", classroom=classroom, student=kid, player=player, seed=seed * 100 + g)


def test_no_games_no_link_and_words_instead(teacher_client, classroom, make_student):
    maya = make_student(classroom, "Maya", ("cat", "sun", "tree"))
    ben = make_student(classroom, "Ben", ("moon", "star", "fish"))
    _plays(classroom, ben, ["mg.facts=0.05"], games=2, seed=1)  # the dashboard has a skill table
    dash = teacher_client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode()
    row = dash.split(f'id="dash-row-{maya.pk}"')[1].split("</tr>")[0]
    assert "practise-link" not in row and "No games yet" in row
    page = teacher_client.get(reverse("reports:student", args=[classroom.pk, maya.pk])).content.decode()
    assert "Practise the weakest skill" not in page
    assert "Nothing to practise yet: Maya has not finished a game yet." in page
    url = reverse("reports:practise", args=[classroom.pk])
    for query in ({"student": maya.pk}, {"student": maya.pk, "measure": "mg.facts"},
                  {"student": maya.pk, "measure": "mg.facts", "detail": "7x8"}):
        response = teacher_client.get(url, query)
        body = response.content.decode()
        assert response.status_code == 200 and "could not read that link" not in body, query
        assert "Nothing to practise yet: Maya has not finished a game yet." in body
        assert f'href="{reverse("reports:student", args=[classroom.pk, maya.pk])}"' in body
    # Ben has played, but never asked for a fact he has not tried: words for that too.
    body = teacher_client.get(url, {"student": ben.pk, "measure": "so.mental_math"}).content.decode()
    assert "Nothing to practise yet: Ben has not played a game of Smooth Operator yet." in body
    assert not Assignment.objects.exists()


def test_a_strong_child_with_one_slip_is_offered_nothing(teacher_client, classroom, make_student):
    kid = make_student(classroom, "Sam", ("cat", "sun", "tree"))
    _plays(classroom, kid, ["mg.facts=0.015"], games=6, seed=3)
    grid = selectors.fact_grid(classroom=classroom, student=kid)
    slips = [c for c in grid.facts() if c.wrong]
    assert slips and sum(c.wrong for c in slips) <= 2, [c.words for c in slips]
    assert band_for(sum(c.wrong for c in grid.facts()), grid.declared).key == "strong"
    assert grid.to_practise() == []
    dash = teacher_client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode()
    row = dash.split(f'id="dash-row-{kid.pk}"')[1].split("</tr>")[0]
    assert "practise-link" not in row and "No skill at Practise" in row
    for name in ("reports:facts", "reports:student"):
        args = [classroom.pk] if name == "reports:facts" else [classroom.pk, kid.pk]
        page = teacher_client.get(reverse(name, args=args), {"student": kid.pk}).content.decode()
        assert "practise-link" not in page and "Facts to practise" not in page, name
        assert not any(f"Practise: {c.name}" in page for c in slips)
    assert selectors.weakest_target(classroom=classroom, student=kid) is None


def test_the_worst_fact_through_the_pages(teacher_client, classroom, make_student):
    """The whole path: games, roll-ups, the heat map's link and the whole times-table practice
    (from the database's facts, both orders merged), and a row's link where the row's band
    says Practise."""
    ivy = make_student(classroom, "Ivy", ("cat", "sun", "tree"))
    _plays(classroom, ivy, ["mg.facts=0.02", f"mg.facts:{WORST}=0.7"], games=12, seed=5)
    assert selectors.weakest_details(classroom=classroom, measure="mg.facts", students=[ivy])[0] == WORST
    facts = teacher_client.get(reverse("reports:facts", args=[classroom.pk]), {"student": ivy.pk}).content.decode()
    assert "Facts to practise" in facts and "Practise this: 7 × 8 for Ivy" in facts
    response = teacher_client.get(reverse("reports:practise", args=[classroom.pk]),
                                  {"measure": "mg.facts", "student": ivy.pk})
    assert response.status_code == 302
    focus = json.loads(parse_qs(urlparse(response["Location"]).query)["focus"][0])
    assert _keeps(focus["options"], WORST), focus
    # A child weak on the whole times tables: the row beside her name offers them.
    zoe = make_student(classroom, "Zoe", ("moon", "star", "fish"))
    _plays(classroom, zoe, ["mg.facts=0.5"], games=4, seed=6)
    dash = teacher_client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode()
    row = dash.split(f'id="dash-row-{zoe.pk}"')[1].split("</tr>")[0]
    link = row.split('class="practise-link" href="')[1].split('"')[0].replace("&amp;", "&")
    assert "measure=mg.facts" in link and f"student={zoe.pk}" in link
    assert teacher_client.get(link).status_code == 302


def test_a_skill_no_deal_can_focus_gets_the_usual_game_at_its_level(teacher_client, classroom, make_student):
    """"Best card" at Needs help: no deal gives it more chances, so its Practise this sets the
    usual game, at the level the child played, and says why on the form (before, the row said
    "Practise by playing more games" and the student page had no link)."""
    kid = make_student(classroom, "Leo", ("cat", "sun", "tree"))
    player = PlantedPlayer([parse_plant("so.lowest_operator=0.7")], seed="leo")
    with services.deferred_class_refresh():
        for g in range(6):
            play_game(key="smooth_operator", classroom=classroom, student=kid, player=player, seed=70 + g)
    Game.objects.filter(seats__user=kid).update(options={"target": 1000})  # the "standard" level
    why = practice.why_no_focus("so.lowest_operator")
    page = teacher_client.get(reverse("reports:student", args=[classroom.pk, kid.pk])).content.decode()
    practise_url = reverse("reports:practise", args=[classroom.pk])
    assert 'aria-label="Practise this: Best card for Leo"' in page
    assert f"{practise_url}?measure=so.lowest_operator&amp;student={kid.pk}" in page
    dash = teacher_client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode()
    row = dash.split(f'id="dash-row-{kid.pk}"')[1].split("</tr>")[0]
    assert "Practise by playing more games" not in row
    link = row.split('class="practise-link" href="')[1].split('"')[0].replace("&amp;", "&")
    response = teacher_client.get(link)
    assert response.status_code == 302
    query = parse_qs(urlparse(response["Location"]).query)
    assert query["game"] == ["smooth_operator"] and query["preset"] == ["standard"]
    focus = json.loads(query["focus"][0])
    assert focus["measure"] == "so.lowest_operator" and focus["options"] == {}
    form = teacher_client.get(response["Location"]).content.decode().replace("&#x27;", "'")
    assert "Practice: Best card" in form and why in form and "usual game" in form
    assert not Assignment.objects.exists()
