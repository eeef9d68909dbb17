"""The class's "Needs help" flags (reports/flags.py raises them)."""

from __future__ import annotations

from accounts.models import User
from classroom.models import Classroom

from ..models import NeedsHelpFlag


def needs_help(*, classroom: Classroom, student: User | None = None) -> list[NeedsHelpFlag]:
    flags = NeedsHelpFlag.objects.filter(classroom=classroom, student__is_active=True,
                                         student__classroom=classroom)
    if student is not None:
        flags = flags.filter(student=student)
    return list(flags.select_related("student", "game").order_by("student__display_name", "measure"))
