"""Smooth Operator's skill measures and evidence extractors (shared/spec/skills.md; how each
is counted: docs/reports.md). Pure: reads the analysis `engine.analyse` recorded."""

from __future__ import annotations

from typing import Iterator

from ..skills import Candidate, GameSkills, Measure, MoveFacts, Planted
from .planted import PlantedSmoothOperator

GAME = "smooth_operator"

MEASURES = (
    Measure("so.lowest_operator", GAME, "Fewest points",
            "Chose a higher operator when a lower one was in hand", "turns",
            "When responding, gives away the fewest points possible.",
            well_words="chose the operator that gives the fewest points",
            amount_words=("point above the lowest", "points above the lowest")),
    Measure("so.even_division", GAME, "Exact division",
            "Missed when division was exact (or tried an uneven one)", "turns",
            "Knows when ÷ works out exactly.",
            well_words="spotted when dividing works out exactly"),
    Measure("so.specials", GAME, "Special cards",
            "Wasted a special card", "turns with a special",
            "Plays ‘free choice’ when it raises the points and never doubles 0.",
            well_words="used the special cards well"),
    Measure("so.mental_math", GAME, "Mental maths",
            "Worked out the answer wrong", "answers",
            "Computes the result before playing the card.",
            well_words="worked out the answer correctly"),
)


def per_attempt(m: MoveFacts, err: str) -> Iterator[Candidate]:
    a = m.analysis
    kind = a.get("kind")
    decision = m.version_before
    if kind == "response":
        if a.get("distinct_values", 0) >= 2:
            above = a.get("above_lowest") or 0
            yield decision, "so.lowest_operator", "", above > 0, above
        if a.get("holds_division"):
            lowest = a.get("lowest_cards") or ()
            skipped_exact = not err and "/" in lowest and a.get("chosen") not in lowest
            yield decision, "so.even_division", "", err == "uneven_division" or skipped_exact, None
    elif kind == "specials" and a.get("specials_held"):
        wasted = a.get("ended_with_raising_free_choice_unplayed") or a.get("double_on_zero")
        yield ("turn", a.get("turn")), "so.specials", "", bool(wasted) and not err, None
    # The answer judged is the one given with the move that was played: a try the rules
    # refused is a rule error only (all.rule_errors), whatever answer came with it.
    if a.get("answer_correct") is not None and not err:
        yield decision, "so.mental_math", "", not a["answer_correct"], None


SKILLS = GameSkills(
    measures=MEASURES,
    analysis_keys=("kind", "distinct_values", "above_lowest", "holds_division", "lowest_cards",
                   "chosen", "specials_held", "ended_with_raising_free_choice_unplayed",
                   "double_on_zero", "turn", "answer_correct", "analysis_error"),
    per_attempt=per_attempt,
    # Simulated games to 500 points: many chances each.
    planted=Planted(PlantedSmoothOperator, options={"target": 500}),
)
