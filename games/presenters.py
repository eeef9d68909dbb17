"""Plain-words lines for the table: whose turn it is and what to do now."""

from __future__ import annotations

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


YOUR_TURN = {
    "smooth_operator": _smooth_operator,
}


def board_context(*, game: Game, view: dict) -> dict:
    """Extra, game-specific values for a board template."""
    extra = BOARD_CONTEXT.get(game.key)
    return extra(view) if extra else {}


SO_SPECIALS = ("free_turn", "double", "free_choice")


def _smooth_operator_board(view: dict) -> dict:
    return {
        "so_signs": [("+", "+"), ("-", "−"), ("x", "×"), ("/", "÷")],
        "so_specials": SO_SPECIALS,
    }


BOARD_CONTEXT = {
    "smooth_operator": _smooth_operator_board,
}
