"""Smooth Operator's mental-maths mode (set per assignment): the responder types h (op) l
before playing the card. The answer travels with the move (`answer`), is recorded on the Move
and judged by the engine's analysis; a wrong answer never blocks the move. The player then
sees a gentle correction, worked out from their own last recorded move, so it survives
reloads and the computer players' moves that follow, until they decide again.
"""

from __future__ import annotations

from .models import Game, Move

SYMBOLS = {"+": "+", "-": "−", "x": "×", "/": "÷"}


def mental_math_on(game: Game) -> bool:
    return game.key == "smooth_operator" and game.assignment_id is not None and game.assignment.mental_math


def answer_feedback(*, game: Game, player: str) -> dict | None:
    """How the player's latest answer went: {"correct", "question", "answer", "expected"}."""
    move = (Move.objects.filter(game=game, seat__name=player, accepted=True)
            .order_by("-sequence").only("answer", "analysis").first())
    if move is None or move.answer is None:
        return None
    facts = move.analysis or {}
    expected, op = facts.get("correct_answer"), facts.get("chosen")
    if expected is None or op not in SYMBOLS:
        return None
    return {"correct": bool(facts.get("answer_correct")), "answer": move.answer, "expected": expected,
            "question": f"{facts.get('high')} {SYMBOLS[op]} {facts.get('low')}"}


def context(*, game: Game, view: dict) -> dict:
    if not mental_math_on(game) or not view.get("me"):
        return {"mental_math": False}
    return {"mental_math": True, "mm_symbols": SYMBOLS,
            "mm_feedback": answer_feedback(game=game, player=view["me"])}
