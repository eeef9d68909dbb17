"""Plain-words lines for the table: whose turn it is and what to do now."""

from __future__ import annotations

from . import mental_math, numero_table
from .models import Game


def _names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def status_line(*, game: Game, view: dict, coach: bool) -> str:
    if view.get("finished"):
        winners = view.get("winners") or []
        if not coach and view.get("me") in winners:
            return "You won! Well played." if len(winners) == 1 else "You share the win!"
        return f"Game over: {_names(winners)} won." if winners else "Game over."
    waiting = view.get("waiting_for") or []
    me = view.get("me")
    if coach or me not in waiting:
        return f"Waiting for {_names(waiting)}." if waiting else "Waiting…"
    return YOUR_TURN.get(game.key, _generic)(view)


def _generic(view: dict) -> str:
    return "Your turn."


def _smooth_operator(view: dict) -> str:
    decision = view.get("decision")
    high, low, active = view.get("high"), view.get("low"), view.get("active")
    if decision == "response":
        return f"Your turn: pick an operator for {high} and {low}. The points go to {active}, so give as few as you can."
    if decision == "penalty":
        return "You can't play any operator, so give up one special card (it costs 25 points)."
    if decision == "specials":
        return f"Everyone has answered: your turn is worth {view.get('turn_points')} points. Play a special card, or end your turn."
    return "Your turn."


def _multiplication(view: dict) -> str:
    multipliers = ", ".join(str(m) for m in view.get("open", {}).get("multipliers", []))
    return (f"Your turn: put down a card that has {multipliers} as a multiplier and say its two "
            "multipliers, or draw a card.")


def _add_or_multiply(view: dict) -> str:
    return ("Choose a number card for each rival and + or × for yourself. "
            "Nobody sees your choice until everyone has chosen.")


YOUR_TURN = {
    "smooth_operator": _smooth_operator,
    "multiplication": _multiplication,
    "add_or_multiply": _add_or_multiply,
    "numero": numero_table.your_turn,
    "numero_solitaire": numero_table.your_turn,
}


def board_context(*, game: Game, view: dict) -> dict:
    """Extra, game-specific values for a board template."""
    extra = BOARD_CONTEXT.get(game.key)
    context = extra(view) if extra else {}
    if game.key == "smooth_operator":
        context.update(mental_math.context(game=game, view=view))
    return context


SO_SPECIALS = ("free_turn", "double", "free_choice")


def _smooth_operator_board(view: dict) -> dict:
    return {
        "so_signs": [("+", "+"), ("-", "−"), ("x", "×"), ("/", "÷")],
        "so_specials": SO_SPECIALS,
    }


def _multiplication_board(view: dict) -> dict:
    return {"one_to_ten": range(1, 11)}


def _add_or_multiply_board(view: dict) -> dict:
    me, hand = view.get("me"), view.get("hand") or {}
    return {
        "am_opponents": [p for p in view.get("players", []) if p != me],
        "am_numbers": sorted(set(hand.get("numbers", []))),
        "am_operations": sorted(set(hand.get("operations", []))),
    }


BOARD_CONTEXT = {
    "smooth_operator": _smooth_operator_board,
    "multiplication": _multiplication_board,
    "add_or_multiply": _add_or_multiply_board,
    "numero": numero_table.board_context,
    "numero_solitaire": numero_table.board_context,
}


def went_well(*, game: Game, seat) -> list[str]:
    """A few encouraging, true sentences about the student's own play in a finished game."""
    if seat is None:
        return []
    moves = list(game.moves.filter(seat=seat).only("accepted", "analysis", "error_code"))
    accepted = [m for m in moves if m.accepted]
    lines = []
    if game.key == "smooth_operator":
        answers = [m.analysis for m in accepted if m.analysis.get("distinct_values", 0) >= 2]
        lowest = sum(1 for a in answers if a.get("missed_lower") is False)
        if answers:
            lines.append(f"You gave the fewest points possible in {lowest} of {len(answers)} choices.")
    elif game.key == "multiplication":
        facts = [m.analysis.get("fact") for m in moves if m.analysis.get("fact")]
        right = sum(1 for f in facts if f.get("correct"))
        if facts:
            lines.append(f"You named {right} of {len(facts)} times-table facts correctly.")
    if accepted and len(accepted) == len(moves):
        lines.append("Every move you tried followed the rules. Brilliant!")
    elif moves:
        lines.append(f"{len(accepted)} of your {len(moves)} tries were allowed moves: the others taught you a rule.")
    return lines or ["Thanks for playing: every game makes you faster."]
