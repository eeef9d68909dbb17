"""Why each counted decision was judged as it was, for the moves page and the replay.

A counted decision is an evidence row; its explanation (`Verdict`: what was played, what the
expert would have played, what the difference was worth or why it was fine) is the game's own
(`GameSkills.explain`), read from the analysis recorded with the move the row points at: the
same expert evaluation the row was counted from, never judged a second time here. This module
hands rows to their game and decides which rows a viewer sees on a replay: a teacher every
student's, a student only their own (their own cards, which they saw).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from accounts.models import User
from games.engine.skills import Judged, Verdict
from games.models import Game

from ..evidence import game_skills
from ..measures import RULES, THINK, measures_by_id
from ..models import SkillEvidence

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReplayVerdict:
    """One decision made from a replayed position, explained (games/signals.py replay_position)."""

    who: str       # the player's name at the table
    title: str     # the measure's title ("Best card")
    verdict: Verdict


def verdict_of(row: SkillEvidence) -> Verdict | None:
    """The explanation of one evidence row (its `game` and `move` are read: select them with
    it), or None for a measure its game does not explain (rules, thinking time)."""
    skills = game_skills(row.game.key)
    if skills is None or skills.explain is None or row.measure in (RULES, THINK):
        return None
    move = row.move
    action = move.action if isinstance(move.action, dict) else None
    try:
        return skills.explain(Judged(row.measure, row.detail, row.missed, row.amount,
                                     move.analysis or {}, action))
    except (KeyError, TypeError, ValueError, IndexError):
        # An analysis of an older shape the words cannot read: the row is shown without its
        # explanation rather than the page failing (it is logged, to be fixed).
        log.exception("could not explain evidence row %s (%s)", row.pk, row.measure)
        return None


def with_verdicts(rows: list[SkillEvidence]) -> list[tuple[SkillEvidence, Verdict | None]]:
    """Each row beside its explanation (the moves page's lines)."""
    return [(row, verdict_of(row)) for row in rows]


def replay_verdicts(*, game: Game, turn: int, student: User | None = None) -> list[ReplayVerdict]:
    """The decisions counted at one position of a game (the replay's `?turn=`: the table as it
    was when they were made), explained: every student's for a teacher (`student` None), only
    the student's own otherwise. In the game's measure order."""
    rows = (SkillEvidence.objects.filter(game=game, turn=turn).exclude(measure__in=(RULES, THINK))
            .select_related("game", "move", "move__seat"))
    if student is not None:
        rows = rows.filter(student=student)
    measures = measures_by_id()
    order = {m: i for i, m in enumerate(measures)}
    found = []
    for row in sorted(rows, key=lambda r: (r.move.seat.name, order.get(r.measure, len(order)), r.detail)):
        verdict = verdict_of(row)
        measure = measures.get(row.measure)
        if verdict is not None and measure is not None:
            found.append(ReplayVerdict(row.move.seat.name, measure.title, verdict))
    return found
