"""The arena's heartbeat: the ticker that runs the pairing rounds.

Every ARENA_TICK_SECONDS it asks the database which live arenas are due a round (none since
ARENA_ROUND_SECONDS) and runs one for each (arena/services/rounds.py). Any number of tickers
may run: a round holds its arena's row lock and re-checks that it is due, so each arena gets
one round at a time however many are up. Production runs it in a process of its own
(`manage.py arena_ticker`, the Procfile's `arena`) with ARENA_TICKER=0 for the web processes:
a round's burst of dealing and rendering would otherwise hold a web process's GIL while its
moves wait (docs/arena.md has the figures). With ARENA_TICKER=1 (the default: `make run`, one
process) it is a daemon thread of each web process, started by config/asgi.py. Not Celery
beat: `make run` without Redis has no beat, and beat is a single process whose loss would stop
every arena; with the rounds' lock, losing a ticker or a web process loses nothing.

Off in the test settings: tests run rounds themselves; the browser tests' server switches it on.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from arena.services.rounds import arena_round, live_arena_ids, round_seconds

log = logging.getLogger(__name__)

_started = threading.Lock()
_thread: threading.Thread | None = None


def tick() -> int:
    """One pass: a round for each arena due one. Returns how many rounds ran here."""
    due = timezone.now() - timedelta(seconds=round_seconds() * 0.9)
    ran = 0
    for arena_id in live_arena_ids(due_before=due):
        try:
            ran += arena_round(arena_id=arena_id) is not None
        except Exception:  # noqa: BLE001 - one arena's failure must not stop the others
            log.exception("arena %s: the pairing round failed; the next tick tries again", arena_id)
    return ran


def run_forever() -> None:
    """Tick until the process ends (the thread's body; `manage.py arena_ticker` runs it in the
    foreground)."""
    pause = float(getattr(settings, "ARENA_TICK_SECONDS", 0.5))
    while True:
        try:
            tick()
        except Exception:  # noqa: BLE001 - the database away for a moment: try again
            log.exception("arena ticker: a tick failed")
            # A broken connection (PostgreSQL restarted) is dropped; the next tick opens a new
            # one. Otherwise the ticker keeps its one connection: opening one twice a second
            # would cost more than the tick's query.
            connection.close()
        time.sleep(pause)


def start() -> bool:
    """Start this process's ticker once (True if it started now)."""
    global _thread
    with _started:
        if _thread is not None or not getattr(settings, "ARENA_TICKER", False):
            return False
        _thread = threading.Thread(target=run_forever, name="arena-ticker", daemon=True)
        _thread.start()
        return True
