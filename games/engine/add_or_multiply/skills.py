"""Add or Multiply?'s skill measure and its evidence extractor (docs/reports.md, "The measures";
how it is counted: docs/reports.md, "Add or Multiply?"). Pure: reads the analysis of the
student's own plays.

`am.operation` is a strategy measure: the operation is judged when it is chosen, by the
expected points of `+` and of `x` as the expert bot itself evaluates them from what the
chooser could see (analyse.py). A chance is a play, with both operations in hand, where one
of them is clearly worth more than the other (beyond the expert's own margin of error); a miss
is choosing the one worth less, and the amount is the expected points given up. The cards that
came afterwards play no part: that was luck, not skill.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ..skills import Candidate, ClassMove, GameSkills, Measure, MoveFacts, Planted, Unit
from .planted import PlantedAddOrMultiply
from .verdicts import explain
from .view import SYMBOL
from ..words import _, ngettext_lazy, pgettext

GAME = "add_or_multiply"

MEASURES = (
    Measure("am.operation", GAME, _("+ or ×"),
            _("Picked the operation worth fewer points on average"), _("choices"),
            _("Chooses between adding and multiplying by what the cards still to come are "
            "likely to be."),
            well_words=pgettext("what the player did well, read after “You” or a name", "picked the operation worth more on average"),
            # Translators: a total's heading in the skill reports, and an amount on the moves page.
            amount_words=Unit(_("Points given up on average"),
                              # Translators: an amount on the moves page (%(n)s may be "2.5": an estimate).
                              ngettext_lazy("%(n)s point given up on average", "%(n)s points given up on average")),
            family="strategy"),
)


def per_attempt(m: MoveFacts, err: str) -> Iterator[Candidate]:
    """One chance per round in which the student chose with both operations in hand and one
    was clearly worth more (only an accepted play is judged: a refused one is a rule error)."""
    a = m.analysis
    choice = a.get("operation_choice")
    if err or a.get("kind") != "play" or not choice or not choice.get("chance"):
        return
    missed = bool(choice.get("missed"))
    yield ("round", a.get("round")), "am.operation", "", missed, \
        float(choice.get("given_up") or 0.0) if missed else 0.0


# "Practise this": no number range gives am.operation more chances. A chance needs both
# operations in hand and one clearly worth more on average; every game has five rounds, and
# a narrower range makes + and × closer, not clearer: number cards 3-6 give about 0.6x the
# classic game's chances, 0-2 about 0.8x (`selfplay --measures`; docs/reports.md). The
# `number_range` house option stays for teachers who want those numbers.
NO_FOCUS = {
    "am.operation": _(
        "“+ or ×” has no practice deal of its own: every game has five rounds, and no choice "
        "of number cards makes the better operation clear more often."),
}


def practice(measure_id: str, detail: str, weakest: Sequence[str] = ()) -> dict | None:
    return None


def focus_words(options: dict) -> list[str]:
    value = options.get("number_range")
    # Translators: what a practice game's option does, for the teacher: "Number cards from 3 to 6 only."
    return [_("Number cards from %(low)s to %(high)s only.", low=value[0], high=value[1])] if value else []


# ----- the class's live line (the arena's projector) ----------------------------------------

def class_line(moves: Sequence[ClassMove]) -> dict | None:
    """"Best round: 8 × 9 = 72 points.": the most points one player made in one round. Only
    resolved rounds are read (the `round_resolved` event, when every choice is turned face
    up): a choice still secret is never read, nor who made it. None before a round ends."""
    best = None
    for move in moves:
        for event in move.events:
            if event.get("type") != "round_resolved":
                continue
            for fact in (event.get("results") or {}).values():
                if best is None or fact["points"] > best["points"]:
                    best = fact
    if best is None:
        return None
    a, b = best["on_me"]
    return {"line": "best_round", "a": a, "operation": SYMBOL[best["operation"]], "b": b, "points": best["points"]}


SKILLS = GameSkills(
    measures=MEASURES,
    analysis_keys=("kind", "round", "operation_choice", "analysis_error"),
    per_attempt=per_attempt,
    # Five rounds (the most): up to five choices a game, about two of them chances.
    planted=Planted(PlantedAddOrMultiply, options={"rounds": 5}),
    analysis_revision=2,
    practice=practice,
    focus_words=focus_words,
    no_focus=NO_FOCUS,
    class_line=class_line,
    explain=explain,
)
