"""A real focus where a deal gives one: the game "Practise this" deals for a measure gives
that measure's own chances (counted as the reports count them) at least 2x per game as often
as the plain game, in seeded expert self-play (games/engine/measure_focus.py; the figures are
in docs/reports.md). A measure a game cannot focus says why, in a teacher's words."""

from __future__ import annotations

import pytest

from games import registry
from games.engine import get, measure_focus, selfplay
from games.practice import focus_for, why_no_focus

# Enough games that a ratio near the claim does not swing across it by the deal alone (the
# smallest measured ratio is well above 2: docs/reports.md, "A real focus for every measure").
GAMES = 16

ASKS = [(game, ask) for game, skills in measure_focus.game_skills().items()
        for ask in measure_focus.asks_of(game, skills)]


def _skills(game):
    return measure_focus.game_skills()[game]


def test_every_game_is_measured():
    """Every registered game with measures of its own and a "Practise this" hook (as the site
    sees them, through its adapter) is found and measured here (through its engine package)."""
    practised = {spec.key for spec in registry.all_games() if spec.skills and spec.skills.practice
                 and any(m.game == spec.key for m in spec.skills.measures)}
    assert practised and {game for game, _ in ASKS} == practised


def test_every_measure_of_a_game_has_a_focus_or_says_why():
    for game, ask in ASKS:
        skills = _skills(game)
        options = skills.practice(ask.measure.id, ask.detail, ask.weakest)
        assert options != {}, f"{ask.name}: the plain game is no focus"
        if options is None:
            why = why_no_focus(ask.measure.id)
            assert why == skills.no_focus[ask.measure.id] and "no practice deal" in why and why.endswith("."), ask.name
            assert focus_for(ask.measure.id).plain  # its practice is the usual game, said so
            continue
        # ... and the engine deals it.
        get(game).new_game(["Ann", "Ben", "Cal"][:measure_focus.players_of(game)], dict(options), 1)


FOCUSED = [(game, ask) for game, ask in ASKS if ask.measure.id not in _skills(game).no_focus]


@pytest.mark.parametrize("game,ask", FOCUSED, ids=[a.name for _, a in FOCUSED])
def test_the_focus_at_least_doubles_the_chances(game, ask):
    row = measure_focus.measure(ask, _skills(game), GAMES, seed=0)
    if ask.detail and not row["focused"] and not row["plain"]:
        pytest.skip(f"{ask.measure.id} never has the detail {ask.detail}")
    assert row["focused"] >= 1, row
    assert row["ratio"] is None or row["ratio"] >= measure_focus.CLAIMED, row


def test_a_measure_no_game_can_focus_says_why():
    for measure_id in ("all.rule_errors", "all.think_time"):
        assert focus_for(measure_id) is None  # no game named by the evidence
        assert "comes up in every game" in why_no_focus(measure_id)
    assert focus_for("all.think_time", game="numero") is None  # nothing to miss, nothing to practise
    assert why_no_focus("mg.facts") == ""


def test_the_command_prints_every_measure(capsys):
    assert selfplay.main(["--measures", "add_or_multiply", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "am.operation" in out and "ratio" in out
