"""Bots play on the server, through the same move service as students.

A bot sees only its seat's view (never the state) and is re-created for each decision with a
seed derived from the game, so a game with bots is reproducible. The game's seed is 63 random
bits (games.services.moves.new_seed), so the derived seed is a bigger integer than 64 bits:
bots seed a private random.Random with it, which takes any integer whole (nothing is cut to 32
or 64 bits, and it is never stored), so it is as unpredictable as the deal.
"""

from __future__ import annotations

import logging

from games import registry
from games.models import Game, Seat
from games.services.moves import game_apply_move

log = logging.getLogger(__name__)


def next_bot_seat(game: Game) -> Seat | None:
    """The bot seat the engine is waiting for, if any (first in seat order)."""
    if game.status != Game.Status.ACTIVE or not game.state or game.state.get("finished"):
        return None
    waiting = set(registry.spec_for(game.key).engine.waiting_for(game.state))
    for seat in game.seats.all():
        if seat.bot_level and seat.name in waiting:
            return seat
    return None


def bot_action(game: Game, seat: Seat) -> dict:
    spec = registry.spec_for(game.key)
    bot = spec.make_bot(seat.bot_level, seed=game.seed * 1009 + game.version * 31 + seat.position)
    return bot.choose(spec.engine.view(game.state, seat.name))


def play_bot_moves(*, game_id: int, max_moves: int = 10_000, one_only: bool = False) -> int:
    """Play bot decisions while it is a bot's turn; return how many were applied.

    Each move uses an idempotency key made of the version and seat, so running this twice
    (two workers, a retried task) never applies a bot's decision twice.
    """
    played = 0
    while played < max_moves:
        game = Game.objects.get(pk=game_id)
        seat = next_bot_seat(game)
        if seat is None:
            break
        result = game_apply_move(
            game_id=game_id, seat=seat, action=bot_action(game, seat),
            expected_version=game.version, idempotency_key=f"bot:{game.version}:{seat.position}",
            schedule_bots=False,
        )
        if result.status == "rejected":
            log.error("bot %s in game %s chose an illegal move: %s", seat.bot_level, game_id, result.code)
            break
        if result.status == "applied":
            played += 1
        if one_only:
            break
    return played
