"""Reports counted by older measures are recomputed with the current ones: the minute's sweep
finds them (GameReport.revision), and moves analysed by an older `analyse` are analysed again
by replaying their game, so old games get the new measures without anybody asking."""

import pytest
from django.utils import timezone

from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_game
from games import registry
from games.models import Game, Move
from reports import services
from reports.measures import MEASURES_REVISION
from reports.models import GameReport, SkillEvidence

pytestmark = pytest.mark.django_db

PLANTS = ["so.lowest_operator=0.3", "so.mental_math=0.3", "all.rule_errors=0.1"]


def evidence(game):
    return sorted(SkillEvidence.objects.filter(game=game)
                  .values_list("move_id", "measure", "detail", "missed", "amount"))


def test_an_old_report_and_its_old_analyses_are_redone_by_the_sweep(classroom, student):
    game = play_game(key="smooth_operator", classroom=classroom, student=student, seed=7,
                     player=PlantedPlayer([parse_plant(p) for p in PLANTS], seed=3))
    fresh = evidence(game)
    analyses = dict(Move.objects.filter(game=game).values_list("id", "analysis"))
    assert any(row[3] for row in fresh), "the plants gave misses"
    # As the reports were before revision 2: an older report, and analyses without the
    # facts today's measures read (only their kind, an older revision stamp).
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timezone.timedelta(minutes=5))
    GameReport.objects.filter(game=game).update(revision=1)
    older = registry.spec_for("smooth_operator").skills.analysis_revision - 1
    for move in Move.objects.filter(game=game):
        move.analysis = {"kind": move.analysis.get("kind"), "rev": older} if move.analysis else {}
        move.save(update_fields=["analysis"])
    SkillEvidence.objects.filter(game=game).update(missed=False)

    assert game.pk in services.games_without_report()
    assert services.missing_reports_compute() == 1
    assert GameReport.objects.get(game=game).revision == MEASURES_REVISION
    assert evidence(game) == fresh
    assert dict(Move.objects.filter(game=game).values_list("id", "analysis")) == analyses
    assert game.pk not in services.games_without_report()  # done once, not every minute
