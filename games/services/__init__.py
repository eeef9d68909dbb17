"""Game writes (HackSoft style: every change goes through a service function).

- `moves`: creating a game and applying a move (the one move service for students and bots);
- `tables`: tables with classmates (lobby, invitations, starting);
- `bots`: computer players' turns;
- `after_commit`: what a committed change sets off (the table's pages told, its computer
  players woken, a finished game rated, the apps above signalled), registered by the others.

The move service's names are re-exported here: they are what the rest of the project calls.
"""

from games.services.moves import (BOT_NAMES, FreePlay, MoveResult, SeatSpec, bot_seats,
                                  free_play_start, game_apply_move, game_create,
                                  game_in_progress_for_assignment, game_start_for_assignment)

__all__ = ["BOT_NAMES", "FreePlay", "MoveResult", "SeatSpec", "bot_seats", "free_play_start",
           "game_apply_move", "game_create", "game_in_progress_for_assignment",
           "game_start_for_assignment"]
