"""A teacher's classes: the list, creating and editing, archiving, and the class page."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.permissions import teacher_required

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
        messages.success(request, f"“{classroom.name}” is ready. Next, add your students.")
        return redirect("classroom:class_detail", pk=classroom.pk)
    return render(request, "classroom/class_form.html", {"form": form, "classroom": None})


def _class_page_context(classroom):
    return {"classroom": classroom, "progress": selectors.class_progress(classroom=classroom)}


@teacher_required
def class_detail(request, pk: int):
    classroom = teacher_class(request, pk, archived=None)
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
    initial = {"name": classroom.name, "grade": classroom.grade, "free_play": classroom.free_play}
    form = ClassEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        services.classroom_update(classroom=classroom, **form.cleaned_data)
        messages.success(request, "The class is saved.")
        return redirect("classroom:class_detail", pk=classroom.pk)
    return render(request, "classroom/class_form.html", {"form": form, "classroom": classroom})


@teacher_required
@require_POST
def class_free_play(request, pk: int):
    classroom = teacher_class(request, pk)
    turn_on = request.POST.get("free_play") == "on"
    services.classroom_set_free_play(classroom=classroom, free_play=turn_on)
    messages.success(request, "Free play is on: students may play any game."
                     if turn_on else "Free play is off: students see only their assignments.")
    return redirect("classroom:class_detail", pk=classroom.pk)


@teacher_required
def class_archive(request, pk: int):
    classroom = teacher_class(request, pk)
    if refused := refused_unless_owner(request, classroom):
        return refused
    if request.method == "POST":
        services.classroom_archive(classroom=classroom)
        messages.success(request, f"“{classroom.name}” is archived. You can restore it from "
                                  f"Archived classes for {archived_kept_for()}.")
        return redirect("classroom:teacher_home")
    return confirm(
        request, title=f"Archive {classroom.name}?", button="Archive the class",
        question=f"Archive “{classroom.name}”?",
        details=["Students will not be able to sign in to this class.",
                 "Nothing is deleted now: you can restore the class, its students and its "
                 f"assignments for {archived_kept_for()}. After that, the class and its students' "
                 "data are erased (you are warned by e-mail two weeks before)."],
        cancel_url=reverse("classroom:class_detail", args=[classroom.pk]))


@teacher_required
@require_POST
def class_restore(request, pk: int):
    classroom = teacher_class(request, pk, archived=True)
    if refused := refused_unless_owner(request, classroom):
        return refused
    services.classroom_restore(classroom=classroom)
    messages.success(request, f"“{classroom.name}” is back. Students can sign in again.")
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
        messages.success(request, f"“{name}” and its students' accounts are deleted.")
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
        messages.success(request, f"The new class code is {code}. Print new sign-in cards: the "
                                  "old code no longer works.")
        return redirect("classroom:class_detail", pk=classroom.pk)
    return confirm(
        request, title="New class code?", button="Make a new code",
        question=f"Make a new code for “{classroom.name}”?",
        details=[f"The code {classroom.join_code} will stop working, and so will the sign-in "
                 "cards you printed with it.",
                 "Students' pictures stay the same. Students who are signed in stay signed in."],
        cancel_url=reverse("classroom:class_detail", args=[classroom.pk]))
