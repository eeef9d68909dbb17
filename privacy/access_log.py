"""The access log's one declaration: which pages show or export a child's data, and how to
find the child (or the class) from the URL. privacy/middleware.py reads it after each 200
answer; tests/privacy/test_access_log.py fails when a URL whose address names a student is
neither declared here nor listed in NOT_LOGGED with the reason.

The log lives on privacy's side because the apps that serve these pages may not import
privacy (see .importlinter): they stay unaware of it.
"""
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Callable

from django.db.models import QuerySet
from django.utils.translation import gettext_noop

from accounts.models import User
from arena.models import Arena
from classroom.models import Classroom
from games.models import Game

from .models import AccessLog
from .selectors import student_class_for_teacher

VIEWED, EXPORTED = "viewed", "exported"

# A teacher stepping through a replay, or coming back to a report, within this long is one
# visit: the log shows one row, not forty.
SAME_VISIT = timedelta(minutes=10)


@dataclass(frozen=True)
class Subjects:
    """Whose data a page showed: some children of a class, or (no children) the class."""

    classroom: Classroom | None
    students: tuple[User, ...] = ()


def _student(pk) -> User | None:
    try:
        return User.objects.filter(pk=int(pk), role=User.Role.STUDENT).first()
    except (TypeError, ValueError):
        return None


def _class(pk) -> Classroom | None:
    return Classroom.objects.filter(pk=pk).first()


def child_of_class(request, kwargs) -> Subjects | None:
    """/teach/classes/<pk>/…/students/<student_id>/"""
    student = _student(kwargs["student_id"])
    return Subjects(_class(kwargs["pk"]), (student,)) if student else None


def child_asked_for(request, kwargs) -> Subjects | None:
    """A class page narrowed to one child with ?student=; without it the page is the class
    overview, which is not logged (see NOT_LOGGED)."""
    student = _student(request.GET.get("student"))
    return Subjects(_class(kwargs["pk"]), (student,)) if student else None


def child_account(request, kwargs) -> Subjects | None:
    """/teach/students/<pk>/: the class the page was seen from (`?class=`; a child may be in
    several classes, the log is of the viewer's class), else the first of the viewer's classes
    the child is in."""
    student = _student(kwargs["pk"])
    if student is None:
        return None
    classroom = (student_class_for_teacher(teacher=request.user, student=student,
                                           wanted=request.GET.get("class") or request.POST.get("classroom"))
                 if request.user.is_authenticated else None)
    return Subjects(classroom, (student,))


def whole_class(request, kwargs) -> Subjects | None:
    classroom = _class(kwargs["pk"])
    return Subjects(classroom) if classroom else None


def arena_class(request, kwargs) -> Subjects | None:
    arena = Arena.objects.filter(pk=kwargs["arena_id"]).select_related("classroom").first()
    return Subjects(arena.classroom) if arena else None


def game_players(request, kwargs) -> Subjects | None:
    """A game (its page, its socket, its replay): each child who played in it (computer
    players are not children)."""
    game = Game.objects.filter(pk=kwargs["game_id"]).select_related("classroom").first()
    if game is None:
        return None
    players = User.objects.filter(seats__game=game, role=User.Role.STUDENT).distinct()
    return Subjects(game.classroom, tuple(players.order_by("pk")))


@dataclass(frozen=True)
class Logged:
    action: str
    what: str  # read after "Maya R.'s": "skill report" (stored in English, translated when read)
    find: Callable[..., Subjects | None]


# Translators: what was viewed or downloaded, read in the access log after a name: "Ms Rivera viewed
# Maya R.'s skill report".
LOGGED: dict[str, Logged] = {
    "reports:student": Logged(VIEWED, gettext_noop("skill report"), child_of_class),
    "reports:student_pdf": Logged(EXPORTED, gettext_noop("progress report (PDF)"), child_of_class),
    "reports:moves": Logged(VIEWED, gettext_noop("moves"), child_asked_for),
    "reports:facts": Logged(VIEWED, gettext_noop("number facts"), child_asked_for),
    "reports:skills_csv": Logged(EXPORTED, gettext_noop("skills table (CSV)"), whole_class),
    "reports:job_download": Logged(EXPORTED, gettext_noop("report export file"), whole_class),
    "classroom:student_detail": Logged(VIEWED, gettext_noop("account page"), child_account),
    "classroom:sign_in_cards": Logged(VIEWED, gettext_noop("sign-in cards"), whole_class),
    "classroom:sign_in_cards_pdf": Logged(EXPORTED, gettext_noop("sign-in cards (PDF)"), whole_class),
    "games:replay": Logged(VIEWED, gettext_noop("game replay"), game_players),
    # A game's page: a teacher watching it live, every hand shown, or the finished table.
    # Opening its socket is the same view (privacy/middleware.py `game_socket_opened`), so a
    # page and its socket are one row; the socket's messages are not logged.
    "games:game": Logged(VIEWED, gettext_noop("game"), game_players),
    "arena:standings_csv": Logged(EXPORTED, gettext_noop("arena standings (CSV)"), arena_class),
    "privacy:student_export": Logged(EXPORTED, gettext_noop("data (zip)"), child_account),
    "privacy:class_export": Logged(EXPORTED, gettext_noop("data (zip)"), whole_class),
}

# URLs whose address names a student (or a player) that are deliberately not logged, and why.
NOT_LOGGED: dict[str, str] = {
    "classroom:join_pictures": "the sign-in page: a child picks their own pictures",
    "classroom:join_text": "the sign-in page: a child types their own password",
    "classroom:student_move": "a change (move to another class), not a view of reports",
    "classroom:student_remove": "asks to confirm a removal; shows the name only",
    "classroom:student_pictures": "a change (new picture password)",
    "classroom:student_text_password": "a change (new text password)",
    "classroom:student_unlock": "a change (unlocks sign-in)",
    "arena:take_out": "a change during an arena (takes a player out)",
    "arena:let_back": "a change during an arena (lets a player back)",
    "privacy:student_erase": "asks to confirm an erasure (counts only); the erasure removes the "
                             "child, and is recorded by privacy/erasure.py",
}


def record(*, viewer: User, logged: Logged, subjects: Subjects, path: str, now: datetime) -> int:
    """Write the rows for one answered page; returns how many. A view repeated within
    SAME_VISIT is not written again (exports always are)."""
    classroom = subjects.classroom
    rows = [AccessLog(at=now, viewer=viewer, viewer_name=viewer.display_name or viewer.get_username(),
                      action=logged.action, what=logged.what, student=student,
                      about_class=student is None, classroom=classroom,
                      classroom_name=classroom.name if classroom else "", path=path[:300])
            for student in (subjects.students or (None,))]
    if logged.action == VIEWED:
        recent = AccessLog.objects.filter(viewer=viewer, what=logged.what, classroom=classroom,
                                          at__gte=now - SAME_VISIT)
        seen = set(recent.values_list("student_id", flat=True))
        rows = [row for row in rows if row.student_id not in seen]
    AccessLog.objects.bulk_create(rows)
    return len(rows)


def entries(*, classroom: Classroom | None = None) -> QuerySet:
    """The log, newest first: one class's, or (None) all of it (administrators)."""
    log = AccessLog.objects.select_related("student")
    return log if classroom is None else log.filter(classroom=classroom)
