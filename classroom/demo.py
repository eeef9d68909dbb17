"""Demo data for `make run`: one teacher, one class of 6 students, 2 assignments and finished
games, so that no page is empty on first look. Safe to run again."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts import pictures
from accounts.models import User
from accounts.services import student_create, teacher_sign_up

from . import services
from .demo_games import load_games
from .models import Assignment, Classroom
from .presets import presets_for

DEMO_EMAIL = "teacher@numberdeck.test"
DEMO_PASSWORD = "numberdeck-demo"
DEMO_CLASS_CODE = "MATH23"
DEMO_STUDENTS = [
    ("Ann", ["cat", "sun", "tree"]),
    ("Ben", ["boat", "star", "apple"]),
    ("Cal", ["fish", "moon", "house"]),
    ("Dee", ["heart", "ball", "flower"]),
    ("Eli", ["tree", "cat", "boat"]),
    ("Fay", ["sun", "fish", "star"]),
]
# Each assignment (its preset given by the options wanted), and how many finished games each
# student has of it (Eli has not started).
DEMO_ASSIGNMENTS = [
    ({"title": "Smooth Operator warm-up", "game": "smooth_operator", "preset": {"target": 100},
      "opponents": Assignment.Opponents.BOTS, "bot_level": "beginner", "bot_count": 1,
      "mental_math": False, "goal": Assignment.Goal.PLAY, "goal_count": 5, "goal_until": None},
     {"Ann": 5, "Ben": 3, "Cal": 1, "Dee": 2, "Eli": 0, "Fay": 4}),
    ({"title": "Times tables with free cards", "game": "multiplication", "preset": {"free_cards": None},
      "opponents": Assignment.Opponents.EITHER, "bot_level": "beginner", "bot_count": 2,
      "mental_math": False, "goal": Assignment.Goal.WIN, "goal_count": 2, "goal_until": None},
     {"Ann": 2, "Ben": 1, "Cal": 0, "Dee": 3, "Eli": 0, "Fay": 1}),
]
LAST_SEEN = {"Ann": timedelta(minutes=4), "Ben": timedelta(hours=2), "Cal": timedelta(days=1),
             "Dee": timedelta(days=3), "Fay": timedelta(minutes=30)}


@transaction.atomic
def load_demo() -> tuple[User, Classroom, list[User]]:
    teacher = User.objects.filter(role=User.Role.TEACHER, email=DEMO_EMAIL).first()
    if teacher is None:
        teacher = teacher_sign_up(name="Ms Demo", email=DEMO_EMAIL, password=DEMO_PASSWORD)
    classroom, _ = Classroom.objects.get_or_create(
        join_code=DEMO_CLASS_CODE, defaults={"name": "Demo class 5B", "grade": "5", "owner": teacher})
    classroom.teachers.add(teacher)
    students = []
    for name, sequence in DEMO_STUDENTS:
        student = classroom.students.filter(display_name=name).first()
        if student is None:
            student = student_create(classroom=classroom, display_name=name,
                                     username=f"demo-{name.lower()}", picture_password=sequence)
        students.append(student)
    _load_work(teacher, classroom, students)
    from .reports.simulation import demo_reports  # late: the reports app imports this app

    demo_reports(classroom=classroom, students=students)  # skill reports to look at
    return teacher, classroom, students


def _preset_key(game: str, wanted: dict) -> str:
    """The first preset whose options include `wanted` (a None value matches any value):
    preset keys belong to the engines, which may rename them."""
    available = presets_for(game)
    for key, preset in available.items():
        options = preset["options"]
        if all(k in options and (v is None or options[k] == v) for k, v in wanted.items()):
            return key
    return next(iter(available))


def _load_work(teacher: User, classroom: Classroom, students: list[User]) -> None:
    by_name = {s.display_name: s for s in students}
    today = timezone.localdate()
    for fields, games in DEMO_ASSIGNMENTS:
        assignment = classroom.assignments.filter(title=fields["title"]).first()
        if assignment is None:
            assignment = services.assignment_create(
                classroom=classroom, created_by=teacher, due_on=today + timedelta(days=7),
                **{**fields, "preset": _preset_key(fields["game"], fields["preset"])})
        load_games(assignment=assignment, games_per_student={by_name[n]: c for n, c in games.items()})
    now = timezone.now()
    for name, ago in LAST_SEEN.items():
        User.objects.filter(pk=by_name[name].pk, last_seen_at__isnull=True).update(last_seen_at=now - ago)


def describe(teacher: User, classroom: Classroom, students: list[User]) -> str:
    lines = [
        "",
        "Numberdeck demo is ready at http://127.0.0.1:8000",
        f"  Teacher sign-in:  {DEMO_EMAIL}  /  {DEMO_PASSWORD}",
        f"  Students: go to /join, class code {classroom.join_code}, tap a name, then the pictures:",
    ]
    for s in students:
        lines.append(f"    {s.display_name:<6} {' - '.join(pictures.labels(s.picture_sequence))}")
    for assignment in classroom.assignments.order_by("id"):
        played = assignment.games.count()
        lines.append(f"  Assignment “{assignment.title}”: {played} finished game{'s' if played != 1 else ''}"
                     + ("" if played else " (its game engine is not ready yet; run load_demo again later)"))
    lines.append("")
    return "\n".join(lines)
