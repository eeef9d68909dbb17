"""A teacher's classes: the list, creating and editing, archiving, and the class page."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.permissions import teacher_required
from accounts.typed_text import isolated, sentence_html

from .. import selectors, services
from ..forms import ClassDeleteForm, ClassEditForm, ClassForm
from ..retention import archived_kept_for
from .co_teaching import pending_invite_for
from .common import confirm, refused_unless_owner, teacher_class


@teacher_required
def teacher_home(request):
    return render(request, "classroom/teacher_home.html", {
        "classes": selectors.class_summaries_for_teacher(teacher=request.user),
        "archived_count": selectors.classes_for_teacher(teacher=request.user, archived=True).count(),
        "pending_invite": pending_invite_for(request),
    })


@teacher_required
def archived_classes(request):
    return render(request, "classroom/archived_classes.html", {
        "classes": selectors.class_summaries_for_teacher(teacher=request.user, archived=True),
    })


@teacher_required
def class_create(request):
    form = ClassForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        classroom = services.classroom_create(teacher=request.user, **form.cleaned_data)
        messages.success(request, sentence_html(_("“%(name)s” is ready. Next, add your students."),
                                                {"name": isolated(classroom.name)}))
        return redirect("classroom:class_detail", pk=classroom.pk)
    return render(request, "classroom/class_form.html", {"form": form, "classroom": None})


def _class_page_context(classroom):
    return {"classroom": classroom, "progress": selectors.class_progress(classroom=classroom)}


@teacher_required
def class_detail(request, pk: int):
    classroom = selectors.class_page_for_teacher(teacher=request.user, pk=pk)
    if classroom is None:
        raise Http404("No such class of this teacher's.")
    if classroom.is_archived:
        return render(request, "classroom/class_archived.html", {"classroom": classroom,
                                                                "kept_for": archived_kept_for()})
    context = _class_page_context(classroom)
    context["assignments"] = selectors.assignments_of_class(classroom=classroom)
    return render(request, "classroom/class_detail.html", context)


@teacher_required
def class_progress(request, pk: int):
    """The roster-and-progress grid alone, for the class page to refresh in place."""
    classroom = teacher_class(request, pk)
    return render(request, "classroom/class_detail.html#progress", _class_page_context(classroom))


@teacher_required
def class_edit(request, pk: int):
    classroom = teacher_class(request, pk)
    initial = {"name": classroom.name, "grade": classroom.grade, "free_play": classroom.free_play,
               "language": classroom.language}
    form = ClassEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        services.classroom_update(classroom=classroom, **form.cleaned_data)
        messages.success(request, _("The class is saved."))
        return redirect("classroom:class_detail", pk=classroom.pk)
    return render(request, "classroom/class_form.html", {"form": form, "classroom": classroom})


@teacher_required
@require_POST
def class_free_play(request, pk: int):
    classroom = teacher_class(request, pk)
    turn_on = request.POST.get("free_play") == "on"
    services.classroom_set_free_play(classroom=classroom, free_play=turn_on)
    messages.success(request, _("Free play is on: students may play any game.")
                     if turn_on else _("Free play is off: students see only their assignments."))
    return redirect("classroom:class_detail", pk=classroom.pk)


@teacher_required
def class_archive(request, pk: int):
    classroom = teacher_class(request, pk)
    if refused := refused_unless_owner(request, classroom):
        return refused
    if request.method == "POST":
        services.classroom_archive(classroom=classroom)
        # Translators: %(kept_for)s is a length of time: "a year", "2 years".
        messages.success(request, sentence_html(_("“%(name)s” is archived. You can restore it from Archived "
                                                  "classes for %(kept_for)s."),
                                                {"name": isolated(classroom.name), "kept_for": archived_kept_for()}))
        return redirect("classroom:teacher_home")
    return confirm(
        request, title=_("Archive %(name)s?") % {"name": classroom.name}, button=_("Archive the class"),
        question=sentence_html(_("Archive “%(name)s”?"), {"name": isolated(classroom.name)}),
        details=[_("Students will not be able to sign in to this class."),
                 _("Nothing is deleted now: you can restore the class, its students and its "
                   "assignments for %(kept_for)s. After that, the class and its students' data are "
                   "erased (you are warned by e-mail two weeks before).") % {"kept_for": archived_kept_for()}],
        cancel_url=reverse("classroom:class_detail", args=[classroom.pk]))


@teacher_required
@require_POST
def class_restore(request, pk: int):
    classroom = teacher_class(request, pk, archived=True)
    if refused := refused_unless_owner(request, classroom):
        return refused
    services.classroom_restore(classroom=classroom)
    messages.success(request, sentence_html(_("“%(name)s” is back. Students can sign in again."),
                                            {"name": isolated(classroom.name)}))
    return redirect("classroom:class_detail", pk=classroom.pk)


@teacher_required
def class_delete(request, pk: int):
    """Permanent deletion: only for archived classes, and only after typing the name."""
    classroom = teacher_class(request, pk, archived=True)
    if refused := refused_unless_owner(request, classroom):
        return refused
    form = ClassDeleteForm(request.POST or None, classroom=classroom)
    if request.method == "POST" and form.is_valid():
        name = classroom.name
        services.classroom_delete_permanently(classroom=classroom,
                                              typed_name=form.cleaned_data["typed_name"])
        messages.success(request, sentence_html(_("“%(name)s” and its students' accounts are deleted."),
                                                {"name": isolated(name)}))
        return redirect("classroom:archived_classes")
    return render(request, "classroom/class_delete.html", {
        "classroom": classroom, "form": form,
        "student_count": selectors.students_of_class(classroom=classroom).count(),
    })


@teacher_required
def class_join_code(request, pk: int):
    classroom = teacher_class(request, pk)
    if request.method == "POST":
        code = services.classroom_regenerate_join_code(classroom=classroom)
        messages.success(request, _("The new class code is %(code)s. Print new sign-in cards: the "
                                    "old code no longer works.") % {"code": code})
        return redirect("classroom:class_detail", pk=classroom.pk)
    return confirm(
        request, title=_("New class code?"), button=_("Make a new code"),
        question=sentence_html(_("Make a new code for “%(name)s”?"), {"name": isolated(classroom.name)}),
        details=[_("The code %(code)s will stop working, and so will the sign-in cards you printed "
                   "with it.") % {"code": classroom.join_code},
                 _("Students' pictures stay the same. Students who are signed in stay signed in.")],
        cancel_url=reverse("classroom:class_detail", args=[classroom.pk]))
