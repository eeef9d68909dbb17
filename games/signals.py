"""What games tells the apps above it. Games never imports classroom, reports or devtools:
they listen to these signals instead (connected in their AppConfig.ready()). Games itself
listens to none: what a change sets off inside games is called directly
(games/services/after_commit.py).

Every signal is sent once the change is committed, never for a change that was rolled back
(outside a transaction: at once; games/services/after_commit.py sends them). The sender is the
Game model.

- `game_finished(game_id)`: a game ended and its results are saved (the skill report).
  Sent robustly: a failing receiver is logged and the others still run.
- `class_games_changed(classroom_id)`: a game of the class started, finished or was closed
  ("playing now" on the teacher's dashboard). Sent robustly too.

One is sent when it happens, not after a commit (there is nothing to commit):

- `table_watched(game_id, user, path)`: a teacher who does not play at a game's table (so
  sees every hand) opened its socket, and the socket was accepted: the table is about to be
  sent to it. Sent once per opening, in a database thread, by games/consumers/table.py; a
  player's own socket sends nothing. Not robust: a receiver that fails fails the opening (the
  page tries again), as the access log (privacy/) must not miss a teacher's view of a game.

One signal *asks* rather than tells (sent by the replay page, `games/views/game.py`, while it
renders; robustly: a failing receiver is logged and the page still shows):

- `replay_position(game, turn, student)`: the replay shows the table after `turn` moves, the
  position the next decisions were made from. A receiver returns a list of things to show
  about those decisions, each with `who` (the player's name at the table), `title` and
  `verdict` (a `games.engine.skills.Verdict`): the skill reports return each counted
  decision, explained (reports/selectors/verdicts.py). `student` is the student looking
  (they see only their own decisions), None for a teacher, who sees every seat's.
"""

from django.dispatch import Signal

game_finished = Signal()
class_games_changed = Signal()
replay_position = Signal()
table_watched = Signal()
