"""Production runs the arena's pairing rounds in a process of their own (`manage.py
arena_ticker`, the Procfile's `arena`; docs/arena.md says why): that process, started as a
deployment starts it, seats students let into a running arena, and the web processes are told
not to run rounds themselves."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from arena.models import ArenaPlayer
from arena.services.lifecycle import arena_join, arena_let_in

from .conftest import player

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db(transaction=True)


def database_url() -> str:
    """The test database, for a process started beside the tests."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def test_the_ticker_process_seats_latecomers_let_into_a_running_arena(make_students, make_arena):
    ann, ben, cat, dan = make_students(4)
    arena = make_arena([ann, ben])
    late = [arena_join(student=s, arena_id=arena.pk).pk for s in (cat, dan)]
    arena_let_in(arena_id=arena.pk, player_ids=late)  # the teacher lets the latecomers in
    assert {player(arena, s).status for s in (cat, dan)} == {ArenaPlayer.Status.WAITING}
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "DATABASE_URL": database_url(),
           "ARENA_ROUND_SECONDS": "0.2", "ARENA_TICK_SECONDS": "0.1", "PYTHONUNBUFFERED": "1"}
    ticker = subprocess.Popen([sys.executable, "manage.py", "arena_ticker"], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and ticker.poll() is None:
            if {player(arena, s).status for s in (cat, dan)} == {ArenaPlayer.Status.PLAYING}:
                break
            time.sleep(0.2)
    finally:
        ticker.terminate()
        output, _ = ticker.communicate(timeout=30)
    assert player(arena, cat).game_id == player(arena, dan).game_id is not None, output
    assert "Arena ticker: running pairing rounds" in output


def test_production_runs_the_rounds_apart_from_the_web_processes():
    procfile = dict(line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line)
    assert procfile["arena"] == "python manage.py arena_ticker"
    assert procfile["web"].startswith("ARENA_TICKER=0 ")
    serve = (ROOT / "Makefile").read_text().split("\nserve:", 1)[1].split("\n\n", 1)[0]
    assert "manage.py arena_ticker &" in serve
    assert re.search(r"ARENA_TICKER=0 exec \S+/daphne", serve)
