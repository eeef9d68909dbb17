"""Game writes. Every move — a student's or a bot's — goes through `game_apply_move`.

Locking: `game_apply_move` takes `select_for_update` on the game row for the whole
check-apply-record sequence, so two submissions for one game are serialised; the second
sees the new version and is answered "stale" (or "duplicate" if it repeats an idempotency
key) and is never applied. The move and the new state are written in the same transaction,
and the broadcast and bot scheduling happen only after commit (`transaction.on_commit`), so
nobody is ever told about a move that was rolled back.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games import engine as engines
from games.engine import IllegalMove

from .models import Game, Move, Seat

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SeatSpec:
    name: str
    user: Any = None
    bot_level: str = ""


@dataclass(frozen=True)
class MoveResult:
    """What happened to one submission. `status`: applied, rejected, duplicate or stale."""

    status: str
    game: Game
    move: Move | None = None
    code: str = ""
    message: str = ""
    events: list = field(default_factory=list)

    @property
    def applied(self) -> bool:
        return self.status == "applied"


def game_create(*, key: str, classroom, seats: list[SeatSpec], options: dict | None = None,
                seed: int | None = None, assignment=None, created_by=None) -> Game:
    """Create a game with every seat filled and deal it (raises BadScenario for bad options)."""
    engine = engines.get(key)
    seed = int(timezone.now().timestamp() * 1000) % 2**31 if seed is None else seed
    state = engine.new_game([s.name for s in seats], options or {}, seed)
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.create(
            key=key, options=state["options"], seed=seed, state=state, version=0,
            status=Game.Status.ACTIVE, classroom=classroom, assignment=assignment,
            created_by=created_by, started_at=now, turn_started_at=now,
        )
        Seat.objects.bulk_create([
            Seat(game=game, position=i, user=s.user, bot_level=s.bot_level, name=s.name)
            for i, s in enumerate(seats)
        ])
        transaction.on_commit(lambda: after_change(game_id=game.pk))
        class_games_changed(game=game)
    return game


def class_games_changed(*, game: Game) -> None:
    """A game of a class started, finished or closed: once that commits, the class's open
    teacher dashboards re-read who is playing now (moves in between are not announced)."""
    classroom_id = game.classroom_id
    if classroom_id is None:
        return
    from classroom.reports.realtime import broadcast_dashboard_changed  # late: app registry

    transaction.on_commit(lambda: broadcast_dashboard_changed(classroom_id=classroom_id), robust=True)


def game_apply_move(*, game_id: int, seat: Seat, action: Any, expected_version: int,
                    idempotency_key: str = "", answer: int | None = None,
                    schedule_bots: bool = True) -> MoveResult:
    """Validate and apply one decision of `seat`, recording it whether accepted or not."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if idempotency_key:
            earlier = Move.objects.filter(game=game, idempotency_key=idempotency_key).first()
            if earlier is not None:
                return MoveResult("duplicate", game, earlier, earlier.error_code,
                                  "That move was already received.")
        if game.status in (Game.Status.LOBBY, Game.Status.ABANDONED):
            # A table still in its lobby has no cards yet, and a stopped one takes no more
            # moves. Nothing is recorded: there was no decision to make. (A finished game's
            # engine answers `game_over` itself, and that attempt is recorded.)
            message = ("The game has not started yet." if game.status == Game.Status.LOBBY
                       else "This game was stopped.")
            return MoveResult("rejected", game, None, "not_active", message)
        if game.version != expected_version:
            return MoveResult("stale", game, None, "stale",
                              "The game moved on before your move arrived. Here is the latest.")
        engine = engines.get(game.key)
        now = timezone.now()
        move = Move(
            game=game, seat=seat, sequence=_next_sequence(game), version_before=game.version,
            action=action,
            analysis=_analyse(engine, game.state, seat.name, action),
            think_ms=_think_ms(game, now), answer=answer, idempotency_key=idempotency_key,
        )
        try:
            state, events = engine.apply(game.state, seat.name, action)
        except IllegalMove as exc:
            move.accepted, move.error_code = False, exc.code
            move.save()
            return MoveResult("rejected", game, move, exc.code, exc.message)
        move.accepted, move.events = True, events
        move.save()
        _store_state(game, engine, state, now)
        version = game.version
        transaction.on_commit(lambda: after_change(game_id=game_id, version=version,
                                                   schedule_bots=schedule_bots))
    return MoveResult("applied", game, move, events=events)


def _next_sequence(game: Game) -> int:
    last = Move.objects.filter(game=game).aggregate(last=Max("sequence"))["last"]
    return 0 if last is None else last + 1


def _think_ms(game: Game, now) -> int | None:
    if game.turn_started_at is None:
        return None
    return max(0, int((now - game.turn_started_at).total_seconds() * 1000))


def _analyse(engine, state: dict, player: str, action: Any) -> dict:
    """Skill facts for the decision. Analysis must never block play: a malformed action has
    nothing to analyse, and a failure is logged rather than refusing the move."""
    if not isinstance(action, dict):
        return {}
    try:
        return engine.analyse(state, player, action)
    except IllegalMove:
        return {}
    except Exception:  # noqa: BLE001 - logged, and the move itself is still judged by apply()
        log.exception("analyse failed for %s", engine.key)
        return {"analysis_error": True}


def _store_state(game: Game, engine, state: dict, now) -> None:
    game.state = state
    game.version += 1
    game.turn_started_at = now
    fields = ["state", "version", "turn_started_at", "updated_at"]
    if state.get("finished"):
        game.status, game.finished_at = Game.Status.FINISHED, now
        fields += ["status", "finished_at"]
        _record_results(game, engine, state)
        from classroom.reports.services import game_finished_queue  # late: app registry

        game_finished_queue(game_id=game.pk)  # the skill report, once this commits
        class_games_changed(game=game)  # "playing now" at once, before the report is ready
    game.save(update_fields=fields)


def _record_results(game: Game, engine, state: dict) -> None:
    winners = set(engine.summary(state)["winners"])
    scores = engine.scores(state)
    for seat in game.seats.all():
        seat.is_winner = seat.name in winners
        seat.score = scores.get(seat.name)
        seat.save(update_fields=["is_winner", "score"])


def after_change(*, game_id: int, version: int | None = None, schedule_bots: bool = True) -> None:
    """Runs after commit: tell the table, then let any bot whose turn it is play."""
    from . import realtime, tasks  # late imports: both need the app registry

    realtime.broadcast_game_changed(game_id=game_id)
    if schedule_bots:
        tasks.schedule_bot_moves(game_id=game_id)


BOT_NAMES = ("Robo", "Zip", "Bolt", "Pixel", "Nova")


def bot_seats(*, count: int, level: str, avoid: set[str]) -> list[SeatSpec]:
    names = [n for n in BOT_NAMES if n not in avoid][:count]
    return [SeatSpec(name, bot_level=level) for name in names]


def game_in_progress_for_assignment(*, assignment, student) -> Game | None:
    return (Game.objects.filter(assignment=assignment, status=Game.Status.ACTIVE, seats__user=student)
            .order_by("-created_at").first())


def game_start_for_assignment(*, assignment, student) -> Game:
    """A game against computer players as the assignment sets it (game, options, level, how
    many); an unfinished one is resumed instead of starting another."""
    running = game_in_progress_for_assignment(assignment=assignment, student=student)
    if running is not None:
        return running
    me = SeatSpec(student.display_name, user=student)
    seats = [me] + bot_seats(count=assignment.bot_count, level=assignment.bot_level, avoid={me.name})
    return game_create(key=assignment.game, classroom=assignment.classroom, seats=seats,
                       options=assignment.options, assignment=assignment, created_by=student)
