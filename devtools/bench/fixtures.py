"""The bench's data: its own PostgreSQL database and Redis db, N students with sessions, N/2
two-player games with known seeds. Runs in the bench process, before the clients start.

Everything here writes only to the bench's own database (`nd_bench` by default), which is
flushed on every run, so a run never sees another run's games.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from dataclasses import asdict, dataclass
from urllib.parse import urlparse

import django
import psycopg
import redis

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repo


def server_env(*, db: str, redis_db: int, debug: bool = False) -> dict[str, str]:
    """The environment of the bench and of its Daphne processes: production settings with
    DEBUG off, the bench's database and Redis db, and plain HTTP on 127.0.0.1."""
    env = dict(os.environ)
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{db}",
        "REDIS_URL": f"redis://127.0.0.1:6379/{redis_db}",
        "SECRET_KEY": env.get("BENCH_SECRET_KEY") or "bench-" + secrets.token_hex(24),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",  # plain HTTP on localhost; WebSockets are not redirected anyway
        "LOG_LEVEL": "WARNING",
        "WS_ECHO": "1",  # the floor: the echo socket on the same servers
        "DEBUG": "1" if debug else "0",
        "PYTHONPATH": ROOT + os.pathsep + env.get("PYTHONPATH", ""),
    })
    return env


def ensure_database(url: str) -> None:
    """Create the bench's PostgreSQL database if it does not exist yet."""
    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            conn.execute(f'CREATE DATABASE "{name}"')


def flush_redis(url: str) -> None:
    redis.Redis.from_url(url).flushdb()


@dataclass(frozen=True)
class Player:
    user_id: int
    name: str
    session_key: str


@dataclass(frozen=True)
class BenchGame:
    game_id: int
    key: str
    seed: int
    options: dict
    state: dict  # the state the server dealt, to check the local replica against
    players: tuple[Player, Player]


def setup_django() -> None:
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    django.setup()


def prepare(*, players: int, game_key: str, seed: int, options: dict) -> list[BenchGame]:
    """Migrate and flush the bench database, then create a class, `players` students, one
    session each (as if each had signed in) and players/2 two-player games."""
    # Imported here, after `setup_django()`: models cannot be imported before the apps are
    # loaded, and the bench's client process (which imports this module too) never loads them.
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from accounts.models import Membership, User
    from accounts.services import teacher_sign_up
    from classroom.models import Classroom
    from games.services import SeatSpec, game_create

    call_command("migrate", interactive=False, verbosity=0)
    call_command("flush", interactive=False, verbosity=0)

    teacher = teacher_sign_up(name="Bench Teacher", email="bench@school.test", password="bench-pass-1234")
    classroom = Classroom.objects.create(name="Bench class", owner=teacher, join_code="BENCH2")
    classroom.teachers.add(teacher)
    students = []
    for i in range(players):
        student = User(username=f"bench-{i:05d}", display_name=f"Kid {i:03d}",
                       role=User.Role.STUDENT, picture_password="cat,sun,tree")
        student.set_unusable_password()
        students.append(student)
    students = User.objects.bulk_create(students)
    Membership.objects.bulk_create([Membership(student=s, classroom=classroom) for s in students])
    backend = "django.contrib.auth.backends.ModelBackend"
    sessions = []
    for student in students:
        store = SessionStore()
        store[SESSION_KEY] = str(student.pk)
        store[BACKEND_SESSION_KEY] = backend
        store[HASH_SESSION_KEY] = student.get_session_auth_hash()
        store.create()
        sessions.append(Player(student.pk, student.display_name, store.session_key))

    games = []
    for g in range(players // 2):
        a, b = sessions[2 * g], sessions[2 * g + 1]
        game = game_create(key=game_key, classroom=classroom, seed=seed + g, options=options,
                           seats=[SeatSpec(a.name, user=students[2 * g]),
                                  SeatSpec(b.name, user=students[2 * g + 1])])
        games.append(BenchGame(game.pk, game_key, seed + g, dict(options), game.state, (a, b)))
    return games


def main() -> None:
    """`python devtools/bench/fixtures.py PLAYERS GAME SEED OPTIONS_JSON`: prepare, print the games as
    JSON. A process of its own because Django's apps import Autobahn for Twisted (Daphne),
    while the bench's clients use Autobahn for asyncio, and one process can hold only one."""
    players, game_key, seed, options = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    setup_django()
    games = prepare(players=int(players), game_key=game_key, seed=int(seed), options=json.loads(options))
    json.dump([asdict(g) for g in games], sys.stdout)


def load(text: str) -> list[BenchGame]:
    return [BenchGame(g["game_id"], g["key"], g["seed"], g["options"], g["state"],
                      tuple(Player(**p) for p in g["players"])) for g in json.loads(text)]


if __name__ == "__main__":
    main()
