"""The Multiplication Game's skill measures and evidence extractors (shared/spec/skills.md,
revision 2; how each is counted: docs/reports.md). Pure: reads the analysis `engine.analyse`
recorded (analyse.py: the expert's judgement of the position, the fact a card needed).

- mg.missed_play (strategy): a chance is a turn in which a card could be discarded (the
  expert bot then always discards); a miss is a draw. Amount: the cards more in hand than
  after a discard (the card kept, and the card drawn if one was left to draw).
- mg.squares (strategy): a chance is a turn in which a card was discarded while the expert
  would play a square (every discard it rates best is a square) and a card that is not a
  square was legal too; a miss is a discard that is not a square. Amount: the cards given up
  by the expert's own estimate. A draw is never a chance here (it is mg.missed_play's miss).
- mg.facts (arithmetic, per fact): a chance is a declaration for a number card; a miss is a
  false declaration (refused `bad_declaration`, which is this miss only, not also a rule
  error: `judged_errors`). The detail is the fact the card needed, not the fact said
  (analyse.needed_fact); the amount is the seconds the decision took.
"""

from __future__ import annotations

from typing import Iterator

from ..skills import Candidate, GameSkills, Measure, MoveFacts, Planted
from .planted import PlantedMultiplication

GAME = "multiplication"

MEASURES = (
    Measure("mg.missed_play", GAME, "Sees plays",
            "Drew a card when a card could be played", "turns",
            "Notices a legal discard.",
            well_words="spotted a card to play",
            amount_words=("card more in hand", "cards more in hand"),
            family="strategy"),
    Measure("mg.facts", GAME, "Times tables",
            "Named a wrong times-table fact", "facts named",
            "Knows the multiplication facts (see the heat map).",
            well_words="named a times-table fact correctly", detail_words="needed",
            amount_words=("second", "seconds"),
            fact_grid=True, family="arithmetic"),
    Measure("mg.squares", GAME, "Squares",
            "Played another card when a square would skip a rival", "turns",
            "Plays a square to skip a rival when that is the best move.",
            well_words="played a square to skip a rival",
            amount_words=("card given up", "cards given up"),
            family="strategy"),
)

# Refusals that are a miss of one of these measures only (not also a rule error).
JUDGED_ERRORS = {"bad_declaration": "mg.facts"}
# Refusals after which the declaration was still judged as a times-table fact: a true fact
# refused for sharing no multiplier with the open card is a fact known (and a rule error).
_FACT_CODES = ("", "bad_declaration", "no_common_multiplier")


def per_attempt(m: MoveFacts, err: str) -> Iterator[Candidate]:
    a = m.analysis
    kind = a.get("kind")
    if kind not in ("discard", "draw"):
        return
    decision = m.version_before
    # Strategy is judged on the move that was played (the decision's accepted attempt).
    if m.accepted:
        if a.get("could_discard"):
            missed = bool(a.get("missed_play"))
            yield decision, "mg.missed_play", "", missed, a.get("cards_given_up", 1) if missed else 0
        if kind == "discard" and a.get("square_chance"):
            missed = bool(a.get("missed_square"))
            yield decision, "mg.squares", "", missed, a.get("square_regret") if missed else 0
    fact = a.get("fact")
    # A free card accepts any fact, so it says nothing about knowing one (needed is None).
    if fact and fact.get("needed") and err in _FACT_CODES:
        seconds = m.think_ms / 1000 if m.think_ms is not None else None
        yield decision, "mg.facts", fact["needed"], err == "bad_declaration", seconds


SKILLS = GameSkills(
    measures=MEASURES,
    analysis_keys=("kind", "could_discard", "missed_play", "cards_given_up", "square_chance",
                   "missed_square", "square_regret", "fact", "analysis_error"),
    per_attempt=per_attempt,
    # Simulated games: long enough to give many chances, short enough to simulate quickly.
    planted=Planted(PlantedMultiplication, options={"hand_size": 10, "turn_limit": 50}),
    judged_errors=JUDGED_ERRORS,
    analysis_revision=2,
)
