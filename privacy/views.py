"""A student's or a class's data for its teachers: download it, or (the class's owner only)
erase a student's. Who may is in accounts/permissions.py; students are found through the
teacher's own classes, so anyone else's are simply not found (404)."""

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from accounts.permissions import may_erase_student_data, may_export_student_data, teacher_required
from classroom.selectors import classes_for_teacher

from . import export, selectors
from .erasure import counts_in_words, erase_student, erasure_preview
from .forms import EraseStudentForm
from .words import joined


def _teacher_student(request, pk: int):
    return get_object_or_404(selectors.students_for_teacher(teacher=request.user), pk=pk)


def _zip_response(name: str, body: bytes) -> HttpResponse:
    response = HttpResponse(body, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _student_class(request, student):
    wanted = request.POST.get("classroom") or request.GET.get("class")
    return selectors.student_class_for_teacher(teacher=request.user, student=student, wanted=wanted)


@teacher_required
def student_export(request, pk: int):
    student = _teacher_student(request, pk)
    if not may_export_student_data(request.user, student):
        return render(request, "privacy/export_refused.html",
                      {"student": student, "classroom": _student_class(request, student)}, status=403)
    return _zip_response(*export.student_zip(student=student))


@teacher_required
def class_export(request, pk: int):
    classroom = get_object_or_404(classes_for_teacher(teacher=request.user, archived=None), pk=pk)
    return _zip_response(*export.classroom_zip(
        classroom=classroom, with_folder=lambda student: may_export_student_data(request.user, student)))


@teacher_required
def student_erase(request, pk: int):
    """A page that says what will go and asks for the student's name; posting it erases."""
    student = _teacher_student(request, pk)
    classroom = _student_class(request, student)
    if not may_erase_student_data(request.user, student):
        return render(request, "privacy/erase_refused.html",
                      {"student": student, "classroom": classroom,
                       "in_several_classes": student.memberships.count() > 1}, status=403)
    form = EraseStudentForm(request.POST or None, student=student)
    if request.method == "POST" and form.is_valid():
        name = student.display_name
        gone = counts_in_words(erase_student(student=student, erased_by=request.user))
        messages.success(request, _("%(name)s's data is erased: %(what)s.") % {"name": name,
                                                                              "what": joined(gone)})
        return redirect("classroom:class_detail", pk=classroom.pk)
    return render(request, "privacy/student_erase.html", {
        "student": student, "classroom": classroom, "form": form,
        "going": counts_in_words(erasure_preview(student=student)),
    })
