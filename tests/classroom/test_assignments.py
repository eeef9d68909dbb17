"""Assignments: game and level, opponents, goal, audience; edit, close, reopen, copy."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom import presets
from classroom.models import Assignment
from tests.classroom.helpers import page_text as text

pytestmark = pytest.mark.django_db


def form_data(**changes) -> dict:
    data = {"game": "smooth_operator", "preset": "short", "opponents": "bots", "bot_level": "player",
            "bot_count": "2", "goal": "play", "goal_count": "5", "goal_until": "", "due_on": "",
            "audience": "class", "title": ""}
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def create(client, classroom, **changes):
    return client.post(reverse("classroom:assignment_create", args=[classroom.pk]), form_data(**changes))


def test_create_for_the_whole_class_with_a_default_title(signed_in, classroom):
    due = timezone.localdate() + timedelta(days=3)
    response = create(signed_in, classroom, due_on=due.isoformat(), mental_math="on")
    assert response["Location"] == reverse("classroom:class_detail", args=[classroom.pk])
    a = Assignment.objects.get()
    assert a.title == "Smooth Operator: Short game (first to 800 points)"
    assert (a.game, a.preset, a.options) == ("smooth_operator", "short", {"target": 800})
    assert (a.opponents, a.bot_level, a.bot_count, a.mental_math) == ("bots", "player", 2, True)
    assert (a.goal, a.goal_count, a.due_on) == ("play", 5, due)
    assert not a.students.exists() and a.created_by == classroom.owner
    page = text(signed_in.get(response["Location"]))
    assert "Against 2 computer players (Player) · mental maths mode" in page
    assert "Play 5 games" in page and "For the whole class" in page


def test_for_chosen_students_only(signed_in, classroom, student, make_student):
    ben = make_student(classroom, "Ben")
    create(signed_in, classroom, audience="chosen", students=[str(ben.pk)])
    assert list(Assignment.objects.get().students.all()) == [ben]
    response = create(signed_in, classroom, audience="chosen")
    assert "Tick at least one student, or choose the whole class." in text(response)


def test_students_of_another_class_cannot_be_chosen(signed_in, classroom, other_student):
    response = create(signed_in, classroom, audience="chosen", students=[str(other_student.pk)])
    assert "Select a valid choice." in text(response)
    assert not Assignment.objects.exists()


@pytest.mark.parametrize("game, preset, bots, message", [
    ("smooth_operator", "quick", "4", "Choose between 1 and 3 computer players."),
    ("smooth_operator", "quick", "0", "Choose between 1 and 3 computer players."),
    ("add_or_multiply", "classic", "1", "Add or Multiply? needs exactly 2 computer players."),
    ("smooth_operator", "classic", "1", "Select a valid choice. classic is not one of the available choices."),
])
def test_choices_the_game_does_not_allow_are_explained(signed_in, classroom, game, preset, bots, message):
    response = create(signed_in, classroom, game=game, preset=preset, bot_count=bots, title="Keep me")
    assert message in text(response)
    assert 'value="Keep me"' in response.content.decode()
    assert not Assignment.objects.exists()


def test_classmates_only_needs_no_computer_players(signed_in, classroom):
    create(signed_in, classroom, opponents="classmates", bot_count="")
    assert Assignment.objects.get().opponents == "classmates"


def test_mental_maths_is_only_for_smooth_operator(signed_in, classroom):
    create(signed_in, classroom, game="add_or_multiply", preset="short", bot_count="2", mental_math="on")
    assert Assignment.objects.get().mental_math is False


def test_goals_win_and_until(signed_in, classroom):
    create(signed_in, classroom, goal="win", goal_count="2")
    assert Assignment.objects.get().goal == "win"
    assert "Choose the last day to play." in text(create(signed_in, classroom, goal="until"))
    past = (timezone.localdate() - timedelta(days=1)).isoformat()
    assert "Choose today or a later date." in text(create(signed_in, classroom, goal="until", goal_until=past))
    assert "Choose today or a later date." in text(create(signed_in, classroom, due_on=past))
    until = timezone.localdate() + timedelta(days=10)
    create(signed_in, classroom, goal="until", goal_until=until.isoformat())
    assert Assignment.objects.filter(goal="until", goal_until=until).exists()


def test_a_one_player_game_has_no_opponents(signed_in, classroom):
    form = signed_in.get(reverse("classroom:assignment_create", args=[classroom.pk]), {"game": "numero_solitaire"})
    assert "Numero Solitaire is played alone" in text(form)
    # Preset keys belong to the engine (or the spec while it is missing): take the second level.
    key, level = list(presets.presets_for("numero_solitaire").items())[1]
    create(signed_in, classroom, game="numero_solitaire", preset=key, opponents=None, bot_count=None)
    a = Assignment.objects.get()
    assert (a.opponents, a.bot_count, a.options) == ("bots", 0, level["options"])


def test_picking_another_game_swaps_only_the_fields_and_keeps_the_choices(signed_in, classroom):
    url = reverse("classroom:assignment_create", args=[classroom.pk])
    response = signed_in.get(url, {**form_data(game="numero", title="Fractions week"), "goal": "win"},
                             HTTP_HX_REQUEST="true")
    fragment = response.content.decode()
    assert "<html" not in fragment and 'id="assignment-fields"' in fragment
    for n in range(1, 9):
        assert f"Level {n}:" in fragment
    assert 'value="Fractions week"' in fragment
    assert re.search(r'<input type="radio" name="goal" value="win"[^>]*checked', fragment)
    assert "Mental maths mode" not in fragment
    # Numero seats 2 or 3: the 2 computer players chosen for Smooth Operator still fit...
    assert 'name="bot_count" value="2"' in fragment
    # ...but Add or Multiply? needs exactly 2, so a count of 3 is brought into range.
    fragment = signed_in.get(url, form_data(game="add_or_multiply", bot_count="3"),
                             HTTP_HX_REQUEST="true").content.decode()
    assert 'name="bot_count" value="2"' in fragment


def test_edit_keeps_the_game_and_changes_the_rest(signed_in, classroom, assignment):
    url = reverse("classroom:assignment_edit", args=[assignment.pk])
    assert "To use another game, create a new assignment." in text(signed_in.get(url))
    signed_in.post(url, form_data(game="numero", preset="long", goal_count="8", title="Longer"))
    assignment.refresh_from_db()
    assert (assignment.game, assignment.preset, assignment.goal_count, assignment.title) == \
        ("smooth_operator", "long", 8, "Longer")
    assert assignment.options == {"target": 1500}


def test_editing_keeps_a_due_date_that_has_passed(signed_in, classroom, assignment):
    past = timezone.localdate() - timedelta(days=2)
    Assignment.objects.filter(pk=assignment.pk).update(due_on=past)
    signed_in.post(reverse("classroom:assignment_edit", args=[assignment.pk]),
                   form_data(preset="quick", due_on=past.isoformat(), title="Still due"))
    assignment.refresh_from_db()
    assert assignment.title == "Still due" and assignment.due_on == past


def test_close_asks_first_and_reopen_brings_it_back(signed_in, classroom, assignment):
    url = reverse("classroom:assignment_close", args=[assignment.pk])
    assert "Their progress is kept, and you can reopen it later." in text(signed_in.get(url))
    signed_in.post(url)
    assignment.refresh_from_db()
    assert assignment.is_closed
    assert "Closed" in text(signed_in.get(reverse("classroom:class_detail", args=[classroom.pk])))
    signed_in.post(reverse("classroom:assignment_reopen", args=[assignment.pk]))
    assignment.refresh_from_db()
    assert not assignment.is_closed


def test_copy_into_another_class_for_its_whole_class(signed_in, teacher, classroom, student, make_classroom,
                                                     make_assignment):
    original = make_assignment(classroom, title="Level up", students=[student], goal="win", goal_count=2)
    six_a = make_classroom(teacher, name="6A")
    response = signed_in.post(reverse("classroom:assignment_duplicate", args=[original.pk]),
                              {"to_classroom": six_a.pk})
    copy = six_a.assignments.get()
    assert response["Location"] == reverse("classroom:assignment_edit", args=[copy.pk])
    assert (copy.title, copy.goal, copy.goal_count, copy.options) == ("Level up", "win", 2, original.options)
    assert not copy.students.exists() and not copy.is_closed


def test_copy_is_refused_into_a_class_i_do_not_teach(signed_in, assignment, other_classroom):
    response = signed_in.post(reverse("classroom:assignment_duplicate", args=[assignment.pk]),
                              {"to_classroom": other_classroom.pk})
    assert "Select a valid choice" in text(response)
    assert not other_classroom.assignments.exists()
