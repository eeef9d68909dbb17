"""Two submissions for one game at once (PostgreSQL's row locks; SQLite serialises whole
transactions instead). The second waits for the first's lock on the game; once it has it, it
must see everything the first wrote, even when the first was a refused move that wrote a move
but left the game's row as it was: its number, and its idempotency key. Otherwise the second
move takes a number already used, or records a repeated key, and the database refuses it with
an error instead of the child's move being applied or answered as a repeat.

The first transaction is held open until the second is seen waiting for the lock in
PostgreSQL's own activity view, so the two overlap for certain."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from games import registry
from games.models import Game, Move
from games.services import SeatSpec, game_apply_move, game_create
from tests.conftest import need

pytestmark = pytest.mark.django_db(transaction=True)

REFUSED = {"type": "discard", "card": 9999, "declare": [1, 1]}


def waiting_for_a_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND wait_event_type = 'Lock'")
        return cursor.fetchone()[0]


def overlapping(first, second) -> tuple:
    """Run `first()` in a transaction held open until `second()`, in another thread, waits for
    a lock; then commit it and return both results."""
    results: dict = {}
    errors: list = []
    first_done = threading.Event()
    release = threading.Event()

    def run_first():
        try:
            with transaction.atomic():
                results["first"] = first()
                first_done.set()
                release.wait(10)
        except Exception as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
            first_done.set()
        finally:
            connection.close()

    def run_second():
        try:
            results["second"] = second()
        except Exception as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
        finally:
            connection.close()

    one = threading.Thread(target=run_first)
    one.start()
    assert first_done.wait(10)
    two = threading.Thread(target=run_second)
    two.start()
    deadline = time.monotonic() + 10
    while not waiting_for_a_lock() and time.monotonic() < deadline and two.is_alive():
        time.sleep(0.01)  # polling PostgreSQL's view of the second thread, not a guess
    assert two.is_alive(), "the second move did not wait for the first's lock"
    release.set()
    one.join(10), two.join(10)
    assert not errors, errors
    return results["first"], results["second"]


@pytest.fixture
def table(classroom, student, ben):
    need(connection.vendor == "postgresql", "row locks need PostgreSQL (DATABASE_URL)")
    game = game_create(key="multiplication", classroom=classroom, seed=5, options={"hand_size": 5},
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)])
    name = registry.spec_for(game.key).engine.waiting_for(game.state)[0]
    seat = game.seats.get(name=name)
    return game, seat


def test_a_move_that_waited_for_a_refused_move_takes_the_next_number(table):
    game, seat = table

    def send(action, key):
        return lambda: game_apply_move(game_id=game.pk, seat=seat, action=action, expected_version=0,
                                       idempotency_key=key, player_id=seat.user_id)

    refused, applied = overlapping(send(REFUSED, "tap-1"), send({"type": "draw"}, "tap-2"))
    assert refused.status == "rejected" and applied.status == "applied"
    assert list(Move.objects.filter(game=game).order_by("sequence").values_list("sequence", "accepted")) == [
        (0, False), (1, True)]
    assert Game.objects.get(pk=game.pk).version == 1


def test_a_repeated_key_that_waited_for_its_first_copy_is_answered_as_a_repeat(table):
    game, seat = table

    def send():
        return game_apply_move(game_id=game.pk, seat=seat, action=REFUSED, expected_version=0,
                               idempotency_key="double-tap", player_id=seat.user_id)

    first, second = overlapping(send, send)
    assert first.status == "rejected" and second.status == "duplicate"
    assert Move.objects.filter(game=game).count() == 1
