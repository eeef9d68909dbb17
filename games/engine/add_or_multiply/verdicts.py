"""Add or Multiply?'s verdicts explained (GameSkills.explain): the operation chosen, the one the
expert bot would choose and what the difference is worth in expected points, read from the
expert's own evaluation recorded with the play (analyse.py, `operation_choice`: the same
values the measure counts). Every hand is public in this game; the opponents' choices of the
round were secret when the choice was made, and the words say so.
"""

from __future__ import annotations

from ..skills import Judged, Verdict, counted, number_words
from .view import SYMBOL

SECRET = "judged from what could be seen when choosing: what the others sent this round was still secret"


def _expects(op: str, values: dict) -> str:
    return f"{SYMBOL[op]} (the expert expects a final score of {number_words(values[op])} with it)"


def explain(j: Judged) -> Verdict | None:
    choice = j.analysis.get("operation_choice") if j.measure == "am.operation" else None
    if not choice or not choice.get("chance") or choice.get("chosen") not in (choice.get("values") or {}):
        return None
    values, chosen = choice["values"], choice["chosen"]
    other = next(op for op in values if op != chosen)
    better = other if choice.get("missed") else chosen
    gap = abs(values[chosen] - values[other])
    played = f"Chose {_expects(chosen, values)}."
    if choice.get("missed"):
        return Verdict(True, played, f"The expert would choose {_expects(better, values)}.",
                       f"Gave up {counted(choice.get('given_up') or gap, 'point', 'points')} on average "
                       f"against {SYMBOL[better]}, {SECRET}.")
    return Verdict(False, played, "The expert would choose the same.",
                   f"Fine: {SYMBOL[chosen]} is worth {counted(gap, 'point', 'points')} more on average "
                   f"than {_expects(other, values)}, {SECRET}.")
