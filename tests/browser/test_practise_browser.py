""""Practise this" in Chromium: a teacher presses Practise on the heat map's weakest fact, checks
the prefilled assignment and sets it; the student sees the practice on her home page, opens it
and plays her first move; planted players finish its games in this process (as the other
browser tests let them); and the student's report shows the fact before and after. A flag
card's one action, "Practise this", opens the form prefilled with the game and level the
evidence came from.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from classroom.models import Assignment
from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_assignment_games, play_game
from games import engine as engines
from games.models import Game
from reports import selectors, services
from reports.models import NeedsHelpFlag, SkillEvidence
from tests.reports import test_practise_every_flag as practise_rows
from tests.browser.test_play_browser import click_mg_move, current, mg_move, signed_in_page, wait_for_version
from tests.browser.test_reports_browser import eager_here, in_thread, press, server_tasks  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FACT = "7x8"
BEFORE_GAMES = 16  # enough tries of 7 × 8 for its band to say Practise


def test_practise_this_from_the_heat_map_to_before_and_after(browser, live_daphne, classroom, student,
                                                            teacher, server_tasks):
    server_tasks()

    def before():
        with eager_here(), services.deferred_class_refresh():
            player = PlantedPlayer([parse_plant(f"mg.facts:{FACT}=0.8")], seed="browser")
            for g in range(BEFORE_GAMES):
                play_game(key="multiplication", classroom=classroom, student=student, player=player,
                          seed=300 + g)

    in_thread(before)
    weakest = selectors.fact_grid(classroom=classroom, student=student).to_practise()[0]
    assert weakest.wrong >= 1

    # The teacher: Ann's heat map, the weakest fact's square, Practise (by keyboard).
    desk = signed_in_page(browser, live_daphne, teacher)
    desk.goto(live_daphne + reverse("reports:facts", args=[classroom.pk]) + f"?student={student.pk}")
    heat = desk.get_by_role("table", name="Ann")
    practise = heat.get_by_role("link", name=f"Practise: {weakest.name} for Ann")
    expect(practise).to_be_visible()
    press(practise)

    # The assignment form, prefilled: the practice in words, three games, due in a week, Ann.
    desk.wait_for_url(re.compile(r"/assignments/new/\?"))
    practice = desk.get_by_role("group", name=f"Practice: {weakest.name}")
    expect(practice).to_contain_text(f"Extra cards {weakest.product} ({weakest.name})")
    expect(desk.get_by_label(re.compile("^Deal the practice cards"))).to_be_checked()
    expect(desk.get_by_label("How many games (or wins)")).to_have_value("3")
    expect(desk.get_by_label("Due date (optional)")).not_to_have_value("")
    expect(desk.get_by_label("Only the students I choose")).to_be_checked()
    expect(desk.get_by_label("Ann", exact=True)).to_be_checked()
    expect(desk.get_by_label("Title (optional)")).to_have_value(f"Practise {weakest.name}")
    assert not Assignment.objects.exists()  # nothing is set until she presses the button
    desk.get_by_label("Computer players' level").select_option("beginner")
    press(desk.get_by_role("button", name="Set the assignment"))
    expect(desk.get_by_text(f"“Practise {weakest.name}” is set.")).to_be_visible()
    assignment = Assignment.objects.get()
    assert assignment.focus["detail"] == weakest.detail
    assert assignment.options["focus_facts"] == [weakest.detail]

    # Ann: her home page shows the practice; she opens it and plays her first move.
    ann = signed_in_page(browser, live_daphne, student)
    ann.goto(live_daphne + reverse("classroom:student_home"))
    card = ann.locator(".student-assignment", has_text=f"Practise {weakest.name}")
    expect(card).to_be_visible()
    press(card.get_by_role("link", name=re.compile(f"^Play Practise {weakest.name}")))
    press(ann.get_by_role("button", name="Start the game"))
    ann.wait_for_url(re.compile(r"/game/\d+/"))
    game = Game.objects.get(assignment=assignment)
    assert game.options["focus_facts"] == [weakest.detail]
    engine = engines.get("multiplication")
    for _ in range(200):
        game = current(game.pk)
        if "Ann" in engine.waiting_for(game.state):
            break
        ann.wait_for_timeout(50)  # the computer player is thinking
    wait_for_version(ann, game.version)
    expect(ann.locator("#table-status")).to_contain_text("Your turn")
    click_mg_move(ann, mg_move(game, "Ann"))
    ann.wait_for_function(
        f"() => Number(document.querySelector('#table-board').dataset.version) > {game.version}")
    for _ in range(200):  # her move is in; wait until it is her turn again (the bot has moved)
        game = current(game.pk)
        if game.state["finished"] or "Ann" in engine.waiting_for(game.state):
            break
        ann.wait_for_timeout(50)
    ann.close()

    # Planted Ann, who learnt the fact, finishes that game and plays the other two.
    def practise_games():
        with eager_here(), services.deferred_class_refresh():
            learnt = PlantedPlayer([parse_plant(f"mg.facts:{FACT}=0.1")], seed="learnt")
            for played in play_assignment_games(assignment=assignment, student=student, player=learnt,
                                                games=assignment.goal_count, seed=5):
                services.game_finished(game_id=played.pk)

    in_thread(practise_games)
    assert Game.objects.filter(assignment=assignment, status=Game.Status.FINISHED).count() == 3
    outcome = selectors.focus_outcomes(classroom=classroom, student=student)[0]
    assert outcome.done and outcome.during[1] > outcome.before[1] / BEFORE_GAMES * 3

    # The teacher's report of Ann: before and after, in words.
    desk.goto(live_daphne + reverse("reports:student", args=[classroom.pk, student.pk]))
    section = desk.get_by_role("region", name="Practice: before and after")
    expect(section).to_contain_text(outcome.words)
    expect(section).to_contain_text("done")
    expect(section.get_by_role("cell", name=outcome.before_words)).to_be_visible()
    expect(section.get_by_role("cell", name=outcome.during_words)).to_be_visible()
    expect(desk.get_by_role("region", name="Playing level")).to_contain_text("The Multiplication Game:")
    print(f"\nbrowser: {outcome.words}")


def test_a_flag_cards_practise_link_opens_the_prefilled_form_and_sets_it(browser, live_daphne, classroom,
                                                                         student, teacher):
    """A flag on a fact has its one action on its card: the teacher follows "Practise this" by
    keyboard from the dashboard's "Needs help" list to the form, prefilled with the game and
    level Ann played and the fact, and sets it."""
    def flagged():
        times = practise_rows.evidence_move(classroom, student, "multiplication", practise_rows.MG_FREE_CARDS)
        rows = practise_rows.evidence_rows(times, student, "mg.facts", "7x8", 12, 16)
        for fact in ("2x3", "3x4", "4x5", "5x6", "6x6", "2x9", "3x9", "4x9"):
            rows += practise_rows.evidence_rows(times, student, "mg.facts", fact, 0, 12)
        SkillEvidence.objects.bulk_create(rows)
        services.class_reports_refresh(classroom_id=classroom.pk)

    in_thread(flagged)
    assert NeedsHelpFlag.objects.filter(student=student, detail=FACT).exists()

    desk = signed_in_page(browser, live_daphne, teacher)
    desk.goto(live_daphne + reverse("reports:dashboard", args=[classroom.pk]))
    card = desk.locator(".flag").filter(has_text="7 × 8: 12 of 16 wrong")
    expect(card.get_by_role("link", name=re.compile("^See the 12 misses"))).to_be_visible()
    expect(card.get_by_role("link", name=re.compile("^Practise this"))).to_have_count(1)
    press(card.get_by_role("link", name="Practise this: 7 × 8 for Ann"))

    desk.wait_for_url(re.compile(r"/assignments/new/\?"))
    expect(desk.get_by_label("Game", exact=True)).to_have_value("multiplication")
    expect(desk.get_by_label("Level", exact=True)).to_have_value("free_cards")  # the level she played
    expect(desk.get_by_role("group", name="Practice: 7 × 8")).to_contain_text("Extra cards 56 (7 × 8)")
    expect(desk.get_by_label(re.compile("^Deal the practice cards"))).to_be_checked()
    expect(desk.get_by_label("Only the students I choose")).to_be_checked()
    expect(desk.get_by_label("Ann", exact=True)).to_be_checked()
    expect(desk.get_by_label("Title (optional)")).to_have_value("Practise 7 × 8")
    assert not Assignment.objects.exists()  # nothing is set until she presses the button
    press(desk.get_by_role("button", name="Set the assignment"))
    expect(desk.get_by_text("“Practise 7 × 8” is set.")).to_be_visible()
    assignment = Assignment.objects.get()
    assert assignment.preset == "free_cards" and list(assignment.students.all()) == [student]
    assert assignment.options["free_cards"] == 2 and assignment.options["focus_facts"] == [FACT]
    assert (assignment.focus["measure"], assignment.focus["detail"]) == ("mg.facts", FACT)
