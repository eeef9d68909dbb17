"""Game writes. Every move — a student's or a bot's — goes through `game_apply_move`.

Locking: `game_apply_move` takes `select_for_update` on the game row for the whole
check-apply-record sequence, so two submissions for one game are serialised; the second
sees the new version and is answered "stale" (or "duplicate" if it repeats an idempotency
key) and is never applied. The move and the new state are written in the same transaction,
and what the change sets off (the push to the table's pages, the computer players' turn, the
ratings and the skill report of a finished game) is registered with `transaction.on_commit`
(games/services/after_commit.py), so nobody is ever told about a move that was rolled back; a
step that fails after commit is logged and does not undo or hide the committed change.
"""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.student_classes import is_in_class
from games import registry
from games.engine import IllegalMove
from games.engine.evidence import FLOOD

from games.models import RECENT_EVENTS, Game, Move, Seat
from games.ratings import JUST_RIGHT

from . import move_store
from .after_commit import (announce_on_commit, bots_on_commit, class_games_changed_on_commit,
                           finished_on_commit)
from .analysis import move_analysis
from .ratings import just_right_level

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SeatSpec:
    name: str
    user: Any = None
    bot_level: str = ""


@dataclass(frozen=True)
class MoveResult:
    """What happened to one submission. `status`: applied, rejected, duplicate, stale, or
    forbidden (the sender no longer holds the seat)."""

    status: str
    game: Game
    move: Move | None = None
    code: str = ""
    message: str = ""
    events: list = field(default_factory=list)

    @property
    def applied(self) -> bool:
        return self.status == "applied"


SEED_BITS = 63  # Game.seed is a signed 64-bit BigIntegerField


def new_seed() -> int:
    """The seed of a new deal: 63 bits from the operating system's CSPRNG (`secrets`).

    Never the clock, and never a small number: a child who knows their own hand must not be
    able to search the seeds (a clock reading, or all 2**31) for the one that deals it and so
    learn every other hand and the deck. Every game a person starts gets one (game_create
    without a seed, table_open); only devtools and tests pass fixed seeds."""
    return secrets.randbits(SEED_BITS)


REDEALS = 20  # a deal over at once is dealt again this many times at most


def deal(engine, names: list[str], options: dict | None, seed: int | None = None) -> tuple[dict, int]:
    """The first state of a new game and the seed it was dealt from.

    A deal that is over before anybody has moved is dealt again, as players would shuffle
    again: Numero Solitaire ends as soon as no take is possible, and about one deal in twelve
    allows none, which showed a child "You won!" with nothing played. Each deal is one the
    rules allow, so nothing in the rules changes; the seed kept is the one dealt, so a replay
    rebuilds the same game. Without `seed` every deal is unpredictable (`new_seed`); from a
    given seed (devtools, tests, a table's stored seed) the next seeds follow from it."""
    fixed = seed is not None
    seed = new_seed() if seed is None else seed
    state = engine.new_game(list(names), options or {}, seed)
    for _ in range(REDEALS):
        if not state.get("finished"):
            break
        seed = (seed + 1) % (1 << SEED_BITS) if fixed else new_seed()
        state = engine.new_game(list(names), options or {}, seed)
    return state, seed


def game_create(*, key: str, classroom, seats: list[SeatSpec], options: dict | None = None,
                seed: int | None = None, assignment=None, created_by=None,
                series_url: str = "", forfeit_on_leave: bool = False,
                announce: bool = True) -> Game:
    """Create a game with every seat filled and deal it (raises BadScenario for bad options).
    Without `seed` the deal is unpredictable (`new_seed`); devtools and tests pass their own.
    A deal over before anyone moved is dealt again (`deal`). `series_url`, `forfeit_on_leave`:
    a game of a series (Game's fields say what they do). `announce=False`: no page of the
    table is open yet (an arena seats hundreds at once and sends each player to their table
    itself), so no views are rendered and pushed; the computer players are still woken."""
    engine = registry.spec_for(key).engine
    state, seed = deal(engine, [s.name for s in seats], options, seed)
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.create(
            key=key, options=state["options"], seed=seed, state=state, version=0,
            status=Game.Status.ACTIVE, classroom=classroom, assignment=assignment,
            created_by=created_by, started_at=now, turn_started_at=now,
            series_url=series_url, forfeit_on_leave=forfeit_on_leave,
        )
        Seat.objects.bulk_create([
            Seat(game=game, position=i, user=s.user, bot_level=s.bot_level, name=s.name)
            for i, s in enumerate(seats)
        ])
        if state.get("finished"):  # every re-deal was over at once too: record it as played
            game.status, game.finished_at = Game.Status.FINISHED, now
            game.save(update_fields=["status", "finished_at", "updated_at"])
            _record_results(game, engine, state)
            finished_on_commit(game_id=game.pk)
        if announce:
            announce_on_commit(game_id=game.pk)
        elif any(s.bot_level for s in seats):
            bots_on_commit(game_id=game.pk)
        class_games_changed_on_commit(game=game)
    return game


NOT_YOURS = "You are no longer playing at this table."


def game_apply_move(*, game_id: int, seat: Seat, action: Any, expected_version: int,
                    idempotency_key: str = "", answer: int | None = None,
                    schedule_bots: bool = True, player_id: int | None = None) -> MoveResult:
    """Validate and apply one decision of `seat`, recording it whether accepted or not.

    `player_id`: the user sending the move (a page's socket). The seat must still be theirs
    and they still active, checked in the database under the game's lock at every move (from
    the seats the push needs anyway); otherwise nothing is recorded and the status is
    "forbidden". Bots' moves pass no player."""
    with transaction.atomic():
        # One statement locks the game; a second, under the lock, reads the seats (the sender's
        # right to play, and the push after commit, need them), the last move's number and
        # whether this key was received before (move_store.py says why not in the first).
        game, seats = move_store.lock_game(game_id=game_id, idempotency_key=idempotency_key)
        if player_id is not None and not _holds(seats, seat_id=seat.pk, player_id=player_id):
            return MoveResult("forbidden", game, None, "forbidden", NOT_YOURS)
        if idempotency_key and game.received:
            earlier = Move.objects.filter(game=game, idempotency_key=idempotency_key).first()
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
        spec = registry.spec_for(game.key)
        engine = spec.engine
        now = timezone.now()
        move = Move(
            game=game, seat=seat, sequence=_next_sequence(game.last_sequence),
            version_before=game.version,
            action=action,
            analysis=move_analysis(spec, game.state, seat.name, action),
            think_ms=_think_ms(game, now), answer=answer, idempotency_key=idempotency_key,
        )
        try:
            state, events = engine.apply(game.state, seat.name, action)
        except IllegalMove as exc:
            move.accepted, move.error_code = False, exc.code
            move_store.insert(move)
            return MoveResult("rejected", game, move, exc.code, exc.message)
        move.accepted, move.events = True, events
        move_store.insert(move)
        # Registered before _store_state's finish hooks, so it runs first after commit: the
        # players see a game's last move at once, not after its ratings, its skill report's
        # queueing and (in an arena) its count. It renders from `game` and `seats` as
        # _store_state leaves them (the same objects), so the push shows the finished game.
        announce_on_commit(game_id=game_id, schedule_bots=schedule_bots, by_seat_id=seat.pk,
                           game=game, seats=seats)
        _store_state(game, engine, state, now, events=events, seats=seats)
    return MoveResult("applied", game, move, events=events)


def moves_set_aside_flood(*, user_id: int, since_seconds: float) -> int:
    """Mark the refused moves `user_id` sent in the last `since_seconds` as a flood (error code
    FLOOD), so they never become skill evidence (games/engine/evidence.py); called when their
    moves went over the per-person limit (live/limits.py). Accepted moves are left
    alone: the rules allowed them, and games are replayed from them. The engine's own refusal
    is not kept: what matters of a flood is that it was one. Returns how many were marked."""
    since = timezone.now() - timedelta(seconds=since_seconds)
    return (Move.objects.filter(seat__user_id=user_id, accepted=False, created_at__gte=since)
            .exclude(error_code=FLOOD).update(error_code=FLOOD))


def _holds(seats: list[Seat], *, seat_id: int, player_id: int) -> bool:
    """The sender still holds the seat they play from, and their account is still active."""
    return any(s.pk == seat_id and s.user_id == player_id and s.holder_active for s in seats)


def _next_sequence(last: int | None) -> int:
    return 0 if last is None else last + 1


def _think_ms(game: Game, now) -> int | None:
    if game.turn_started_at is None:
        return None
    return max(0, int((now - game.turn_started_at).total_seconds() * 1000))


def _store_state(game: Game, engine, state: dict, now, *, events: list, seats: list[Seat]) -> None:
    game.state = state
    game.version += 1
    game.turn_started_at = now
    game.recent_events = (list(game.recent_events or []) + [events])[-RECENT_EVENTS:]
    fields = ["state", "version", "turn_started_at", "recent_events", "updated_at"]
    if state.get("finished"):
        game.status, game.finished_at = Game.Status.FINISHED, now
        fields += ["status", "finished_at"]
        _record_results(game, engine, state, seats)
        finished_on_commit(game_id=game.pk)  # the ratings, then the skill report
        class_games_changed_on_commit(game=game)  # "playing now" at once, before the report is ready
    move_store.update(game, fields)


def _record_results(game: Game, engine, state: dict, seats: list[Seat] | None = None) -> None:
    winners = set(engine.summary(state)["winners"])
    scores = engine.scores(state)
    for seat in (game.seats.all() if seats is None else seats):
        seat.is_winner = seat.name in winners
        seat.score = scores.get(seat.name)
        seat.save(update_fields=["is_winner", "score"])


BOT_NAMES = ("Robo", "Zip", "Bolt", "Pixel", "Nova")


def bot_seats(*, count: int, level: str, avoid: set[str]) -> list[SeatSpec]:
    names = [n for n in BOT_NAMES if n not in avoid][:count]
    return [SeatSpec(name, bot_level=level) for name in names]


def game_in_progress_for_assignment(*, assignment, student) -> Game | None:
    return (Game.objects.filter(assignment=assignment, status=Game.Status.ACTIVE, seats__user=student)
            .order_by("-created_at").first())


def _one_start_at_a_time(student) -> None:
    """Lock the student's row until the transaction ends: two presses of a Play button (a
    double tap, a form sent twice) are served one after the other, so the second sees the
    game the first dealt instead of dealing another. (SQLite has no row locks, but it writes
    one transaction at a time.)"""
    User.objects.select_for_update().filter(pk=student.pk).exists()


def game_start_for_assignment(*, assignment, student, seed: int | None = None) -> Game:
    """A game against computer players as the assignment sets it (game, options, level, how
    many); an unfinished one is resumed instead of starting another. A "just right"
    assignment's computer players are mixed bots tuned to the student's rating now
    (games/ratings.py: an even chance of winning). Without `seed` the deal is unpredictable
    (`new_seed`); devtools and tests pass their own."""
    with transaction.atomic():
        _one_start_at_a_time(student)
        running = game_in_progress_for_assignment(assignment=assignment, student=student)
        if running is not None:
            return running
        me = SeatSpec(student.display_name, user=student)
        level = assignment.bot_level
        if level == JUST_RIGHT:
            level = just_right_level(student=student, key=assignment.game, bots=assignment.bot_count)
        seats = [me] + bot_seats(count=assignment.bot_count, level=level, avoid={me.name})
        return game_create(key=assignment.game, classroom=assignment.classroom, seats=seats,
                           options=assignment.options, assignment=assignment, created_by=student,
                           seed=seed)


def game_deal_again(*, student, old: Game, seats: list[SeatSpec]) -> Game:
    """"Play again" after `old`: its game, options and assignment, with `seats`. Idempotent as
    Play is: pressed twice (or the form sent twice) after a game ended, it deals one game, the
    one dealt since the end that the student has not moved in yet."""
    with transaction.atomic():
        _one_start_at_a_time(student)
        if old.finished_at is not None:
            waiting = (Game.objects.filter(key=old.key, classroom=old.classroom, assignment=old.assignment,
                                           created_by=student, status=Game.Status.ACTIVE, seats__user=student,
                                           created_at__gte=old.finished_at)
                       .exclude(moves__seat__user=student).order_by("-created_at").first())
            if waiting is not None:
                return waiting
        return game_create(key=old.key, classroom=old.classroom, seats=seats, options=old.options,
                           assignment=old.assignment, created_by=student)


@dataclass(frozen=True)
class FreePlay:
    """The game a free-play Play leads to; `waiting`: one the student had already been dealt
    and not moved in yet, rather than a new deal."""

    game: Game
    waiting: bool = False

    @property
    def from_before(self) -> bool:
        """A waiting game dealt more than a few seconds ago (not the same press sent twice):
        worth telling the child that this is the game they started before."""
        return self.waiting and (timezone.now() - self.game.created_at).total_seconds() > 10


def free_play_start(*, student, classroom, key: str, level: str) -> FreePlay:
    """A free-play game of `key` against the game's computer players of `level`, in
    `classroom` (the class the student is working in: accounts/student_classes.py; it must be
    one of theirs).

    Idempotent: pressing Play twice (a double tap, or Back and Play again) deals one game. A
    free-play game of the same game and level that the student has been dealt but has not
    moved in yet is the one they get; what a child expects of "Play" is the game they just
    asked for, not a second copy of it. A game they have moved in stays theirs to carry on,
    and Play deals a fresh one beside it."""
    spec = registry.spec_for(key)
    if not is_in_class(student=student, classroom_id=getattr(classroom, "pk", None)):
        raise ValueError("free play is only in a class the student is in")
    with transaction.atomic():
        _one_start_at_a_time(student)
        dealt = (Game.objects.filter(key=key, classroom=classroom, assignment=None,
                                     series_url="", table_code="", created_by=student,
                                     status=Game.Status.ACTIVE, seats__user=student)
                 .exclude(moves__seat__user=student).prefetch_related("seats").order_by("-created_at"))
        for game in dealt[:5]:
            others = [s.bot_level for s in game.seats.all() if s.user_id != student.pk]
            if others == [level] * spec.free_play_bots:  # the same opponents as asked for
                return FreePlay(game, waiting=True)
        me = SeatSpec(student.display_name, user=student)
        seats = [me] + bot_seats(count=spec.free_play_bots, level=level, avoid={me.name})
        return FreePlay(game_create(key=key, classroom=classroom, seats=seats,
                                    options=dict(spec.free_play_options), created_by=student))
