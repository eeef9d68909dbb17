"""Add or Multiply?'s verdicts explained (GameSkills.explain): the operation chosen, the one the
expert bot would choose and what the difference is worth in expected points, read from the
expert's own evaluation recorded with the play (analyse.py, `operation_choice`: the same
values the measure counts). Every hand is public in this game; the opponents' choices of the
round were secret when the choice was made, and the words say so.

Each sentence is whole, with named values (games/engine/words.py), so that it can be said in
the reader's language.
"""

from __future__ import annotations

from ..skills import Judged, Verdict, number_words, points
from ..words import _
from .view import SYMBOL


def explain(j: Judged) -> Verdict | None:
    choice = j.analysis.get("operation_choice") if j.measure == "am.operation" else None
    if not choice or not choice.get("chance") or choice.get("chosen") not in (choice.get("values") or {}):
        return None
    values, chosen = choice["values"], choice["chosen"]
    other = next(op for op in values if op != chosen)
    better = other if choice.get("missed") else chosen
    gap = abs(values[chosen] - values[other])
    # Translators: a teacher reads why a move was judged. %(operation)s is + or ×; %(score)s a
    # number of points (it may be "2.5").
    played = _("Chose %(operation)s (the expert expects a final score of %(score)s with it).",
               operation=SYMBOL[chosen], score=number_words(values[chosen]))
    if choice.get("missed"):
        # Translators: "the expert" is the expert computer player. %(operation)s is + or ×.
        expert = _("The expert would choose %(operation)s (the expert expects a final score of %(score)s "
                   "with it).", operation=SYMBOL[better], score=number_words(values[better]))
        # Translators: %(points)s is "8 points" (or "2.5 points"); %(operation)s is + or ×.
        worth = _("Gave up %(points)s on average against %(operation)s, judged from what could be seen "
                  "when choosing: what the others sent this round was still secret.",
                  points=points(choice.get("given_up") or gap), operation=SYMBOL[better])
        return Verdict(True, played, expert, worth)
    # Translators: %(operation)s and %(other)s are + or ×; %(points)s is "8 points"; %(score)s a
    # number of points.
    worth = _("Fine: %(operation)s is worth %(points)s more on average than %(other)s (the expert "
              "expects a final score of %(score)s with it), judged from what could be seen when "
              "choosing: what the others sent this round was still secret.",
              operation=SYMBOL[chosen], points=points(gap), other=SYMBOL[other],
              score=number_words(values[other]))
    return Verdict(False, played, _("The expert would choose the same."), worth)
