"""A student's games when the student is erased (privacy/erasure.py; docs/privacy-export-erase.md,
"Erasure").

A game nobody else played (with computer players, or alone) is deleted with everything in it.
A game shared with classmates is theirs too, so it stays, and the student's place in it no
longer refers to them: the seat has no user and is named "a former student" everywhere the
game knows the name (the engine's state, the moves' events and analysis, the classmates'
rating changes), so classmates' results, replays and ratings still read correctly. A table
still gathering players is left as `table_leave` leaves it; a game in play carries on with a
computer player in the seat, as when a student leaves (`game_leave`).
"""

from __future__ import annotations

from django.db import transaction

from accounts.membership import membership_changed
from accounts.models import User
from games.models import Game, Move, RatingChange, Seat
from games.player_names import renamed, unique_name
from games.services.after_commit import announce_on_commit, class_games_changed_on_commit
from games.services.tables import _table_level, table_leave

FORMER_STUDENT = "a former student"


def former_student_name(taken: set[str]) -> str:
    """The seat's new name: unique in its game (a game may have lost two students)."""
    return unique_name(FORMER_STUDENT, taken)


def _rename_in_game(game: Game, old: str, new: str) -> None:
    names = {old: new}
    game.state = renamed(game.state, names)
    game.recent_events = renamed(game.recent_events, names)
    game.save(update_fields=["state", "recent_events", "updated_at"])
    moves = list(Move.objects.filter(game=game))
    for move in moves:
        move.action = renamed(move.action, names)
        move.events = renamed(move.events, names)
        move.analysis = renamed(move.analysis, names)
    Move.objects.bulk_update(moves, ["action", "events", "analysis"], batch_size=500)
    changes = list(RatingChange.objects.filter(game=game))
    for change in changes:
        change.opponents = renamed(change.opponents, names)
    RatingChange.objects.bulk_update(changes, ["opponents"], batch_size=500)


def _leave_shared(game: Game, student: User) -> None:
    if game.status == Game.Status.LOBBY:
        table_leave(student=student, game_id=game.pk)
        return
    seats = list(game.seats.all())
    mine = next(s for s in seats if s.user_id == student.pk)
    old = mine.name
    mine.user, mine.name = None, former_student_name({s.name for s in seats})
    if game.status == Game.Status.ACTIVE:
        mine.bot_level = _table_level(game, seats)
    mine.save(update_fields=["user", "name", "bot_level"])
    _rename_in_game(game, old, mine.name)
    if game.status == Game.Status.ACTIVE:
        announce_on_commit(game_id=game.pk)  # the new computer player may be the one waited for
        class_games_changed_on_commit(game=game)


@transaction.atomic
def student_games_forget(*, student: User) -> None:
    """Delete the student's games nobody else played; in games shared with classmates, make
    their seat "a former student" (see the module's docstring)."""
    game_ids = set(Seat.objects.filter(user=student).values_list("game_id", flat=True))
    # Game rows in id order: the lock order of every game write (reports.services.lock_classes).
    games = list(Game.objects.select_for_update().filter(pk__in=game_ids).order_by("pk"))
    shared = set(Seat.objects.filter(game_id__in=game_ids, user__isnull=False)
                 .exclude(user=student).values_list("game_id", flat=True))
    Game.objects.filter(pk__in=game_ids - shared).delete()
    for game in games:
        if game.pk in shared:
            _leave_shared(game, student)
    # Open table and lobby sockets re-check who may still listen (the student may not).
    membership_changed(*{game.classroom_id for game in games})
