"""The skill measures (docs/reports.md, "The measures"), as teachers and students read them.

Each game declares its own measures beside its engine (games/engine/<game>/skills.py, listed
by games/registry.py); after them come the two every game has: rule errors and thinking time.
The measures are read from the registry at call time, never kept here, because a game can be
registered at run time (tests register a game of their own and expect its measure in the reports).

A report cell reads "<miss_words>: 4 of 37 <chance_unit>"; `about` explains the measure.
`game` is the game key whose moves give chances ("" for every game).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games import registry
from games.engine.skills import GENERIC_MEASURES, RULES, THINK, Measure, evidence_measures

# The definitions the stored evidence follows. 2: docs/reports.md, "The principles"
# (families, one mistake one measure, only missable chances, per operation and fact). A game
# report counted by an older revision is recomputed (services.games_without_report).
MEASURES_REVISION = 2

# The measures of every game (rule errors, thinking time), after the games' own in tables and
# exports. Declared beside the games' measures (games/engine/skills.py), so that the end of a
# game says what the reports say.
GENERIC = GENERIC_MEASURES

__all__ = ["GENERIC", "MEASURES_REVISION", "RULES", "THINK", "all_measures", "describe",
           "evidence_measures", "fact_measures", "measure_by_id", "measures_by_id"]


def all_measures() -> list[Measure]:
    """Every registered game's measures (in menu order), then the generic ones."""
    return [*registry.measures(), *GENERIC]


def measure_by_id(measure_id: str) -> Measure | None:
    """The measure with this id, or None (an id from a URL or an old row may be anything)."""
    return next((m for m in all_measures() if m.id == measure_id), None)


def measures_by_id() -> dict[str, Measure]:
    """{id: measure} for a loop that looks many ids up (one registry read)."""
    return {m.id: m for m in all_measures()}


def fact_measures() -> list[Measure]:
    """The measures whose details are "AxB" facts: the times-table heat map shows them."""
    return [m for m in all_measures() if m.fact_grid]


def describe(measure: Measure | str, misses: int, chances: int) -> str:
    """'Chose a higher operator when a lower one was in hand: 4 of 37 turns'. Takes the
    measure or its id (a table cell has the measure already: no registry read per cell)."""
    m = measure_by_id(measure) if isinstance(measure, str) else measure
    if m is None:
        raise KeyError(f"unknown measure: {measure!r}")
    # Translators: "Chose a higher operator when a lower one was in hand: 4 of 37 turns";
    # what and unit are the game's own words.
    return _("%(what)s: %(misses)s of %(count)s %(unit)s") % {
        "what": m.miss_words, "misses": misses, "count": chances, "unit": m.chance_unit}
