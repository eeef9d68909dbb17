"""Pages for playing with classmates: join a table by its code, and the lobby. (Opening a
table, which may be for an assignment, and the teacher's tables page are classroom pages.)

Views stay thin: access comes from table_selectors, every change from games.services.tables, and a
refused request (a wrong code, a full table, someone else's table) shows its reason and
changes nothing. Every URL with a table id asks `_access` first: a missing table, or one of
another class, is a 404 (the same answer for both, so ids reveal nothing).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django.utils.translation import gettext as _

from accounts.permissions import student_required
from accounts.student_classes import working_class_of
from games.selectors import lobby as selectors
from games.services import tables
from games.models import Game
from games.rendering import lobby_context


def home_tables() -> str:
    return reverse("classroom:student_home") + "#classmates"


@student_required
def tables_panel(request):
    """The "play with classmates" panel of the student's home page (refreshed every few
    seconds so new tables and invitations appear)."""
    return render(request, "games/_classmates_panel.html",
                  classmates_context(request.user, classroom=working_class_of(request)))


def classmates_context(student, *, classroom) -> dict:
    """Tables and invitations of all the student's classes; new tables of free play only in
    `classroom`, the class they are working in."""
    free_play = classroom is not None and classroom.free_play and not classroom.is_archived
    return {"open_tables": selectors.open_tables_for_student(student=student),
            "table_invites": selectors.invites_for_student(student=student),
            "multiplayer_games": tables.multiplayer_games() if free_play else []}


@student_required
@require_POST
def table_join_by_code(request):
    try:
        game = tables.open_table_by_code(student=request.user, raw_code=request.POST.get("code", ""))
        game = tables.table_join(student=request.user, game_id=game.pk)
    except tables.TableError as exc:
        messages.error(request, str(exc))
        return redirect(home_tables())
    return redirect("games:lobby", game_id=game.pk)


def _access(request, game_id: int) -> selectors.LobbyAccess:
    access = (selectors.lobby_access(user=request.user, game_id=game_id)
              if request.user.is_authenticated else None)
    if access is None:
        raise Http404("No such table here.")
    return access


def lobby_page(request, game_id: int):
    access = _access(request, game_id)
    game = access.game
    if game.status in (Game.Status.ACTIVE, Game.Status.FINISHED) and (access.seat or access.teacher):
        return redirect("games:game", game_id=game.pk)
    return render(request, "games/lobby.html", lobby_context(access))


def _lobby_action(request, game_id: int, action, success: str = ""):
    """Run one lobby change for a student at (or joining) the table, then back to the lobby."""
    access = _access(request, game_id)
    if access.teacher:
        raise Http404("Teachers watch tables; they don't sit at them.")
    try:
        action(access)
    except tables.TableError as exc:
        messages.error(request, str(exc))
    else:
        if success:
            messages.success(request, success)
    return redirect("games:lobby", game_id=game_id)


@student_required
@require_POST
def lobby_join(request, game_id: int):
    return _lobby_action(request, game_id,
                         lambda a: tables.table_join(student=request.user, game_id=game_id))


@student_required
@require_POST
def lobby_leave(request, game_id: int):
    access = _access(request, game_id)
    try:
        tables.table_leave(student=request.user, game_id=access.game.pk)
    except tables.TableError as exc:
        messages.error(request, str(exc))
        return redirect("games:lobby", game_id=game_id)
    messages.success(request, _("You left the table."))
    return redirect(home_tables())


@student_required
@require_POST
def lobby_add_bot(request, game_id: int):
    return _lobby_action(request, game_id, lambda a: tables.table_add_bot(
        host=request.user, game_id=game_id, level=request.POST.get("level", "")))


@student_required
@require_POST
def lobby_remove_bot(request, game_id: int, seat_id: int):
    return _lobby_action(request, game_id, lambda a: tables.table_remove_bot(
        host=request.user, game_id=game_id, seat_id=seat_id))


@student_required
@require_POST
def lobby_invite(request, game_id: int):
    def invite(access):
        raw = request.POST.get("student", "")
        if not raw.isdigit():
            raise tables.TableError(_("Choose a classmate to invite."))
        invited = tables.table_invite(host=request.user, game_id=game_id, student_id=int(raw))
        messages.success(request, _("%(name)s is invited. It shows on their page.") % {"name": invited.display_name})
    return _lobby_action(request, game_id, invite)


@student_required
@require_POST
def lobby_start(request, game_id: int):
    access = _access(request, game_id)  # a missing table, or another class's, is not found
    try:
        tables.table_start(host=request.user, game_id=access.game.pk,
                           fill_level=request.POST.get("fill", ""))
    except tables.TableError as exc:
        messages.error(request, str(exc))
        return redirect("games:lobby", game_id=game_id)
    return redirect("games:game", game_id=game_id)
