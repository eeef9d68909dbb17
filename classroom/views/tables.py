"""Tables with classmates as a class uses them: a student opens one (free play, or for one of
their assignments), and a teacher opens tables for chosen groups and watches those in play.
Every change is games.services.tables'; a refused request shows its reason and changes nothing.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _, ngettext
from django.views.decorators.http import require_POST

from accounts.permissions import student_required, teacher_required
from accounts.student_classes import working_class_of
from games.forms import GroupTablesForm
from games.selectors import lobby as table_selectors
from games.services import tables
from games.views.lobby import home_tables

from .. import selectors as class_selectors
from .common import teacher_class


@student_required
@require_POST
def table_open(request):
    assignment = None
    if request.POST.get("assignment"):
        assignment = (class_selectors.open_assignments_for_student(student=request.user)
                      .filter(pk=request.POST["assignment"]).first() if request.POST["assignment"].isdigit()
                      else None)
        if assignment is None:
            messages.error(request, _("That assignment is not open for you."))
            return redirect(home_tables())
    try:
        game = tables.table_open(student=request.user, classroom=working_class_of(request),
                                 key=request.POST.get("game", ""), assignment=assignment)
    except tables.TableError as exc:
        messages.error(request, str(exc))
        return redirect(home_tables())
    return redirect("games:lobby", game_id=game.pk)



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
            messages.success(request, ngettext(
                "%(count)s table opened. The game shows under “Carry on playing” on each student's page.",
                "%(count)s tables opened. The game shows under “Carry on playing” on each student's page.",
                len(games)) % {"count": len(games)})
            return redirect("classroom:teacher_tables", pk=classroom.pk)
    return render(request, "games/teacher_tables.html", {
        "classroom": classroom, "form": form, "students": students,
        "tables": table_selectors.tables_of_class(classroom=classroom)})
