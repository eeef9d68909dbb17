"""What a committed change of a game sets off: the one place a change's after-commit path is.

The services that change a game (moves.py: a move, a new game; tables.py: a lobby change, the
start, a stop, a seat handed to a computer player) register these with
`transaction.on_commit`, so nobody is told of a change that was rolled back:

- `announce_on_commit`: the table's pages and its computer players. `table_changed` then,
  in the thread that committed (a page's socket, a request, the bots' worker):
  1. renders every human seat's view once (`games.rendering.table_push`; with the game and
     seats the move service hands over, no query);
  2. sends them to the table's channel-layer group (`games.realtime.broadcast_game_changed`);
     each socket of the game page (games/consumers/table.py) sends on its own seat's view, and
     each lobby socket (games/consumers/lobby.py) renders its own lobby;
  3. wakes the computer players (`wake_bots`) unless the bots' own loop made the move (it plays
     on by itself) or a lobby changed: the task `games.tasks.wake_bots`, looked up by name and
     run here, in the committing thread (never through the broker: one cheap query says
     whether a bot's turn is due), runs `schedule_bot_moves`, which lets the bot whose turn it
     is play after its pause (queued for a worker with its countdown, or at once when no pause
     is wanted) through the move service, whose own commit comes back here with the bots'
     loop as its author.
- `finished_on_commit`: the game's students' ratings move (`ratings_update_for_game`), then the
  apps above are told (`games.signals.game_finished`: the skill report). Rated first and in the
  committing thread, so a "just right" game started next already uses the new rating.
- `class_games_changed_on_commit`: the class's dashboards ("Playing now"), through
  `games.signals.class_games_changed`.

Everything here runs after the change committed, so nothing may turn it into an error (a 500
for a game that was in fact created, a socket closed after its move was applied): each step
logs its own failure and the others still run. A view that could not be rendered is rendered
by each socket itself; a broadcast the channel layer did not take, or a bot's turn the broker
did not take (Redis stopped), is caught up when a page of the table (re)connects: it reads the
whole table and wakes its bots.

Why the bots' task is looked up by name: the bots play through the move service, which imports
this module, so importing the task here would close an import cycle (moves -> here -> tasks ->
bots -> moves). GamesConfig.ready() imports games.tasks, so the task is registered in every
process and an eager Celery (tests, `make run` without Redis) runs it in-process.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from functools import partial

from celery import current_app
from django.db import transaction

from games import realtime, signals
from games.models import Game, Seat
from games.rendering import TablePush, table_push
from games.services.ratings import ratings_update_for_game

log = logging.getLogger(__name__)

WAKE_BOTS_TASK = "games.tasks.wake_bots"

# True inside `tables_nobody_watches`: changes of a table are not announced to its pages.
_NOBODY_WATCHES: ContextVar[bool] = ContextVar("tables_nobody_watches", default=False)


@contextlib.contextmanager
def tables_nobody_watches() -> Iterator[None]:
    """For games created and played to their end inside one transaction (a simulated class's:
    devtools/simulation.py): no page can have such a game open before it commits, so its
    moves are not announced to the table's pages. Rendering every seat's view after each move
    for nobody was half the cost of a simulated game. The computer players are still woken
    where a change asks for it, and the class's dashboards and the finished game's report are
    told as always."""
    token = _NOBODY_WATCHES.set(True)
    try:
        yield
    finally:
        _NOBODY_WATCHES.reset(token)


def announce_on_commit(*, game_id: int, schedule_bots: bool = True, by_seat_id: int | None = None,
                       game: Game | None = None, seats: list[Seat] | None = None) -> None:
    """`table_changed` once the transaction commits (at once outside one)."""
    if _NOBODY_WATCHES.get():
        if schedule_bots:
            bots_on_commit(game_id=game_id)
        return
    # Callbacks are lambdas, not partials: a robust on_commit logs a failure by the callback's
    # __qualname__, which a partial lacks (the log call itself would then raise).
    transaction.on_commit(lambda: table_changed(game_id=game_id, schedule_bots=schedule_bots,
                                                by_seat_id=by_seat_id, game=game, seats=seats),
                          robust=True)


def table_changed(*, game_id: int, schedule_bots: bool = True, by_seat_id: int | None = None,
                  game: Game | None = None, seats: list[Seat] | None = None) -> None:
    """After a committed change: render the players' views once, tell the table's pages, then
    wake the computer players (see the module's doc). `by_seat_id`: the seat whose move it was
    (its page starts its next decision afresh); `game` and `seats`: both as committed, when the
    caller holds them (nothing is read back); `schedule_bots`: False when the bots' own loop
    made the change, or at a lobby."""
    push = _step("the views could not be rendered for the push", game_id,
                 partial(table_push, game_id=game_id, by_seat_id=by_seat_id, game=game, seats=seats))
    # Without a push the sockets render their own views.
    _step("the table's pages could not be told", game_id,
          partial(realtime.broadcast_game_changed, game_id=game_id,
                  message=push.message() if push else None))
    if schedule_bots and _may_have_bots(push):
        _step("the computer players could not be woken", game_id, partial(wake_bots, game_id=game_id))


def bots_on_commit(*, game_id: int) -> None:
    """Only wake the computer players once the transaction commits (a new game no page has
    open yet: there is nobody to push its views to)."""
    transaction.on_commit(lambda: _step("the computer players could not be woken", game_id,
                                        partial(wake_bots, game_id=game_id)), robust=True)


def _may_have_bots(push: TablePush | None) -> bool:
    # A table without computer players queues nothing (most tables); unknown without a push.
    return push is None or push.has_bots


def _step(failure: str, game_id: int, call: Callable):
    """One step of the after-commit path: its result, or None once its failure is logged."""
    try:
        return call()
    except Exception:  # noqa: BLE001 - the change is committed; the next steps still run
        log.exception("game %s: %s", game_id, failure)
        return None


def wake_bots(*, game_id: int) -> bool:
    """Run `games.tasks.wake_bots` in this thread (looked up by name, see the module's doc):
    calling a task runs its body here, as a direct call would, with no broker in between, so
    a bot's turn is decided where the change committed, whether or not a worker is up. False
    when no bot's turn was scheduled (none due, or the broker is away: logged)."""
    return current_app.tasks[WAKE_BOTS_TASK](game_id)


def finished_on_commit(*, game_id: int) -> None:
    """Once the finish commits: the ratings move, then the apps above hear `game_finished`.
    Two callbacks, so a rating that fails (logged) never keeps the skill report from coming."""
    transaction.on_commit(lambda: ratings_update_for_game(game_id=game_id), robust=True)
    _send_on_commit(signals.game_finished, game_id=game_id)


def class_games_changed_on_commit(*, game: Game) -> None:
    """A game of a class started, finished or closed: once that commits, the class's open
    teacher dashboards re-read who is playing now (moves in between are not announced)."""
    if game.classroom_id is not None:
        _send_on_commit(signals.class_games_changed, classroom_id=game.classroom_id)


def _send_on_commit(signal, **kwargs) -> None:
    """Send one of games/signals.py's signals once the transaction commits. Robust: a failing
    receiver is logged, and neither the other receivers nor the commit's other callbacks are
    affected."""
    transaction.on_commit(lambda: signal.send_robust(sender=Game, **kwargs), robust=True)
