"""Render a game table for one viewer: a player's own view, or the coach's view.

The same fragment serves the first HTTP render and every WebSocket push (its parts carry
`hx-swap-oob`, so htmx's ws extension swaps each by id).
"""

from __future__ import annotations

import secrets

from django.template.loader import render_to_string

from games import engine as engines

from . import presenters
from .models import Game, Seat
from .selectors import recent_events


def table_context(*, game: Game, seat: Seat | None, coach: bool, notice: str = "",
                  seats: list[Seat] | None = None) -> dict:
    engine = engines.get(game.key)
    view = engine.coach_view(game.state) if coach else engine.view(game.state, seat.name)
    seats = list(game.seats.all()) if seats is None else seats
    return {
        "game": game,
        "seats": seats,
        "seat": seat,
        "coach": coach,
        "view": view,
        "notice": notice,
        "status_line": presenters.status_line(game=game, view=view, coach=coach),
        "log": [text for events in recent_events(game=game)
                for text in (engine.describe_event(e) for e in events) if text],
        "board_template": f"games/boards/{game.key}.html",
        "interactive": seat is not None and not view.get("finished"),
        "went_well": presenters.went_well(game=game, seat=seat) if view.get("finished") else [],
        # A fresh key per render: re-sending the same form (a double tap, a resend after a
        # reconnect) repeats its key and is recognised as a duplicate by the move service.
        "form_key": secrets.token_hex(8),
        **presenters.board_context(game=game, view=view),
    }


def render_table(*, game_id: int, seat: Seat | None, coach: bool, notice: str = "") -> str:
    # Every push re-renders the table, so the game and its seats come in one query (a game
    # always has seats; the fallback keeps Game.DoesNotExist for a vanished game).
    seats = list(Seat.objects.select_related("game").filter(game_id=game_id))
    game = seats[0].game if seats else Game.objects.get(pk=game_id)
    return render_to_string("games/_table.html",
                            table_context(game=game, seat=seat, coach=coach, notice=notice, seats=seats))
