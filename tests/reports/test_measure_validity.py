"""Validity of the measures every game shares (revision 2 of shared/spec/skills.md), played
through the engines without the database (devtools/validity.py): planted rule errors, drawn
by chance, are recovered within ±3 points given ≥ 300 chances in every game with simulated
students, and planting them leaves the game's own measures at their baseline (a planted
student misses nothing else). Each game's own measures: tests/reports/test_validity_<game>.py.
"""

import pytest

from devtools.validity import planted_student, play
from games import registry

pytestmark = pytest.mark.django_db

RATES = (0.10, 0.25, 0.40)
# ≥ 300 asked. At 1,500 chances one binomial standard deviation is at most 1.3 points (at
# 40 %), so ±3 points is 2.4 of them: an honest count falls outside about 1 time in 60 (and
# the games are seeded, so a passing seed keeps passing).
CHANCES = 1500


def simulated_games() -> list[str]:
    keys, players = [], set()
    for spec in registry.all_games():
        planted = spec.skills.planted if spec.skills else None
        if planted is not None and planted.player not in players:
            players.add(planted.player)
            keys.append(spec.key)
    return keys


def enough(tallies) -> bool:
    t = tallies.get("all.rule_errors")
    return t is not None and t.chances >= CHANCES


@pytest.mark.parametrize("key", simulated_games())
@pytest.mark.parametrize("rate", RATES)
def test_planted_rule_errors_are_recovered_and_nothing_else_moves(key, rate):
    tallies = play(key, planted_student([f"all.rule_errors={rate}"], seed=f"{key}:{rate}"),
                   games=400, seed=int(rate * 100), until=enough)
    rules = tallies["all.rule_errors"]
    assert rules.chances >= 300
    assert abs(rules.rate - rate) <= 0.03, f"{key}: planted {rate}, read {rules.misses} of {rules.chances}"
    own = [m.id for m in registry.spec_for(key).skills.measures if m.has_misses]
    moved = {m: (tallies[m].misses, tallies[m].chances) for m in own if m in tallies and tallies[m].misses}
    assert not moved, f"{key}: planting rule errors moved {moved}"
