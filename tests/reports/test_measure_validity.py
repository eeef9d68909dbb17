"""Validity of the measures every game shares (docs/reports.md, "The principles"), played
through the engines without the database (devtools/validity.py): planted rule errors, drawn
by chance, are recovered within ±3 points given ≥ 300 chances in every game with simulated
students, and planting them leaves the game's own measures at their baseline (a planted
student misses nothing else). Each game's own measures: tests/reports/test_validity_<game>.py.
"""

import pytest

from devtools.planted import planted_games
from devtools.validity import TOLERANCE, enough, planted_student, play
from games import registry

pytestmark = pytest.mark.django_db

RATES = (0.10, 0.25, 0.40)


def simulated_games() -> list[str]:
    """One game per planted player (Numero and its Solitaire share one)."""
    return [spec.key for spec in planted_games()]


@pytest.mark.parametrize("key", simulated_games())
@pytest.mark.parametrize("rate", RATES)
def test_planted_rule_errors_are_recovered_and_nothing_else_moves(key, rate):
    tallies = play(key, planted_student([f"all.rule_errors={rate}"], seed=f"{key}:{rate}"),
                   games=400, seed=int(rate * 100), until=enough("all.rule_errors"))
    rules = tallies["all.rule_errors"]
    assert rules.chances >= 300
    assert abs(rules.rate - rate) <= TOLERANCE, f"{key}: planted {rate}, read {rules.misses} of {rules.chances}"
    own = [m.id for m in registry.spec_for(key).skills.measures if m.has_misses]
    moved = {m: (tallies[m].misses, tallies[m].chances) for m in own if m in tallies and tallies[m].misses}
    assert not moved, f"{key}: planting rule errors moved {moved}"
