"""Pages for playing with classmates: open or join a table, the lobby, the teacher's tables.

Views stay thin: access comes from table_selectors, every change from games.tables, and a
refused request (a wrong code, a full table, someone else's table) shows its reason and
changes nothing.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.permissions import student_required, teacher_required
from classroom import selectors as class_selectors
from classroom.views.common import teacher_class
from games import engine as engines

from . import table_selectors as selectors
from . import tables
from .forms_tables import GroupTablesForm
from .models import Game


def _home_tables():
    return reverse("classroom:student_home") + "#classmates"


@student_required
def tables_panel(request):
    """The "play with classmates" panel of the student's home page (refreshed every few
    seconds so new tables and invitations appear)."""
    return render(request, "games/_classmates_panel.html", classmates_context(request.user))


def classmates_context(student) -> dict:
    classroom = student.classroom
    free_play = classroom is not None and classroom.free_play and not classroom.is_archived
    return {"open_tables": selectors.open_tables_for_student(student=student),
            "table_invites": selectors.invites_for_student(student=student),
            "multiplayer_games": tables.multiplayer_games() if free_play else []}


@student_required
@require_POST
def table_open(request):
    assignment = None
    if request.POST.get("assignment"):
        assignment = (class_selectors.open_assignments_for_student(student=request.user)
                      .filter(pk=request.POST["assignment"]).first() if request.POST["assignment"].isdigit()
                      else None)
        if assignment is None:
            messages.error(request, "That assignment is not open for you.")
            return redirect(_home_tables())
    try:
        game = tables.table_open(student=request.user, key=request.POST.get("game", ""),
                                 assignment=assignment)
    except tables.TableError as exc:
        messages.error(request, str(exc))
        return redirect(_home_tables())
    return redirect("games:lobby", game_id=game.pk)


@student_required
@require_POST
def table_join_by_code(request):
    try:
        game = tables.open_table_by_code(student=request.user, raw_code=request.POST.get("code", ""))
        game = tables.table_join(student=request.user, game_id=game.pk)
    except tables.TableError as exc:
        messages.error(request, str(exc))
        return redirect(_home_tables())
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
        return redirect("games:table", game_id=game.pk)
    return render(request, "games/lobby.html", lobby_context(access))


def lobby_context(access: selectors.LobbyAccess) -> dict:
    return {"access": access, "game": access.game, "bot_levels": engines.BOT_LEVELS,
            "lobby": selectors.lobby(game=access.game, for_seat=access.seat)}


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
    messages.success(request, "You left the table.")
    return redirect(_home_tables())


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
            raise tables.TableError("Choose a classmate to invite.")
        invited = tables.table_invite(host=request.user, game_id=game_id, student_id=int(raw))
        messages.success(request, f"{invited.display_name} is invited. It shows on their page.")
    return _lobby_action(request, game_id, invite)


@student_required
@require_POST
def lobby_start(request, game_id: int):
    try:
        tables.table_start(host=request.user, game_id=game_id, fill_level=request.POST.get("fill", ""))
    except tables.TableError as exc:
        messages.error(request, str(exc))
        return redirect("games:lobby", game_id=game_id)
    return redirect("games:table", game_id=game_id)


@teacher_required
def teacher_tables(request, pk: int):
    """Open tables for chosen pairs or triples, and see (and watch) the tables in play."""
    classroom = teacher_class(request, pk)
    students = list(class_selectors.students_of_class(classroom=classroom))
    assignments = list(class_selectors.assignments_of_class(classroom=classroom).filter(closed_at=None))
    form = GroupTablesForm(request.POST or None, students=students, assignments=assignments,
                           games=tables.multiplayer_games())
    if request.method == "POST" and form.is_valid():
        try:
            games = tables.tables_open_for_groups(
                teacher=request.user, classroom=classroom, key=form.cleaned_data["game"],
                groups=form.groups(), assignment=form.cleaned_data["assignment"],
                fill_level=form.cleaned_data["fill"])
        except tables.TableError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"{len(games)} table{'s' if len(games) != 1 else ''} opened. "
                             "The game shows under “Carry on playing” on each student's page.")
            return redirect("games:teacher_tables", pk=classroom.pk)
    return render(request, "games/teacher_tables.html", {
        "classroom": classroom, "form": form, "students": students,
        "tables": selectors.tables_of_class(classroom=classroom)})
