"""Everything the teacher dashboard shows, read together."""

from __future__ import annotations

from dataclasses import dataclass, field

from accounts.models import User
from classroom import selectors as classroom_selectors
from classroom.models import Assignment, Classroom
from games.models import Seat

from ..models import NeedsHelpFlag, RecomputeJob
from .activity import (Activity, Completion, PlayingGroup, assignment_completion, playing_groups,
                       playing_now, recent_games)
from .help_flags import needs_help
from .skills import SkillTable, skill_table
from .trends import Trend, WeekChange, class_trends, week_on_week

# The students whose flags the first screen shows; the rest are one click away ("N more").
HELP_SHOWN = 6
# Up to this many students playing, the first screen names each; more (a class playing in a
# lesson), it counts them and names who is not playing, and the names are one click away.
PLAYING_NAMED = 12
# Who is not playing is named when they are this few.
NOT_PLAYING_NAMED = 8


@dataclass(frozen=True)
class HelpGroup:
    """One student's "Needs help" flags, widest first (`needs_help`'s order): the first is
    shown, the others are one click away."""

    student: User
    flags: list[NeedsHelpFlag]

    @property
    def display_name(self) -> str:
        return self.student.display_name

    @property
    def first(self) -> NeedsHelpFlag:
        return self.flags[0]

    @property
    def rest(self) -> list[NeedsHelpFlag]:
        return self.flags[1:]


def help_groups(flags: list[NeedsHelpFlag]) -> list[HelpGroup]:
    """`needs_help`'s flags (in student order) as one group per student."""
    groups: list[HelpGroup] = []
    for flag in flags:
        if groups and groups[-1].student.pk == flag.student_id:
            groups[-1].flags.append(flag)
        else:
            groups.append(HelpGroup(flag.student, [flag]))
    return groups


@dataclass
class Dashboard:
    classroom: Classroom
    students: list[User]
    playing: list[Seat]
    activity: Activity
    completion: list[Completion]
    skills: SkillTable
    trends: list[Trend]
    flags: list[NeedsHelpFlag]
    assignment: Assignment | None
    assignments: list[Assignment]
    last_job: RecomputeJob | None = None
    extra: dict = field(default_factory=dict)

    @property
    def playing_groups(self) -> list[PlayingGroup]:
        return playing_groups(self.playing)

    @property
    def playing_students(self) -> list[User]:
        """Each student playing now once (a student may be at two tables)."""
        return list({seat.user_id: seat.user for seat in self.playing}.values())

    @property
    def playing_named(self) -> bool:
        return len(self.playing_students) <= PLAYING_NAMED

    @property
    def not_playing(self) -> list[User]:
        """The class's students not playing now, when they are few enough to name (else [])."""
        playing = {seat.user_id for seat in self.playing}
        idle = [s for s in self.students if s.pk not in playing]
        return idle if len(idle) <= NOT_PLAYING_NAMED else []

    @property
    def help(self) -> list[HelpGroup]:
        return help_groups(self.flags)

    @property
    def help_shown(self) -> list[HelpGroup]:
        return self.help[:HELP_SHOWN]

    @property
    def help_more(self) -> list[HelpGroup]:
        return self.help[HELP_SHOWN:]

    @property
    def week_change(self) -> WeekChange:
        return week_on_week(self.trends)


def dashboard(*, classroom: Classroom, assignment: Assignment | None = None) -> Dashboard:
    """Everything the teacher dashboard shows, in a fixed number of queries (see the test)."""
    students = list(classroom_selectors.students_of_class(classroom=classroom))
    completion = assignment_completion(classroom=classroom, students=students)
    flags = needs_help(classroom=classroom)
    return Dashboard(
        classroom=classroom, students=students,
        playing=playing_now(classroom=classroom),
        activity=recent_games(classroom=classroom, students=students),
        completion=completion,
        skills=skill_table(classroom=classroom, students=students, assignment=assignment, flags=flags),
        trends=class_trends(classroom=classroom),
        flags=flags,
        assignment=assignment, assignments=[c.assignment for c in completion],
        last_job=RecomputeJob.objects.filter(classroom=classroom, kind=RecomputeJob.Kind.RECOMPUTE)
        .order_by("-created_at", "-id").first(),
    )
