"""Mental maths is judged on the answer given with the move that was played.

Ava tries 13 ÷ 5 with the answer 7: refused, since 13 ÷ 5 is not exact. She then plays +
and answers 18, which is right, and the game tells her "✓ Right!". Her reports must not say
she missed that answer. The answer judged for mental maths is the one she gave with the move
that was accepted. The refused try is judged once, where it belongs: trying ÷ on 13 ÷ 5 is an
so.even_division miss (revision 2: one mistake, one measure; `judged_errors`), not also a
rule error."""

from datetime import datetime, timezone

from games.engine.skills import MoveFacts
from reports.evidence import game_evidence
from reports.measures import RULES

AVA = 7
WHEN = datetime(2026, 11, 24, 10, 0, tzinfo=timezone.utc)


def attempt(move_id: int, *, accepted: bool, error: str, card: str, answer: int, correct: int | None):
    analysis = {"kind": "response", "hand": ["+", "x", "/"], "high": 13, "low": 5, "chosen": card,
                "answer": answer, "correct_answer": correct,
                "answer_correct": correct is not None and answer == correct}
    return MoveFacts(id=move_id, seat_id=AVA, version_before=4, accepted=accepted, error_code=error,
                     analysis=analysis, events=None, think_ms=4000, played_at=WHEN)


def mental_maths(rows):
    return [(r.move_id, r.missed) for r in rows if r.measure == "so.mental_math"]


def test_a_refused_try_is_an_uneven_division_miss_and_the_played_answer_is_judged():
    rows = game_evidence("smooth_operator", [
        attempt(1, accepted=False, error="uneven_division", card="/", answer=7, correct=None),
        attempt(2, accepted=True, error="", card="+", answer=18, correct=18),
    ], {AVA: "Ava"}, {AVA})
    assert mental_maths(rows) == [(2, False)]  # one answer judged: the played one, right
    assert [(r.move_id, r.missed, r.detail) for r in rows if r.measure == "so.even_division"] == [
        (1, True, "÷")]
    assert not [r for r in rows if r.measure == RULES and r.missed]


def test_a_wrong_answer_with_the_played_move_is_a_miss_even_after_a_refused_try():
    rows = game_evidence("smooth_operator", [
        attempt(1, accepted=False, error="uneven_division", card="/", answer=2, correct=None),
        attempt(2, accepted=True, error="", card="+", answer=17, correct=18),
    ], {AVA: "Ava"}, {AVA})
    assert mental_maths(rows) == [(2, True)]


def test_a_refused_try_with_a_wrong_sum_is_not_a_mental_maths_miss():
    """Wrong arithmetic on a move the rules refused is not judged: the move was not made."""
    rows = game_evidence("smooth_operator", [
        attempt(1, accepted=False, error="uneven_division", card="/", answer=7, correct=2),
        attempt(2, accepted=True, error="", card="x", answer=65, correct=65),
    ], {AVA: "Ava"}, {AVA})
    assert mental_maths(rows) == [(2, False)]
