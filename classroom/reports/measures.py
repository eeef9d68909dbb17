"""The skill measures of shared/spec/skills.md, as teachers and students read them.

A report cell reads "<miss_words>: 4 of 37 <chance_unit>"; `about` explains the measure.
`game` is the engine key whose moves give chances ("" for every game).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Measure:
    id: str
    game: str
    title: str        # short column heading
    miss_words: str   # what a miss is, in plain words
    chance_unit: str  # what a chance is counted in
    about: str        # one sentence for the teacher
    has_misses: bool = True  # all.think_time has no misses, only a median


MEASURES = (
    Measure("so.lowest_operator", "smooth_operator", "Fewest points",
            "Chose a higher operator when a lower one was in hand", "turns",
            "When responding, gives away the fewest points possible."),
    Measure("so.even_division", "smooth_operator", "Exact division",
            "Missed when division was exact (or tried an uneven one)", "turns",
            "Knows when ÷ works out exactly."),
    Measure("so.specials", "smooth_operator", "Special cards",
            "Wasted a special card", "turns with a special",
            "Plays ‘free choice’ when it raises the points and never doubles 0."),
    Measure("so.mental_math", "smooth_operator", "Mental maths",
            "Worked out the answer wrong", "answers",
            "Computes the result before playing the card."),
    Measure("am.operation", "add_or_multiply", "+ or ×",
            "Picked the operation that scored less", "rounds",
            "Chooses between adding and multiplying well."),
    Measure("nu.missed_take", "numero", "Sees takes",
            "Built or discarded when a take was possible", "turns",
            "Notices when cards can be taken."),
    Measure("nu.best_take", "numero", "Biggest take",
            "Took fewer cards than possible", "takes",
            "Takes as many cards as possible."),
    Measure("nu.valid_build", "numero", "Honest builds",
            "Built without the answer in hand", "builds",
            "Builds only when holding the answer card."),
    Measure("nu.operations", "numero", "Many operations",
            "Used one operation when more were possible", "takes with a wild card",
            "Uses several operations in one take."),
    Measure("mg.missed_play", "multiplication", "Sees plays",
            "Drew a card when a card could be played", "turns",
            "Notices a legal discard."),
    Measure("mg.facts", "multiplication", "Times tables",
            "Named a wrong times-table fact", "facts named",
            "Knows the multiplication facts (see the heat map)."),
    Measure("mg.squares", "multiplication", "Squares",
            "Missed playing a square to skip a rival", "turns",
            "Plays squares to skip a rival."),
    Measure("all.rule_errors", "", "Rules",
            "Tried a move the rules do not allow", "attempts",
            "Plays by the rules."),
    Measure("all.think_time", "", "Thinking time",
            "", "decisions",
            "Median seconds per decision.", has_misses=False),
)
MEASURES_BY_ID = {m.id: m for m in MEASURES}

RULES = "all.rule_errors"
THINK = "all.think_time"


def evidence_measures(measure_id: str) -> tuple[str, ...]:
    """The evidence rows behind a measure's chances. Every attempt is a chance at the rules:
    a refused one has its own `all.rule_errors` row (a miss, detail = its error code), an
    accepted one is counted by its `all.think_time` row (the decision and its thinking time),
    so an accepted move is written once, not twice."""
    return (RULES, THINK) if measure_id == RULES else (measure_id,)


def describe(measure_id: str, misses: int, chances: int) -> str:
    """'Chose a higher operator when a lower one was in hand: 4 of 37 turns'."""
    m = MEASURES_BY_ID[measure_id]
    return f"{m.miss_words}: {misses} of {chances} {m.chance_unit}"
