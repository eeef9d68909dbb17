"""Turning one game's recorded moves into skill evidence (docs/reports.md, "The measures").
Pure Python: no database, so it can be tested and benchmarked on its own.

The one counting of a game's chances and misses: the reports store its rows
(reports/services.py) and sum them for every page and file; the end of a game sums the same
rows of that game for the player (games/results.py). So a game's own summary and the reports
cannot count a decision differently.

Input: the moves of one finished game in order (`MoveFacts`, the analysis the engine recorded
with each move, computed on the state before it) and which seats are students. What each
game's moves say about its measures is the game's own (`GameSkills`, games/engine/<game>/
skills.py); this module is the machinery every game shares.
Output: `Evidence` rows, one per chance at a measure.

What counts once:
- An accepted attempt gives one `all.think_time` row: detail = the decision kind, amount =
  seconds (none when unknown). It is also the attempt's chance at `all.rule_errors` (see
  skills.evidence_measures): one row per accepted move instead of two keeps the analysis of
  a million decisions within a minute.
- A refused attempt gives one `all.rule_errors` row: a miss, detail = its error code -
  unless the game judges that refusal as a miss of one of its own measures
  (`GameSkills.judged_errors`: a false times-table declaration is an mg.facts miss, an
  uneven ÷ tried an so.even_division miss); then it is that measure's miss only.
- Every other measure counts a *decision* once: the attempts one student makes at one game
  version (a refused attempt, then the move that was accepted). The decision is a miss when
  any of its attempts missed; the row then points at the first attempt that missed, else at
  the accepted move. So "tried ÷ on 13 ÷ 4, then played −" is one chance, one miss, not two
  chances. A game may group wider (a candidate's group is the game's to choose): e.g. one
  active turn with several special cards played in it.
- Attempts refused for not being the player's turn at all (or unreadable) are rule errors
  only: the analysis of such an attempt says nothing about the measure.
- Attempts set aside as a flood (error code FLOOD: refused moves sent faster than the move
  limit allows, live/limits.py) are no evidence at all: a script's junk says
  nothing about the child whose account sent it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from .skills import RULES, THINK, Candidate, GameSkills, MoveFacts, evidence_measures

# Refusals before the game even looked at the decision: only a rule error.
NOT_A_DECISION = frozenset({"bad_action", "unknown_player", "game_over", "not_your_turn"})
# A refused attempt that came in a flood (games.services.moves.moves_set_aside_flood): none.
FLOOD = "flood"


@dataclass(slots=True)
class Evidence:
    move_id: int
    seat_id: int
    measure: str
    detail: str
    missed: bool
    amount: float | None
    turn: int            # the replay's ?turn=: the position in which the decision was made
    played_at: datetime


def analysis_read(analysis: Mapping | None, keys: tuple[str, ...]) -> dict:
    """A recorded analysis as the extractors read it: only the game's `analysis_keys`, and no
    key whose value is None (the reports load it from the database cut down this way)."""
    if not analysis:
        return {}
    return {k: v for k in keys if (v := analysis.get(k)) is not None}


def decision_kind(analysis: Mapping) -> str:
    return str(analysis.get("kind") or "move")


def game_evidence(skills: GameSkills | None, moves: list[MoveFacts], seat_names: dict[int, str],
                  students: set[int]) -> list[Evidence]:
    """Every chance the students (`students`: seat ids) had in one game of a game with these
    `skills` (None: a game without measures of its own, which still has the generic two)."""
    rows: list[Evidence] = []
    # (seat, group, measure, detail) -> [move, missed, amount]; see the module docstring.
    chosen: dict[tuple, list] = {}
    per_attempt = skills.per_attempt if skills else None
    judged = skills.judged_errors if skills else {}

    def offer(m: MoveFacts, c: Candidate) -> None:
        group, measure, detail, missed, amount = c
        k = (m.seat_id, group, measure, detail)
        current = chosen.get(k)
        if current is None:
            chosen[k] = [m, missed, amount]
        elif missed and not current[1]:
            current[:] = [m, missed, amount]
        elif not missed and not current[1] and m.accepted and not current[0].accepted:
            current[:] = [m, missed, amount]

    for m in moves:
        if m.seat_id not in students:
            continue
        err = m.error_code or ""
        if err == FLOOD:
            continue
        analysis = m.analysis or {}
        if m.accepted:
            seconds = m.think_ms / 1000 if m.think_ms is not None else None
            rows.append(Evidence(m.id, m.seat_id, THINK, decision_kind(analysis), False, seconds,
                                 m.version_before, m.played_at))
        elif err not in judged:  # a judged refusal is its measure's miss only (one mistake, one measure)
            rows.append(Evidence(m.id, m.seat_id, RULES, err, True, None, m.version_before, m.played_at))
        if per_attempt is None or err in NOT_A_DECISION or not analysis or "analysis_error" in analysis:
            continue
        for candidate in per_attempt(m, err):
            offer(m, candidate)
    whole_game = skills.per_game if skills else None
    if whole_game is not None:
        for m, candidate in whole_game(moves, seat_names, students):
            offer(m, candidate)
    for (seat, _group, measure, detail), (m, missed, amount) in chosen.items():
        rows.append(Evidence(m.id, seat, measure, detail, missed, amount, m.version_before, m.played_at))
    return rows


def counts(rows: Iterable[Evidence], measure_ids: Iterable[str]) -> dict[str, tuple[int, int]]:
    """{measure id: (misses, chances)} of these rows, as the reports sum them (a measure's
    chances are the rows of its `evidence_measures`), for the measures with chances."""
    chances: dict[str, int] = defaultdict(int)
    misses: dict[str, int] = defaultdict(int)
    for r in rows:
        chances[r.measure] += 1
        misses[r.measure] += r.missed
    found = {}
    for measure_id in measure_ids:
        n = sum(chances[e] for e in evidence_measures(measure_id))
        if n:
            found[measure_id] = (misses[measure_id], n)
    return found
