"""Explained verdicts where a teacher and a student read them (docs/reports.md): the moves page shows,
beside each counted decision, what was played, what the expert would have played and what
the difference was worth (or why it was fine); the replay shows the same at the position the
decision was made from: to a teacher for every student, to a student only for their own.

Games are played through the services by planted students (devtools/simulation.py), so the
rows are the reports' own; each explanation expected is the one the game gives for that row
(reports.selectors.verdict_of), checked to appear as it is on the page.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_game
from games.selectors.play import position_verdicts
from reports import selectors
from reports.models import SkillEvidence

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def played(classroom, student, key: str, plants: list[str], seed: int):
    return play_game(key=key, classroom=classroom, student=student, seed=seed,
                     player=PlantedPlayer([parse_plant(p) for p in plants], seed=f"pages:{seed}"))


def rows_of(student, measure: str, *, missed: bool):
    return list(SkillEvidence.objects.filter(student=student, measure=measure, missed=missed)
                .select_related("game", "move", "move__seat").order_by("-played_at", "-id"))


def shows(html: str, verdict) -> bool:
    return all(escape(text) in html for text in (verdict.played, verdict.expert, verdict.worth))


def test_the_moves_page_and_the_teachers_replay_explain_each_counted_choice(classroom, student, teacher):
    played(classroom, student, "smooth_operator", ["so.lowest_operator=0.5"], seed=4)
    misses = rows_of(student, "so.lowest_operator", missed=True)
    fine = rows_of(student, "so.lowest_operator", missed=False)
    assert misses and fine
    teacher_sees = client_for(teacher)
    url = reverse("reports:moves", args=[classroom.pk])

    page = teacher_sees.get(url, {"measure": "so.lowest_operator", "student": student.pk, "missed": "1"})
    html = page.content.decode()
    assert page.status_code == 200
    for row in misses[:20]:
        verdict = selectors.verdict_of(row)
        assert verdict.missed and verdict.worth.startswith("Gave away ")
        assert shows(html, verdict), verdict
    assert "Good moves</a>" in html and "Every chance</a>" in html  # the fine ones are a click away

    good = teacher_sees.get(url, {"measure": "so.lowest_operator", "student": student.pk, "missed": "0"})
    html = good.content.decode()
    assert "<h1>Best card: good moves</h1>" in html
    for row in fine[:20]:
        verdict = selectors.verdict_of(row)
        assert not verdict.missed and verdict.worth.startswith("Fine")
        assert shows(html, verdict), verdict

    # The replay at the turn of a miss: the same explanation, under Ann's name.
    row = misses[0]
    replay = teacher_sees.get(reverse("games:replay", args=[row.game_id]), {"turn": row.turn}).content.decode()
    assert "How the choice" in replay
    assert "Ann · Best card" in replay
    assert shows(replay, selectors.verdict_of(row))
    # A position where nothing was judged shows no such section.
    judged = set(SkillEvidence.objects.filter(game_id=row.game_id).values_list("turn", flat=True))
    quiet = next(t for t in range(row.turn + 200) if t not in judged)
    assert "How the choice" not in teacher_sees.get(reverse("games:replay", args=[row.game_id]),
                                                    {"turn": quiet}).content.decode()


def test_a_student_sees_only_their_own_verdicts(classroom, student, make_student):
    game = played(classroom, student, "multiplication", ["mg.missed_play=0.4"], seed=7)
    misses = rows_of(student, "mg.missed_play", missed=True)
    assert misses
    row = misses[0]
    verdict = selectors.verdict_of(row)
    assert verdict.played == "Drew a card." and verdict.expert.startswith("The expert would discard ")

    # Ann replays her own game: she sees her own verdict at that position.
    own = client_for(student).get(reverse("games:replay", args=[game.pk]), {"turn": row.turn}).content.decode()
    assert shows(own, verdict) and "Ann · Sees plays" in own

    # What the replay asks about a position is filtered by who looks: Ann's own rows for Ann,
    # nothing for a classmate (who cannot open the game at all), everything for a teacher.
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    assert [v.verdict for v in position_verdicts(game=game, turn=row.turn, student=student)
            if v.title == "Sees plays"] == [verdict]
    assert position_verdicts(game=game, turn=row.turn, student=ben) == []
    assert client_for(ben).get(reverse("games:replay", args=[game.pk]), {"turn": row.turn}).status_code == 404
    assert [v.who for v in position_verdicts(game=game, turn=row.turn, student=None)] == \
        ["Ann"] * len(position_verdicts(game=game, turn=row.turn, student=student))


def test_a_move_recorded_without_the_facts_is_listed_without_words(classroom, student, teacher):
    """A move analysed before the expert's evaluation was recorded (or with an analysis the
    words cannot read) is still listed, without an explanation: the page never fails."""
    played(classroom, student, "smooth_operator", ["so.lowest_operator=0.5"], seed=4)
    first, second = rows_of(student, "so.lowest_operator", missed=True)[:2]
    first.move.analysis = {"kind": "response"}
    first.move.save(update_fields=["analysis"])
    second.move.analysis = {**second.move.analysis, "options": "not a mapping"}
    second.move.save(update_fields=["analysis"])
    assert selectors.verdict_of(rows_of(student, "so.lowest_operator", missed=True)[0]) is None
    page = client_for(teacher).get(reverse("reports:moves", args=[classroom.pk]),
                                   {"measure": "so.lowest_operator", "student": student.pk})
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('class="verdict"') == len(rows_of(student, "so.lowest_operator", missed=True)) - 2
