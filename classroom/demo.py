"""Demo data for `make run`: one teacher, one class of 6 students. Safe to run again."""

from django.db import transaction

from accounts import pictures
from accounts.models import User
from accounts.services import student_create, teacher_sign_up

from .models import Classroom

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
    return teacher, classroom, students


def describe(teacher: User, classroom: Classroom, students: list[User]) -> str:
    lines = [
        "",
        "Numberdeck demo is ready at http://127.0.0.1:8000",
        f"  Teacher sign-in:  {DEMO_EMAIL}  /  {DEMO_PASSWORD}",
        f"  Students: go to /join, class code {classroom.join_code}, tap a name, then the pictures:",
    ]
    for s in students:
        lines.append(f"    {s.display_name:<6} {' - '.join(pictures.labels(s.picture_sequence))}")
    lines.append("")
    return "\n".join(lines)
