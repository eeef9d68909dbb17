"""Turning one game's recorded moves into skill evidence (shared/spec/skills.md). Pure Python:
no database, so it can be tested and benchmarked on its own.

Input: the moves of one finished game in order (`MoveFacts`, the analysis the engine recorded
with each move, computed on the state before it) and which seats are students.
Output: `Evidence` rows, one per chance at a measure.

What counts once:
- An accepted attempt gives one `all.think_time` row: detail = the decision kind, amount =
  seconds (none when unknown). It is also the attempt's chance at `all.rule_errors` (see
  measures.evidence_measures): one row per accepted move instead of two keeps the analysis of
  a million decisions within a minute.
- A refused attempt gives one `all.rule_errors` row: a miss, detail = its error code.
- Every other measure counts a *decision* once: the attempts one student makes at one game
  version (a refused attempt, then the move that was accepted). The decision is a miss when
  any of its attempts missed; the row then points at the first attempt that missed, else at
  the accepted move. So "tried ÷ on 13 ÷ 4, then played −" is one chance, one miss, not two
  chances. Two groupings are wider: `so.specials` counts one active turn (several special
  cards may be played in it), `am.operation` one resolved round.
- Attempts refused for not being the player's turn at all (or unreadable) are rule errors
  only: the analysis of such an attempt says nothing about the measure.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Iterator

from .measures import RULES, THINK

# Refusals before the game even looked at the decision: only a rule error.
NOT_A_DECISION = frozenset({"bad_action", "unknown_player", "game_over", "not_your_turn"})


@dataclass(slots=True)
class MoveFacts:
    id: int
    seat_id: int
    version_before: int
    accepted: bool
    error_code: str
    analysis: dict | None   # None for a computer player's move (never read)
    events: list | None     # needed for Add or Multiply? rounds and Numero challenges
    think_ms: int | None
    played_at: datetime


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


def monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


# A candidate row from one attempt: (group, measure, detail, missed, amount).
Candidate = tuple[Any, str, str, bool, Any]


# ----- Smooth Operator --------------------------------------------------------------------
def smooth_operator(m: MoveFacts, err: str) -> Iterator[Candidate]:
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
    if a.get("answer_correct") is not None:
        yield decision, "so.mental_math", "", not a["answer_correct"], None


# ----- The Multiplication Game ------------------------------------------------------------
def multiplication(m: MoveFacts, err: str) -> Iterator[Candidate]:
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


# ----- Numero -----------------------------------------------------------------------------
BUILD_CHANCE_CODES = frozenset({"", "no_answer_card"})


def numero(m: MoveFacts, err: str) -> Iterator[Candidate]:
    a = m.analysis
    kind = a.get("kind")
    decision = m.version_before
    if kind in ("take", "build", "discard") and a.get("take_possible"):
        yield decision, "nu.missed_take", "", bool(a.get("missed_take")) and not err, None
    if kind == "take" and not err and a.get("chosen") and "cards_left_behind" in a:
        behind = a["cards_left_behind"]
        yield decision, "nu.best_take", "", behind > 0, behind
        if a.get("holding_wild") and "max_operations" in a:
            one_op = a["chosen"].get("operations") == 1 and a["max_operations"] > 1
            yield decision, "nu.operations", "", one_op, None
    if kind == "build" and err in BUILD_CHANCE_CODES:
        yield decision, "nu.valid_build", "", err == "no_answer_card", None


def numero_lost_challenges(moves: list[MoveFacts], seat_names: dict[int, str],
                           students: set[int]) -> Iterator[tuple[MoveFacts, Candidate]]:
    """A bluff that was challenged and lost is a miss of the build that made it: the latest
    accepted bluffing build of that builder before the challenge."""
    by_name = {name: seat for seat, name in seat_names.items() if seat in students}
    last_bluff: dict[int, MoveFacts] = {}
    for m in moves:
        if m.seat_id in students and m.accepted and m.analysis and m.analysis.get("kind") == "build" \
                and m.analysis.get("bluff"):
            last_bluff[m.seat_id] = m
        for event in m.events or ():
            if event.get("type") == "challenge" and event.get("bluff"):
                seat = by_name.get(event.get("builder"))
                build = last_bluff.pop(seat, None) if seat is not None else None
                if build is not None:
                    yield build, (build.version_before, "nu.valid_build", "", True, None)


# ----- Add or Multiply? -------------------------------------------------------------------
def add_or_multiply_rounds(moves: list[MoveFacts], seat_names: dict[int, str],
                           students: set[int]) -> Iterator[tuple[MoveFacts, Candidate]]:
    """One chance per resolved round, pointing at the student's own play of that round."""
    plays: dict[tuple[int, Any], MoveFacts] = {}
    for m in moves:
        if m.seat_id in students and m.accepted and m.analysis and m.analysis.get("kind") == "play":
            plays[(m.seat_id, m.analysis.get("round"))] = m
        for event in m.events or ():
            if event.get("type") != "round_resolved":
                continue
            for seat in students:
                result = event.get("results", {}).get(seat_names[seat])
                play = plays.get((seat, event.get("round")))
                if result is None or play is None:
                    continue
                lost = max(0, result["other_points"] - result["points"])
                yield play, (("round", event.get("round")), "am.operation", "", bool(result["missed"]),
                             lost)


PER_ATTEMPT = {
    "smooth_operator": smooth_operator,
    "multiplication": multiplication,
    "numero": numero,
    "numero_solitaire": numero,
}
PER_GAME = {
    "add_or_multiply": add_or_multiply_rounds,
    "numero": numero_lost_challenges,
    "numero_solitaire": numero_lost_challenges,
}


# The analysis keys each game's measures read: only these are fetched from the database
# (an analysis also lists every option and the hand, which the reports do not need).
ANALYSIS_KEYS = {
    "smooth_operator": ("kind", "distinct_values", "above_lowest", "holds_division", "lowest_cards",
                        "chosen", "specials_held", "ended_with_raising_free_choice_unplayed",
                        "double_on_zero", "turn", "answer_correct", "analysis_error"),
    "multiplication": ("kind", "could_discard", "missed_play", "square_possible", "missed_square", "fact",
                       "analysis_error"),
    "numero": ("kind", "take_possible", "missed_take", "chosen", "cards_left_behind", "holding_wild",
               "max_operations", "bluff", "analysis_error"),
    "add_or_multiply": ("kind", "round", "analysis_error"),
}
ANALYSIS_KEYS["numero_solitaire"] = ANALYSIS_KEYS["numero"]


def decision_kind(key: str, analysis: dict) -> str:
    return str(analysis.get("kind") or "move")


def game_evidence(key: str, moves: list[MoveFacts], seat_names: dict[int, str],
                  students: set[int]) -> list[Evidence]:
    """Every chance the students (`students`: seat ids) had in one game."""
    rows: list[Evidence] = []
    # (seat, group, measure, detail) -> [move, missed, amount]; see the module docstring.
    chosen: dict[tuple, list] = {}
    per_attempt = PER_ATTEMPT.get(key)

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
        analysis = m.analysis or {}
        if m.accepted:
            seconds = m.think_ms / 1000 if m.think_ms is not None else None
            rows.append(Evidence(m.id, m.seat_id, THINK, decision_kind(key, analysis), False, seconds,
                                 m.version_before, m.played_at))
        else:
            rows.append(Evidence(m.id, m.seat_id, RULES, err, True, None, m.version_before, m.played_at))
        if per_attempt is None or err in NOT_A_DECISION or not analysis or "analysis_error" in analysis:
            continue
        for candidate in per_attempt(m, err):
            offer(m, candidate)
    whole_game = PER_GAME.get(key)
    if whole_game is not None:
        for m, candidate in whole_game(moves, seat_names, students):
            offer(m, candidate)
    for (seat, _group, measure, detail), (m, missed, amount) in chosen.items():
        rows.append(Evidence(m.id, seat, measure, detail, missed, amount, m.version_before, m.played_at))
    return rows
