"""Evidence per measure, taken from games really played through the game services."""

import re

import pytest
from django.urls import reverse

from reports import services
from reports.measures import evidence_measures
from reports.models import GameReport, SkillEvidence, SkillRollup
from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_game
from games import engine as engines
from games.models import Game, Move
from games.selectors.play import game_state_at
from games.services import SeatSpec, game_apply_move, game_create

pytestmark = pytest.mark.django_db

SO_PLANTS = ["so.lowest_operator=0.5", "so.even_division=0.5", "so.mental_math=0.3", "all.rule_errors=0.1"]


def _play(key, classroom, student, plants, seed=3):
    player = PlantedPlayer([parse_plant(p) for p in plants])
    return play_game(key=key, classroom=classroom, student=student, player=player, seed=seed)


def test_smooth_operator_game_gives_evidence_for_each_measure_from_the_student_only(classroom, student):
    game = _play("smooth_operator", classroom, student, SO_PLANTS)
    rows = SkillEvidence.objects.filter(game=game)
    measures = set(rows.values_list("measure", flat=True))
    assert {"so.lowest_operator", "so.even_division", "so.mental_math", "all.rule_errors",
            "all.think_time"} <= measures
    assert set(rows.values_list("student_id", flat=True)) == {student.pk}  # the bot gives none
    assert not rows.exclude(move__seat__user=student).exists()
    # A worse card than the expert's: the recorded analysis says by how many points (the
    # regret against the expert bot's own evaluation), and that is the row's `amount`.
    missed = rows.filter(measure="so.lowest_operator", missed=True)
    assert missed.exists()
    for row in missed:
        analysis = row.move.analysis
        assert analysis["chosen"] != analysis["expert_card"] and analysis["regret"] > 0
        assert row.amount == analysis["regret"] == analysis["regrets"][analysis["chosen"]]
    # A wrong answer is a mental-maths miss.
    for row in rows.filter(measure="so.mental_math"):
        assert row.missed == (row.move.action["answer"] != row.move.analysis["correct_answer"])


def test_the_turn_of_a_row_opens_the_replay_where_the_decision_was_made(classroom, student):
    game = _play("smooth_operator", classroom, student, SO_PLANTS)
    engine = engines.get(game.key)
    for row in SkillEvidence.objects.filter(game=game, missed=True).exclude(measure="all.rule_errors")[:5]:
        state = game_state_at(game=game, turn=row.turn)
        assert student.display_name in engine.waiting_for(state)
        recorded = {k: v for k, v in row.move.analysis.items() if k != "rev"}  # the revision stamp
        assert engine.analyse(state, student.display_name, row.move.action) == recorded


def test_a_refused_attempt_then_a_move_is_one_chance_and_every_attempt_is_a_rule_chance(classroom, student):
    game = _play("multiplication", classroom, student, ["mg.facts=0.5", "mg.missed_play=0.2"], seed=11)
    refused = Move.objects.filter(game=game, seat__user=student, accepted=False)
    false_facts = refused.filter(error_code="bad_declaration")
    assert false_facts.exists()
    # Every attempt is one chance at the rules (a refused one its own miss row, by code; an
    # accepted one its thinking-time row), except a false declaration: that is a times-table
    # miss only (one mistake, one measure).
    rules = SkillEvidence.objects.filter(game=game, measure__in=evidence_measures("all.rule_errors"))
    attempts = Move.objects.filter(game=game, seat__user=student).exclude(error_code="bad_declaration")
    assert sorted(rules.values_list("move_id", flat=True)) == sorted(attempts.values_list("pk", flat=True))
    assert set(rules.filter(missed=True).values_list("move_id", flat=True)) == \
        set(refused.exclude(error_code="bad_declaration").values_list("pk", flat=True))
    facts = SkillEvidence.objects.filter(game=game, measure="mg.facts")
    for move in false_facts:
        card, (a, b) = move.action["card"], move.action["declare"]
        assert a * b != card
        # The wrong declaration and the accepted one for the same card: one chance, missed,
        # pointing at the wrong one, and blamed on the fact the card needed (not the one said).
        row = facts.get(detail=move.analysis["fact"]["needed"], turn=move.version_before)
        x, y = map(int, row.detail.split("x"))
        assert x * y == card and row.missed and row.move_id == move.pk
    assert facts.filter(missed=False).exists()
    think = SkillEvidence.objects.filter(game=game, measure="all.think_time")
    assert set(think.values_list("detail", flat=True)) <= {"discard", "draw"}
    assert all(row.amount >= 0 for row in think)


@pytest.mark.usefixtures("eager_celery")
def test_a_finished_game_queues_its_report_on_commit(classroom, student, django_capture_on_commit_callbacks):
    me = SeatSpec(student.display_name, user=student)
    game = game_create(key="multiplication", classroom=classroom, seats=[me, SeatSpec("Robo", bot_level="expert")],
                       seed=5, options={"hand_size": 3, "turn_limit": 50})
    player = PlantedPlayer([])
    engine = engines.get(game.key)
    seats = {s.name: s for s in game.seats.all()}
    with django_capture_on_commit_callbacks(execute=True):
        while game.status == Game.Status.ACTIVE:
            name = engine.waiting_for(game.state)[0]
            if name == me.name:
                action = player.attempts(game.key, engine.view(game.state, name))[-1]
            else:
                action = engines.make_bot(game.key, "expert", game.version).choose(engine.view(game.state, name))
            game = game_apply_move(game_id=game.pk, seat=seats[name], action=action,
                                   expected_version=game.version, schedule_bots=False).game
        assert not GameReport.objects.filter(game=game).exists()  # not before the commit
    report = GameReport.objects.get(game=game)
    assert report.version == game.version and report.decisions > 0
    assert SkillEvidence.objects.filter(game=game, measure="mg.missed_play").exists()
    assert services.game_report_compute(game_id=game.pk) == report


def test_rules_numbers_count_every_attempt_and_list_them(client, teacher, classroom, student):
    """The teacher's "Rules" cell counts every attempt (accepted ones have no rules row of
    their own) and its links list exactly those attempts, or only the refused ones."""
    game = _play("multiplication", classroom, student, ["mg.facts=0.5", "all.rule_errors=0.2"], seed=11)
    # A false declaration (refused: bad_declaration) is a times-table miss, not a rule error.
    assert Move.objects.filter(game=game, seat__user=student, error_code="bad_declaration").exists()
    attempts = Move.objects.filter(game=game, seat__user=student).exclude(error_code="bad_declaration")
    refused = attempts.filter(accepted=False)
    assert refused.exists()
    cell = SkillRollup.objects.get(classroom=classroom, scope="student", student=student, week=None,
                                   assignment=None, measure="all.rule_errors", detail="")
    assert (cell.misses, cell.chances) == (refused.count(), attempts.count())
    client.force_login(teacher)
    url = reverse("reports:moves", args=[classroom.pk])
    for missed, moves in (("all", attempts), ("1", refused), ("0", attempts.filter(accepted=True))):
        html = client.get(url, {"measure": "all.rule_errors", "student": student.pk,
                                "missed": missed}).content.decode()
        turns = sorted(int(t) for t in re.findall(rf'href="/game/{game.pk}/replay/\?turn=(\d+)"', html))
        assert f"<strong>{moves.count()}</strong>" in html
        assert turns == sorted(m.version_before for m in moves)
