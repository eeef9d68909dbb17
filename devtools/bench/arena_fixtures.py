"""The arena bench's data and its first pairing round, in a Django process of their own.

    python devtools/bench/arena_fixtures.py prepare PLAYERS CLASSES GAME OPTIONS_JSON MINUTES
    python devtools/bench/arena_fixtures.py first-round ARENA_ID

`prepare` migrates and flushes the bench database (`nd_bench`: never data anyone keeps), then
makes one teacher with CLASSES classes of PLAYERS/CLASSES students, a session for each (as if
signed in), an arena over every class, and has every student join it (`arena_join`, as the
join page does). It prints JSON: the arena, the teacher's session, the students' sessions.

`first-round` starts the arena (`arena_start`) and runs its first pairing round here
(`arena_round(force=True)`): all the students wait, so this is the largest round the arena
will run. The ticker threads of the web processes do not record what a round cost, so the
bench runs this one itself, before it starts the web processes (whose tickers would otherwise
race it for the round), and prints the round's `RoundReport` as JSON.

A process of its own, as devtools/bench/fixtures.py is: Django's apps import Autobahn for
Twisted (Daphne), the bench's clients Autobahn for asyncio, and one process holds only one.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict

import fixtures


def prepare(*, players: int, classes: int, key: str, options: dict, minutes: int) -> dict:
    # After `fixtures.setup_django()`: models cannot be imported before the apps are loaded,
    # and the bench's client process (which never loads them) imports nothing from here.
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from accounts.models import Membership, User
    from accounts.services import teacher_sign_up
    from arena.models import Arena
    from arena.services import arena_create, arena_join
    from classroom.models import Classroom

    call_command("migrate", interactive=False, verbosity=0)
    call_command("flush", interactive=False, verbosity=0)

    def session_for(user) -> str:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        return store.session_key

    teacher = teacher_sign_up(name="Bench Teacher", email="bench@school.test", password="bench-pass-1234")
    rooms = []
    for c in range(classes):
        room = Classroom.objects.create(name=f"Bench class {c + 1}", owner=teacher)
        room.teachers.add(teacher)
        rooms.append(room)
    students = []
    for i in range(players):
        student = User(username=f"arena-{i:05d}", display_name=f"Kid {i:04d}",
                       role=User.Role.STUDENT, picture_password="cat,sun,tree")
        student.set_unusable_password()
        students.append(student)
    students = User.objects.bulk_create(students)
    Membership.objects.bulk_create([Membership(student=s, classroom=rooms[i % classes])
                                     for i, s in enumerate(students)])
    arena = arena_create(teacher=teacher, classroom=rooms[0], title="Bench arena", key=key,
                         options=options, minutes=minutes, mode=Arena.Mode.POINTS,
                         classes=rooms[1:])
    for student in students:
        arena_join(student=student, arena_id=arena.pk)
    return {"arena_id": arena.pk, "key": key, "options": options, "minutes": minutes,
            "teacher_session": session_for(teacher),
            "students": [{"user_id": s.pk, "name": s.display_name, "session_key": session_for(s)}
                         for s in students]}


def first_round(*, arena_id: int) -> dict:
    from arena.models import ArenaPlayer
    from arena.services import arena_round, arena_start

    arena_start(arena_id=arena_id)
    waiting = ArenaPlayer.objects.filter(arena_id=arena_id, status=ArenaPlayer.Status.WAITING).count()
    wall = time.perf_counter()
    report = arena_round(arena_id=arena_id, force=True)
    wall = time.perf_counter() - wall
    if report is None:
        raise SystemExit("The first round did not run (the arena is not live?).")
    figures = asdict(report)
    figures["tables"] = len(report.tables)
    figures["waiting_before"] = waiting
    figures["round_wall_ms"] = wall * 1000
    return figures


def main() -> None:
    command, *args = sys.argv[1:]
    fixtures.setup_django()
    if command == "prepare":
        players, classes, key, options, minutes = args
        out = prepare(players=int(players), classes=int(classes), key=key,
                      options=json.loads(options), minutes=int(minutes))
    elif command == "first-round":
        out = first_round(arena_id=int(args[0]))
    else:
        raise SystemExit(f"Unknown command {command!r}: prepare or first-round.")
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
