"""The student's pages: my assignments, free play, my recent games."""

from datetime import timedelta

from django.conf import settings
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from accounts import services as accounts
from accounts.permissions import student_required
from accounts.student_classes import remember_working_class, working_class_of
from games import registry
from games.services import game_in_progress_for_assignment, game_start_for_assignment
from games.views.lobby import classmates_context

from .. import selectors
from ..models import Assignment

# Seen-recently is for the teacher's class page; writing it on every click would be waste.
LAST_SEEN_RESOLUTION = timedelta(minutes=2)


def _touch(student) -> None:
    seen = student.last_seen_at
    if seen is None or timezone.now() - seen > LAST_SEEN_RESOLUTION:
        accounts.user_touch_last_seen(user=student)


def _free_play_open(classroom) -> bool:
    return classroom is not None and classroom.free_play and not classroom.is_archived


def idle_words(minutes: int) -> str:
    """GAME_IDLE_CLOSE_MINUTES in words for children: "an hour", "2 hours", "30 minutes"."""
    if minutes == 60:
        return _("an hour")
    if minutes % 60 == 0:
        return ngettext("%(count)s hour", "%(count)s hours", minutes // 60) % {"count": minutes // 60}
    return ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}


@student_required
def student_home(request):
    student = request.user
    _touch(student)
    # A child in several classes sees every class's work, each labelled with its class; free
    # play and tables are in the class they are working in (the one they signed in through,
    # or the one they chose here).
    classroom = working_class_of(request)
    classes = selectors.active_classes_of_student(student=student)
    # One "Carry on" per game above the assignments (the most recent); the others fold away.
    carry_on, more = selectors.carry_on_for_student(student=student)
    return render(request, "classroom/student_home.html", {
        "classroom": classroom,
        "other_classes": [c for c in classes if classroom is None or c.pk != classroom.pk],
        "several_classes": len(classes) > 1,
        "assignments": selectors.assignment_progress_for_student(student=student),
        "games": registry.all_games() if _free_play_open(classroom) else [],
        "recent": selectors.recent_games_for_student(student=student),
        "in_progress": carry_on,
        "more_in_progress": more,
        "idle_after": idle_words(settings.GAME_IDLE_CLOSE_MINUTES),
        **classmates_context(student, classroom=classroom),
    })


@student_required
@require_POST
def student_choose_class(request):
    """A child in several classes picks the class they play in now (free play, tables). Only
    one of their own active classes can be chosen; anything else changes nothing."""
    chosen = request.POST.get("classroom", "")
    for classroom in selectors.active_classes_of_student(student=request.user):
        if str(classroom.pk) == chosen:
            remember_working_class(request, classroom_id=classroom.pk)
            break
    return redirect("classroom:student_home")


@student_required
def assignment_start(request, pk: int):
    """Where an assignment's Play leads: an unfinished game is resumed; otherwise a start page
    (GET) whose button (POST) deals a new game against the assignment's computer players.
    Classmates-only assignments are played at tables the teacher opens."""
    assignment = selectors.open_assignments_for_student(student=request.user).filter(pk=pk).first()
    if assignment is None:
        raise Http404("No such assignment for you.")
    _touch(request.user)
    running = game_in_progress_for_assignment(assignment=assignment, student=request.user)
    if running is not None:
        return redirect("games:game", game_id=running.pk)
    spec = registry.get(assignment.game)
    if spec is None:
        raise Http404("That game can't be played here any more.")
    with_bots = assignment.opponents != Assignment.Opponents.CLASSMATES
    if request.method == "POST" and with_bots:
        game = game_start_for_assignment(assignment=assignment, student=request.user)
        return redirect("games:game", game_id=game.pk)
    return render(request, "classroom/play_soon.html", {
        "game": spec, "assignment": assignment, "with_bots": with_bots,
        "with_classmates": assignment.opponents != Assignment.Opponents.BOTS})
