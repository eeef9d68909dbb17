"""The student's pages: my assignments, free play, my recent games."""

from datetime import timedelta

from django.http import Http404
from django.shortcuts import render
from django.utils import timezone

from accounts import services as accounts
from accounts.permissions import student_required
from games.catalogue import GAMES, GAMES_BY_KEY

from .. import selectors

# Seen-recently is for the teacher's class page; writing it on every click would be waste.
LAST_SEEN_RESOLUTION = timedelta(minutes=2)


def _touch(student) -> None:
    seen = student.last_seen_at
    if seen is None or timezone.now() - seen > LAST_SEEN_RESOLUTION:
        accounts.user_touch_last_seen(user=student)


def _free_play_open(student) -> bool:
    classroom = student.classroom
    return classroom is not None and classroom.free_play and not classroom.is_archived


@student_required
def student_home(request):
    student = request.user
    _touch(student)
    return render(request, "classroom/student_home.html", {
        "classroom": student.classroom,
        "assignments": selectors.assignment_progress_for_student(student=student),
        "games": GAMES if _free_play_open(student) else [],
        "recent": selectors.recent_games_for_student(student=student),
        "games_by_key": GAMES_BY_KEY,
    })


@student_required
def assignment_start(request, pk: int):
    """Where an assignment's Play leads. Starting its game belongs to the play feature (see
    docs/classroom.md); until it takes this over, a friendly page. Free play starts games at
    games:free_play_start."""
    assignment = selectors.open_assignments_for_student(student=request.user).filter(pk=pk).first()
    if assignment is None:
        raise Http404("No such assignment for you.")
    _touch(request.user)
    return render(request, "classroom/play_soon.html",
                  {"game": GAMES_BY_KEY.get(assignment.game), "assignment": assignment})
