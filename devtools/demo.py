"""Demo data for `make run`: one teacher, one class of 6 students, 2 assignments and finished
games, so that no page is empty on first look; and a small catch-up group that two of the
children are also in (a child may be in several classes), with its own assignment. Safe to run
again.

The games come from the registry, chosen by what they allow (no game is named here): a
warm-up of the first game in the menu that seats a student with one computer player, and a
group game of the game that seats the most players (the first of them in the menu), each with
its first preset."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts import pictures
from accounts.models import User
from accounts.services import student_create, teacher_sign_up
from classroom import services
from classroom.models import Assignment, Classroom
from classroom.selectors import students_of_class
from games import registry
from games.spec import GameSpec
from reports.services import lock_classes

from .demo_games import load_games
from .simulation import demo_reports

DEMO_EMAIL = "teacher@numberdeck.test"
DEMO_PASSWORD = "numberdeck-demo"
DEMO_CLASS_CODE = "MATH23"
# A second class of the same teacher; these children are in both.
DEMO_GROUP_CODE = "GRP234"
DEMO_GROUP_NAME = "Demo catch-up group"
DEMO_GROUP_STUDENTS = ["Ann", "Cal"]
DEMO_STUDENTS = [
    ("Ann", ["cat", "sun", "tree"]),
    ("Ben", ["boat", "star", "apple"]),
    ("Cal", ["fish", "moon", "house"]),
    ("Dee", ["heart", "ball", "flower"]),
    ("Eli", ["tree", "cat", "boat"]),
    ("Fay", ["sun", "fish", "star"]),
]
# How many finished games each student has of each assignment (Eli has not started).
WARM_UP_GAMES = {"Ann": 5, "Ben": 3, "Cal": 1, "Dee": 2, "Eli": 0, "Fay": 4}
GROUP_GAMES = {"Ann": 2, "Ben": 1, "Cal": 0, "Dee": 3, "Eli": 0, "Fay": 1}
LAST_SEEN = {"Ann": timedelta(minutes=4), "Ben": timedelta(hours=2), "Cal": timedelta(days=1),
             "Dee": timedelta(days=3), "Fay": timedelta(minutes=30)}


@transaction.atomic
def load_demo() -> tuple[User, Classroom, list[User]]:
    teacher = User.objects.filter(role=User.Role.TEACHER, email=DEMO_EMAIL).first()
    if teacher is None:
        teacher = teacher_sign_up(name="Ms Demo", email=DEMO_EMAIL, password=DEMO_PASSWORD)
    classroom, _ = Classroom.objects.get_or_create(
        join_code=DEMO_CLASS_CODE, defaults={"name": "Demo class 5B", "grade": "5", "owner": teacher})
    # One transaction writes games and their reports: the report writes' lock order, class row
    # first (then games in id order), taken for the whole of it, so a Celery worker writing
    # this class's reports meanwhile waits instead of deadlocking (reports.services.lock_classes).
    lock_classes([classroom.pk])
    classroom.teachers.add(teacher)
    students = []
    for name, sequence in DEMO_STUDENTS:
        student = students_of_class(classroom=classroom).filter(display_name=name).first()
        if student is None:
            student = student_create(classroom=classroom, display_name=name,
                                     username=f"demo-{name.lower()}", picture_password=sequence)
        students.append(student)
    _load_work(teacher, classroom, students)
    demo_reports(classroom=classroom, students=students)  # skill reports to look at
    _load_group(teacher, [s for s in students if s.display_name in DEMO_GROUP_STUDENTS])
    return teacher, classroom, students


def _load_group(teacher: User, members: list[User]) -> Classroom:
    """The catch-up group: the same children (no second account), with its own assignment."""
    group, _ = Classroom.objects.get_or_create(
        join_code=DEMO_GROUP_CODE, defaults={"name": DEMO_GROUP_NAME, "owner": teacher})
    group.teachers.add(teacher)
    for student in members:
        services.membership_join(student=student, classroom=group)
    if not group.assignments.exists():
        fields, _games = demo_assignments()[0]
        services.assignment_create(classroom=group, created_by=teacher,
                                   due_on=None, **{**fields, "title": f"Catch-up: {fields['title']}", "goal_count": 3})
    return group


def _assignment(spec: GameSpec, title: str, **fields) -> dict:
    return {"title": title, "game": spec.key, "preset": spec.presets[0].key, "bot_level": "beginner",
            "mental_math": False, "goal_until": None, **fields}


def demo_assignments() -> list[tuple[dict, dict[str, int]]]:
    """Each demo assignment's fields and how many finished games each student has of it, read
    from the registry now (see the module docstring)."""
    games = registry.all_games()
    warm_up = next(g for g in games if g.bot_count_range[0] <= 1 <= g.bot_count_range[1])
    group = max((g for g in games if g is not warm_up), key=lambda g: g.max_players)  # first of the most
    return [
        (_assignment(warm_up, f"{warm_up.name} warm-up", opponents=Assignment.Opponents.BOTS,
                     bot_count=1, goal=Assignment.Goal.PLAY, goal_count=5), WARM_UP_GAMES),
        (_assignment(group, f"{group.name} challenge", opponents=Assignment.Opponents.EITHER,
                     bot_count=min(2, group.bot_count_range[1]), goal=Assignment.Goal.WIN, goal_count=2),
         GROUP_GAMES),
    ]


def _load_work(teacher: User, classroom: Classroom, students: list[User]) -> None:
    by_name = {s.display_name: s for s in students}
    today = timezone.localdate()
    for fields, games in demo_assignments():
        assignment = classroom.assignments.filter(title=fields["title"]).first()
        if assignment is None:
            assignment = services.assignment_create(
                classroom=classroom, created_by=teacher, due_on=today + timedelta(days=7), **fields)
        load_games(assignment=assignment, games_per_student={by_name[n]: c for n, c in games.items()})
    now = timezone.now()
    for name, ago in LAST_SEEN.items():
        User.objects.filter(pk=by_name[name].pk, last_seen_at__isnull=True).update(last_seen_at=now - ago)


def describe(teacher: User, classroom: Classroom, students: list[User], *, url: str | None = None) -> str:
    """How to sign in to the demo. `url`: the address a running server answers on (devtools/
    launch.py prints this once it does); without it, the demo is only loaded."""
    lines = [
        "",
        f"Numberdeck demo is ready at {url}" if url else "Numberdeck demo data is loaded (`make run` serves it)",
        f"  Teacher sign-in:  {DEMO_EMAIL}  /  {DEMO_PASSWORD}",
        f"  Students: go to /join, class code {classroom.join_code}, tap a name, then the pictures:",
    ]
    for s in students:
        lines.append(f"    {s.display_name:<6} {' - '.join(pictures.labels(s.picture_sequence))}")
    group = Classroom.objects.filter(join_code=DEMO_GROUP_CODE).first()
    if group is not None:
        names = " and ".join(s.display_name for s in students_of_class(classroom=group))
        lines.append(f"  {names} are also in “{group.name}”: class code {group.join_code}, same pictures.")
    for assignment in classroom.assignments.order_by("id"):
        played = assignment.games.count()
        lines.append(f"  Assignment “{assignment.title}”: {played} finished game{'s' if played != 1 else ''}"
                     + ("" if played else " (its engine failed to play them; run load_demo again later)"))
    lines.append("")
    return "\n".join(lines)
