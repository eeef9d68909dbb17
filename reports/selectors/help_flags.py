"""The class's "Needs help" flags (reports/flags.py raises them)."""

from __future__ import annotations

from accounts.models import User
from classroom.models import Classroom
from classroom.selectors import students_of_class

from ..models import NeedsHelpFlag

Reason = NeedsHelpFlag.Reason
# Within a student: the whole measures first, then families, operations, facts (wide to narrow).
_ORDER = [Reason.MISS_RATE, Reason.RULE_ERRORS, Reason.FAMILY, Reason.OPERATION, Reason.FACT]


def needs_help(*, classroom: Classroom, student: User | None = None) -> list[NeedsHelpFlag]:
    flags = NeedsHelpFlag.objects.filter(classroom=classroom,
                                         student__in=students_of_class(classroom=classroom))
    if student is not None:
        flags = flags.filter(student=student)
    found = flags.select_related("student", "game").order_by("student__display_name", "measure", "detail")
    return sorted(found, key=lambda f: (f.student.display_name, f.student_id,
                                        _ORDER.index(f.reason) if f.reason in _ORDER else len(_ORDER)))
