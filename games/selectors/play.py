"""Which games a user may open, and in which role. Declared here once, used by views and
consumers alike (see accounts/permissions.py for the role rules).

- A student opens a game only if they hold a seat in it: they see their seat's view.
- A teacher opens any game of a class they teach: the coach view, read-only, every hand.
- Nobody else finds it (404 / socket closed).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from accounts.permissions import is_student, is_teacher
from games import registry

from games.engine.evidence import analysis_read
from games.engine.skills import GameSkills, MoveFacts
from games.models import Game, Move, Seat
from games.signals import replay_position
from games.spec import SeatMove

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableAccess:
    game: Game
    seat: Seat | None  # the viewer's seat; None for a coach
    coach: bool

    @property
    def can_move(self) -> bool:
        return self.seat is not None


def game_access(*, user, game_id: int) -> TableAccess | None:
    if is_student(user):
        seat = (Seat.objects.select_related("game").filter(game_id=game_id, user=user).first())
        return TableAccess(seat.game, seat, coach=False) if seat else None
    if is_teacher(user):
        game = Game.objects.filter(pk=game_id, classroom__teachers=user).first()
        return TableAccess(game, None, coach=True) if game else None
    return None


def recent_events(*, game: Game) -> list[list[dict]]:
    """The events of the last accepted moves, newest last, for the "what just happened" list:
    kept with the game (`Game.recent_events`, written by every move), so no moves are read."""
    return list(game.recent_events or [])


def seat_moves(*, game: Game, seat: Seat, accepted_only: bool = False,
               last_only: bool = False) -> list[SeatMove]:
    """A player's own recorded attempts in a game, oldest first (or only the latest), as the
    game's hooks read them (a mental-maths answer's feedback)."""
    moves = Move.objects.filter(game=game, seat=seat)
    if accepted_only:
        moves = moves.filter(accepted=True)
    rows = moves.order_by("-sequence" if last_only else "sequence").values_list(
        "accepted", "error_code", "analysis", "answer")
    return [SeatMove(accepted=a, error_code=e or "", analysis=an or {}, answer=ans)
            for a, e, an, ans in (rows[:1] if last_only else rows)]


def seat_move_facts(*, game: Game, seat: Seat, skills: GameSkills | None) -> list[MoveFacts]:
    """A player's own attempts in a game, oldest first, as the skill evidence reads them
    (games/engine/evidence.py), with the analysis cut down the way the reports load it. A game
    whose measures read whole games (`skills.needs_events`) gets every move with its events;
    only this seat's moves carry an analysis, as only a student's do in the reports."""
    keys = skills.analysis_keys if skills else ("kind",)
    moves = Move.objects.filter(game=game)
    events = bool(skills and skills.needs_events)
    if not events:
        moves = moves.filter(seat=seat)
    rows = moves.order_by("sequence").values_list(
        "id", "seat_id", "version_before", "accepted", "error_code", "analysis", "think_ms", "created_at",
        *(("events",) if events else ()))
    return [MoveFacts(id=row[0], seat_id=row[1], version_before=row[2], accepted=row[3], error_code=row[4],
                      analysis=analysis_read(row[5], keys) if row[1] == seat.pk else None,
                      events=row[8] if events else None, think_ms=row[6], played_at=row[7])
            for row in rows]


def accepted_moves(*, game: Game) -> list[Move]:
    return list(game.moves.filter(accepted=True).select_related("seat").order_by("sequence"))


def game_state_at(*, game: Game, turn: int, moves: list[Move] | None = None) -> dict:
    """The state after `turn` accepted moves, rebuilt from the seed and the recorded actions
    (engines are deterministic, so this is exactly the state the players saw)."""
    engine = registry.spec_for(game.key).engine
    names = [seat.name for seat in game.seats.all()]
    state = engine.new_game(names, game.options, game.seed)
    for move in (moves if moves is not None else accepted_moves(game=game))[:turn]:
        state, _ = engine.apply(state, move.seat.name, move.action)
    return state


def position_verdicts(*, game: Game, turn: int, student) -> list:
    """What the apps above games say about the decisions made from the position after `turn`
    moves (games/signals.py `replay_position`; the skill reports: each counted decision,
    explained). `student`: the student looking, who is told only of their own decisions;
    None for a teacher. A failing receiver is logged and leaves the replay as it was."""
    found = []
    for receiver, answer in replay_position.send_robust(sender=Game, game=game, turn=turn, student=student):
        if isinstance(answer, Exception):
            log.error("replay_position receiver %r failed", receiver, exc_info=answer)
        else:
            found.extend(answer or ())
    return found
