"""Assignments: create (the form follows the chosen game), edit, close, reopen, duplicate."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.permissions import teacher_required
from accounts.typed_text import isolated, sentence_html

from .. import presets, selectors, services
from ..assignment_form import AssignmentForm, initial_from_assignment, initial_from_query
from ..forms import DuplicateForm
from .common import confirm, teacher_assignment, teacher_class


def _form_page(request, form, classroom, assignment=None):
    template = "classroom/assignment_form.html"
    if request.htmx and request.method == "GET":
        template += "#fields"  # the game changed: only the fields that depend on it
    return render(request, template, {"form": form, "classroom": classroom, "assignment": assignment})


@teacher_required
def assignment_create(request, pk: int):
    classroom = teacher_class(request, pk)
    if request.method == "POST":
        form = AssignmentForm(request.POST, classroom=classroom)
        if form.is_valid():
            try:
                assignment = services.assignment_create(classroom=classroom, created_by=request.user,
                                                        **form.service_kwargs())
            except presets.PresetError as exc:
                form.add_error("preset", str(exc))
            else:
                messages.success(request, sentence_html(_("“%(title)s” is set. Students see it on their page now."),
                                                        {"title": isolated(assignment.title)}))
                return redirect("classroom:class_detail", pk=classroom.pk)
    else:
        form = AssignmentForm(classroom=classroom, initial=initial_from_query(request.GET))
    return _form_page(request, form, classroom)


@teacher_required
def assignment_edit(request, pk: int):
    assignment = teacher_assignment(request, pk)
    classroom = assignment.classroom
    if request.method == "POST":
        form = AssignmentForm(request.POST, classroom=classroom, assignment=assignment,
                              initial=initial_from_assignment(assignment))
        if form.is_valid():
            try:
                services.assignment_update(assignment=assignment, **form.service_kwargs())
            except presets.PresetError as exc:
                form.add_error("preset", str(exc))
            else:
                messages.success(request, sentence_html(_("“%(title)s” is saved."),
                                                        {"title": isolated(assignment.title)}))
                return redirect("classroom:class_detail", pk=classroom.pk)
    else:
        form = AssignmentForm(classroom=classroom, assignment=assignment,
                              initial=initial_from_assignment(assignment))
    return _form_page(request, form, classroom, assignment)


@teacher_required
def assignment_close(request, pk: int):
    assignment = teacher_assignment(request, pk)
    back = reverse("classroom:class_detail", args=[assignment.classroom_id])
    if request.method == "POST":
        services.assignment_close(assignment=assignment)
        messages.success(request, sentence_html(_("“%(title)s” is closed. You can reopen it from the class page."),
                                                {"title": isolated(assignment.title)}))
        return redirect(back)
    return confirm(
        request, title=_("Close %(title)s?") % {"title": assignment.title}, button=_("Close the assignment"),
        question=sentence_html(_("Close “%(title)s”?"), {"title": isolated(assignment.title)}),
        details=[_("Students will no longer see it on their page."),
                 _("Their progress is kept, and you can reopen it later.")],
        cancel_url=back)


@teacher_required
@require_POST
def assignment_reopen(request, pk: int):
    assignment = teacher_assignment(request, pk)
    services.assignment_reopen(assignment=assignment)
    messages.success(request, sentence_html(_("“%(title)s” is open again."), {"title": isolated(assignment.title)}))
    return redirect("classroom:class_detail", pk=assignment.classroom_id)


@teacher_required
def assignment_duplicate(request, pk: int):
    assignment = teacher_assignment(request, pk)
    classes = selectors.classes_for_teacher(teacher=request.user)
    form = DuplicateForm(request.POST or None, classes=classes,
                         initial={"to_classroom": classes.exclude(pk=assignment.classroom_id).first()})
    if request.method == "POST" and form.is_valid():
        target = form.cleaned_data["to_classroom"]
        copy = services.assignment_duplicate(assignment=assignment, to_classroom=target,
                                             created_by=request.user)
        messages.success(request, sentence_html(_("A copy of “%(title)s” is set for %(class_name)s. Check it, "
                                                  "then it's ready."),
                                                {"title": isolated(copy.title), "class_name": isolated(target.name)}))
        return redirect("classroom:assignment_edit", pk=copy.pk)
    return render(request, "classroom/assignment_duplicate.html",
                  {"assignment": assignment, "form": form, "classroom": assignment.classroom})
