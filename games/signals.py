"""What games tells the apps above it. Games never imports classroom, reports or devtools:
they listen to these signals instead (connected in their AppConfig.ready()).

Every signal is sent once the change is committed, never for a change that was rolled back
(outside a transaction: at once). The sender is the Game model.

- `game_changed(game_id, schedule_bots, by_seat_id)`: a table changed (a move, a seat taken
  or left, the start). `schedule_bots` is False when the bots' own loop made the move (it
  plays on by itself) or at a lobby; `by_seat_id` is the seat whose move it was (or None);
  `game` is the Game as committed when the sender holds it (or None). games/receivers.py tells the table and lets a bot play. Sent from a
  robust on-commit callback (games.services.moves.announce_on_commit): a receiver that fails
  is logged, and the committed change stands.
- `game_finished(game_id)`: a game ended and its results are saved (the skill report).
  Sent robustly: a failing receiver is logged and the others still run.
- `class_games_changed(classroom_id)`: a game of the class started, finished or was closed
  ("playing now" on the teacher's dashboard). Sent robustly too.
"""

from django.dispatch import Signal

game_changed = Signal()
game_finished = Signal()
class_games_changed = Signal()
