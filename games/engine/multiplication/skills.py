"""The Multiplication Game's skill measures and evidence extractors (shared/spec/skills.md;
how each is counted: docs/reports.md). Pure: reads the analysis `engine.analyse` recorded."""

from __future__ import annotations

from typing import Iterator

from ..skills import Candidate, GameSkills, Measure, MoveFacts, Planted
from .planted import PlantedMultiplication

GAME = "multiplication"

MEASURES = (
    Measure("mg.missed_play", GAME, "Sees plays",
            "Drew a card when a card could be played", "turns",
            "Notices a legal discard.",
            well_words="spotted a card to play"),
    Measure("mg.facts", GAME, "Times tables",
            "Named a wrong times-table fact", "facts named",
            "Knows the multiplication facts (see the heat map).",
            well_words="named a times-table fact correctly", detail_words="declared",
            fact_grid=True),
    Measure("mg.squares", GAME, "Squares",
            "Missed playing a square to skip a rival", "turns",
            "Plays squares to skip a rival.",
            well_words="played a square to skip a rival"),
)


def per_attempt(m: MoveFacts, err: str) -> Iterator[Candidate]:
    a = m.analysis
    if a.get("kind") not in ("discard", "draw"):
        return
    decision = m.version_before
    if a.get("could_discard"):
        yield decision, "mg.missed_play", "", bool(a.get("missed_play")) and not err, None
    if a.get("square_possible"):
        yield decision, "mg.squares", "", bool(a.get("missed_square")) and not err, None
    fact = a.get("fact")
    # A free card accepts any fact, so it says nothing about knowing one; a multiplier
    # outside 1-10 is not a table fact (both still count as rule errors when refused).
    if fact and fact.get("card") != "free" and err != "not_in_hand" \
            and 1 <= fact["a"] <= 10 and 1 <= fact["b"] <= 10:
        yield decision, "mg.facts", f"{fact['a']}x{fact['b']}", err == "bad_declaration", None


SKILLS = GameSkills(
    measures=MEASURES,
    analysis_keys=("kind", "could_discard", "missed_play", "square_possible", "missed_square", "fact",
                   "analysis_error"),
    per_attempt=per_attempt,
    # Simulated games: long enough to give many chances, short enough to simulate quickly.
    planted=Planted(PlantedMultiplication, options={"hand_size": 10, "turn_limit": 50}),
)
