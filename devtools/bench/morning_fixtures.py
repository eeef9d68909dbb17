"""The morning bench's data, in a Django process of its own (as fixtures.py and arena_fixtures.py).

    python devtools/bench/morning_fixtures.py STUDENTS CLASSES ARENA_CLASSES GAME PRESET

Migrates and **flushes** the bench database, collects the static files (production pages need
their manifest), then makes CLASSES classes of STUDENTS/CLASSES students, each class with one
teacher (an e-mail and a password, hashed as production hashes it) and each student with a
picture password (nobody has a session: everyone signs in through the pages). Every class
but the last ARENA_CLASSES gets an assignment of GAME at PRESET against one computer player;
the arena classes get none (their teacher makes the arena through the pages during the run).
Prints JSON: the classes, their teachers' credentials, their students' names and pictures.
"""

from __future__ import annotations

import json
import random
import sys

import fixtures

TEACHER_PASSWORD = "morning-pass-1234"


def prepare(*, students: int, classes: int, arena_classes: int, game: str, preset: str) -> dict:
    # After `fixtures.setup_django()`: models load only once the apps are.
    from django.core.management import call_command

    from accounts import pictures
    from accounts.models import Membership, User
    from accounts.services import teacher_sign_up
    from classroom.models import Assignment
    from classroom.services.assignments import assignment_create
    from classroom.services.classes import classroom_create

    call_command("migrate", interactive=False, verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)

    rng = random.Random(7)
    made = []
    for c in range(classes):
        teacher = teacher_sign_up(name=f"Teacher {c + 1}", email=f"teacher{c + 1}@school.test",
                                  password=TEACHER_PASSWORD)
        room = classroom_create(teacher=teacher, name=f"Class {c + 1}")
        size = students // classes + (1 if c < students % classes else 0)
        kids = []
        for i in range(size):
            sequence = rng.sample(pictures.PICTURE_KEYS, pictures.PASSWORD_LENGTH)
            kid = User(username=f"m{c + 1:02d}-{i + 1:03d}", display_name=f"Kid {c + 1:02d}-{i + 1:03d}",
                       role=User.Role.STUDENT, picture_password=pictures.encode(sequence))
            kid.set_unusable_password()
            kids.append((kid, sequence))
        User.objects.bulk_create([k for k, _ in kids])
        Membership.objects.bulk_create([Membership(student=k, classroom=room) for k, _ in kids])
        arena = c >= classes - arena_classes
        assignment = None
        if not arena:
            assignment = assignment_create(
                classroom=room, created_by=teacher, title="", game=game, preset=preset,
                opponents=Assignment.Opponents.BOTS, bot_level="beginner", bot_count=1,
                mental_math=False, goal=Assignment.Goal.PLAY, goal_count=3, goal_until=None,
                due_on=None)
        made.append({
            "id": room.pk, "name": room.name, "join_code": room.join_code, "arena": arena,
            "assignment": assignment.pk if assignment else None,
            "teacher": {"email": teacher.email, "password": TEACHER_PASSWORD},
            "students": [{"id": k.pk, "name": k.display_name, "pictures": seq} for k, seq in kids],
        })
    return {"classes": made, "game": game, "preset": preset}


def main() -> None:
    students, classes, arena_classes, game, preset = sys.argv[1:6]
    fixtures.setup_django()
    json.dump(prepare(students=int(students), classes=int(classes), arena_classes=int(arena_classes),
                      game=game, preset=preset), sys.stdout)


if __name__ == "__main__":
    main()
