"""Everything the teacher dashboard shows, read together."""

from __future__ import annotations

from dataclasses import dataclass, field

from accounts.models import User
from classroom import selectors as classroom_selectors
from classroom.models import Assignment, Classroom
from games.models import Seat

from ..models import NeedsHelpFlag, RecomputeJob
from .activity import Completion, Today, assignment_completion, finished_today, playing_now
from .help_flags import needs_help
from .skills import SkillTable, skill_table
from .trends import Trend, class_trends


@dataclass
class Dashboard:
    classroom: Classroom
    students: list[User]
    playing: list[Seat]
    today: Today
    completion: list[Completion]
    skills: SkillTable
    trends: list[Trend]
    flags: list[NeedsHelpFlag]
    assignment: Assignment | None
    assignments: list[Assignment]
    last_job: RecomputeJob | None = None
    extra: dict = field(default_factory=dict)


def dashboard(*, classroom: Classroom, assignment: Assignment | None = None) -> Dashboard:
    """Everything the teacher dashboard shows, in a fixed number of queries (see the test)."""
    students = list(classroom_selectors.students_of_class(classroom=classroom))
    completion = assignment_completion(classroom=classroom, students=students)
    flags = needs_help(classroom=classroom)
    return Dashboard(
        classroom=classroom, students=students,
        playing=playing_now(classroom=classroom),
        today=finished_today(classroom=classroom, students=students),
        completion=completion,
        skills=skill_table(classroom=classroom, students=students, assignment=assignment, flags=flags),
        trends=class_trends(classroom=classroom),
        flags=flags,
        assignment=assignment, assignments=[c.assignment for c in completion],
        last_job=RecomputeJob.objects.filter(classroom=classroom, kind=RecomputeJob.Kind.RECOMPUTE)
        .order_by("-created_at", "-id").first(),
    )
