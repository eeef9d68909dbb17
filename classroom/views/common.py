"""Fetching what a view works on, through the selectors, and the shared confirmation page."""

from django.shortcuts import get_object_or_404, render

from accounts.permissions import is_class_owner

from ..models import Assignment, Classroom
from ..selectors import (assignments_for_teacher, classes_for_teacher, classes_of_student_for_teacher,
                         students_for_teacher)


def teacher_class(request, pk: int, *, archived: bool | None = False) -> Classroom:
    """One of the teacher's classes (active by default), else 404."""
    return get_object_or_404(classes_for_teacher(teacher=request.user, archived=archived), pk=pk)


def refused_unless_owner(request, classroom: Classroom):
    """None for the class's owner; for a co-teacher, the page that says only the owner may
    archive, restore or delete the class (403, nothing changed)."""
    if is_class_owner(request.user, classroom):
        return None
    return render(request, "classroom/owner_only.html", {"classroom": classroom}, status=403)


def teacher_student(request, pk: int):
    return get_object_or_404(students_for_teacher(teacher=request.user), pk=pk)


def teacher_student_class(request, student) -> Classroom:
    """Which class a student's page is about: the one its link names (`?class=`, or the
    posted `classroom`) when the child is in it and the teacher teaches it, else the first of
    the teacher's classes the child is in (a child in several classes is reached through each)."""
    classes = list(classes_of_student_for_teacher(teacher=request.user, student=student))
    wanted = request.POST.get("classroom") or request.GET.get("class") or ""
    return next((c for c in classes if str(c.pk) == wanted), classes[0])


def teacher_assignment(request, pk: int) -> Assignment:
    return get_object_or_404(assignments_for_teacher(teacher=request.user), pk=pk)


def confirm(request, *, title: str, question: str, button: str, cancel_url: str,
            details: list[str] | None = None, danger: bool = True, hidden: dict | None = None):
    """A page that asks before a destructive change; its form posts back to the same URL
    (with `hidden` fields, for actions that are themselves POST-only)."""
    return render(request, "classroom/confirm.html", {
        "title": title, "question": question, "button": button, "cancel_url": cancel_url,
        "details": details or [], "danger": danger, "hidden": (hidden or {}).items(),
    })
