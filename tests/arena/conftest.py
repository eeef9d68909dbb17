"""Fixtures for the arena's services: a class of named students, an arena factory that starts
an arena with them waiting, and the two honest ways a seated game ends.

- `play_to_end`: the real game, every seat (students' too) deciding with the bots' move chooser
  (games/engine: `make_bot(...).choose(view)`) through `games.services.moves.game_apply_move`,
  until the engine says it is over. What a finished arena game is, end to end.
- `finish_game`: for tests that need a chosen outcome (a win for Ann, a draw). It marks the
  Game FINISHED with the seats' `is_winner` and `score` set exactly as
  games/services/moves.py `_store_state` + `_record_results` do, and sends nothing: the test
  then sends `games.signals.game_finished` (as `finished_on_commit` would once committed), calls
  `arena.services.count_table`, or lets a round find it (a signal lost with a restart).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from arena.models import Arena, ArenaGame, ArenaPlayer
from arena.services.counting import count_table
from arena.services.lifecycle import arena_create, arena_join, arena_start
from games import engine as engines
from games.models import Game
from games.services import game_apply_move
from games.signals import game_finished

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Leo",
         "Mia", "Ned", "Oli", "Pam", "Quin", "Rex", "Sam", "Tia", "Uma", "Vic", "Wes", "Xan"]
FAST = {"target": 200}  # Smooth Operator to 200: a short real game


@pytest.fixture
def make_students(make_student, classroom):
    """`make_students(4)`: that many students of the class, named Ann, Ben, Cat, Dan..."""
    made: list[User] = []

    def make(n: int) -> list[User]:
        start = len(made)
        for name in NAMES[start:start + n]:
            made.append(make_student(classroom, name, ("cat", "sun", "tree")))
        return made[start:start + n]

    return make


@pytest.fixture
def make_arena(teacher, classroom):
    """`make_arena(students, key=..., options=..., started=True)`: the teacher's arena with
    these students joined (waiting), started unless `started=False`."""

    def make(students, *, key: str = "smooth_operator", options: dict | None = None,
             table_size: int | None = None, minutes: int = 10, started: bool = True) -> Arena:
        arena = arena_create(teacher=teacher, classroom=classroom, title="Friday arena", key=key,
                             options=FAST if options is None and key == "smooth_operator"
                             else dict(options or {}),
                             minutes=minutes, mode=Arena.Mode.POINTS, table_size=table_size)
        for student in students:
            arena_join(student=student, arena_id=arena.pk)
        if started:
            arena_start(arena_id=arena.pk)
        arena.refresh_from_db()
        return arena

    return make


def later(seconds: float):
    """A moment `seconds` from now (the `now=` of a round)."""
    return timezone.now() + timedelta(seconds=seconds)


def player(arena: Arena, user: User) -> ArenaPlayer:
    return ArenaPlayer.objects.get(arena=arena, user=user)


def tables_of(arena: Arena) -> list[set[str]]:
    """Who sits at each of the arena's tables, by seat name, in the order they were dealt."""
    return [{s.name for s in t.game.seats.all()} for t in
            ArenaGame.objects.filter(arena=arena).select_related("game").order_by("id")]


def game_of(arena: Arena, user: User) -> Game:
    return Game.objects.get(pk=player(arena, user).game_id)


def finish_game(game: Game, *, winners=(), scores: dict[str, int] | None = None,
                signal: bool = False) -> Game:
    """Mark `game` FINISHED as `_store_state` + `_record_results` do: status, finished_at, the
    state's "finished", each seat's is_winner and score. `winners`: users or seat names (none:
    a draw). With `signal`, `game_finished` is sent as `finished_on_commit` sends it."""
    names = {w if isinstance(w, str) else w.display_name for w in winners}
    now = timezone.now()
    game.state = {**game.state, "finished": True}
    game.status, game.finished_at, game.version = Game.Status.FINISHED, now, game.version + 1
    game.save(update_fields=["state", "status", "finished_at", "version", "updated_at"])
    for seat in game.seats.all():
        seat.is_winner = seat.name in names
        seat.score = (scores or {}).get(seat.name, 0)
        seat.save(update_fields=["is_winner", "score"])
    if signal:
        game_finished.send_robust(sender=Game, game_id=game.pk)
    return game


def play_to_end(game: Game) -> Game:
    """Every seat decides with the bots' chooser, through the real move service, to the end."""
    engine = engines.get(game.key)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        name = engine.waiting_for(game.state)[0]
        seat = game.seats.get(name=name)
        action = engines.make_bot(game.key, "beginner", game.version).choose(
            engine.view(game.state, name))
        assert game_apply_move(game_id=game.pk, seat=seat, action=action,
                               expected_version=game.version, schedule_bots=False).applied
    raise AssertionError("the game did not finish")


def waiting_for_a_lock() -> int:
    """How many of the test database's sessions wait for a lock now (PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND wait_event_type = 'Lock'")
        return cursor.fetchone()[0]


def race_with_a_held_count(table_id: int, action: Callable[[], object]) -> list:
    """Count the table in one thread, holding its first lock (its ArenaGame row) open, while
    `action` runs in another until it waits for a lock (or ends); then let the count go on.
    Returns what either raised: both must go through, whichever waits (PostgreSQL cancels one
    of two that deadlock, with an error)."""
    counting_started, release = threading.Event(), threading.Event()
    errors: list = []

    def count_held_open() -> None:
        try:
            with transaction.atomic():
                ArenaGame.objects.select_for_update().get(pk=table_id)  # count_table's first lock
                counting_started.set()
                release.wait(10)
                count_table(table_id=table_id)
        except Exception as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
            counting_started.set()
        finally:
            connection.close()

    def act() -> None:
        try:
            action()
        except Exception as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
        finally:
            connection.close()

    counter = threading.Thread(target=count_held_open)
    counter.start()
    assert counting_started.wait(10)
    other = threading.Thread(target=act)
    other.start()
    deadline = time.monotonic() + 10
    while not waiting_for_a_lock() and time.monotonic() < deadline and other.is_alive():
        time.sleep(0.01)  # the action waits for a lock the count holds (or did not need one)
    release.set()
    counter.join(15), other.join(15)
    return errors
