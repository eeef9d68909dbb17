"""The class list: add students (one, pasted, CSV), and manage one student."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, ngettext
from django.views.decorators.http import require_POST

from accounts import pictures
from accounts import services as accounts
from accounts.permissions import may_erase_student_data, may_export_student_data, teacher_required
from accounts.typed_text import isolated, sentence_html

from .. import names, selectors, services
from ..forms import (CsvUploadForm, PastedNamesForm, PicturePasswordChoiceForm, StudentMoveForm,
                     StudentNameForm, TextPasswordForm)
from ..roster_input import RosterInputError, rows_from_csv, rows_from_text
from .common import confirm, teacher_class, teacher_student, teacher_student_class


def _add_page(request, classroom, *, single=None, pasted=None, upload=None, problems=None,
              active="one"):
    return render(request, "classroom/students_add.html", {
        "classroom": classroom, "active": active, "problems": problems or [],
        "single_form": single or StudentNameForm(),
        "paste_form": pasted or PastedNamesForm(),
        "csv_form": upload or CsvUploadForm(),
        "student_count": selectors.students_of_class(classroom=classroom).count(),
    })


def _added(request, classroom, students):
    """Says both what was added and how big the class is now: "3 students added" read as
    "3 students are in the class" when the class already had 7."""
    count = len(students)
    size = selectors.students_of_class(classroom=classroom).count()
    if count == 1:
        message = ngettext("%(name)s added; the class has %(size)s student.",
                           "%(name)s added; the class has %(size)s students.", size)
    else:
        # Translators: the first count is how many were added (more than one), the second the class's size.
        message = ngettext("%(count)s students added; the class has %(size)s student.",
                           "%(count)s students added; the class has %(size)s students.", size)
    messages.success(request, message % {"name": students[0].display_name, "count": count, "size": size})
    return redirect("classroom:class_detail", pk=classroom.pk)


@teacher_required
def students_add(request, pk: int):
    """The "Add students" page; posting here adds one student."""
    classroom = teacher_class(request, pk)
    form = StudentNameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            student = services.student_add(classroom=classroom, name=form.cleaned_data["name"])
        except services.RosterError as exc:
            form.add_error("name", exc.problems[0].reason)
        else:
            if "add_another" in request.POST:
                messages.success(request, _("%(name)s is in the class. Add the next one.")
                                 % {"name": student.display_name})
                return redirect("classroom:students_add", pk=classroom.pk)
            return _added(request, classroom, [student])
    return _add_page(request, classroom, single=form)


@teacher_required
def students_paste(request, pk: int):
    classroom = teacher_class(request, pk)
    form = PastedNamesForm(request.POST or None)
    problems = []
    if request.method == "POST" and form.is_valid():
        try:
            students = services.students_add(classroom=classroom,
                                             rows=rows_from_text(form.cleaned_data["names"]))
        except RosterInputError as exc:
            form.add_error("names", str(exc))
        except services.RosterError as exc:
            problems = exc.problems
            form.add_error(None, _nothing_added(len(problems)))
        else:
            return _added(request, classroom, students)
    return _add_page(request, classroom, pasted=form, problems=problems, active="paste")


@teacher_required
def students_import(request, pk: int):
    classroom = teacher_class(request, pk)
    form = CsvUploadForm(request.POST or None, request.FILES or None)
    problems = []
    if request.method == "POST" and form.is_valid():
        try:
            rows = rows_from_csv(form.cleaned_data["file"].read())
            students = services.students_add(classroom=classroom, rows=rows)
        except RosterInputError as exc:
            form.add_error("file", str(exc))
        except services.RosterError as exc:
            problems = exc.problems
            form.add_error(None, _nothing_added(len(problems)))
        else:
            return _added(request, classroom, students)
    return _add_page(request, classroom, upload=form, problems=problems, active="csv")


def _nothing_added(count: int) -> str:
    return ngettext("Nobody was added yet: %(count)s row needs fixing first. Fix it and try again.",
                    "Nobody was added yet: %(count)s rows need fixing first. Fix them and try again.",
                    count) % {"count": count}


# ----- one student ---------------------------------------------------------------------

def _classes_to_move_to(request, student):
    """The teacher's classes the child is not in now."""
    return selectors.classes_for_teacher(teacher=request.user).exclude(
        pk__in=selectors.classes_of_student_for_teacher(teacher=request.user, student=student).values("pk"))


def _student_page(request, student, *, rename=None, move=None, picture=None, text=None):
    rename = rename or StudentNameForm(initial={"name": student.display_name})
    classroom = teacher_student_class(request, student)
    other_classes = _classes_to_move_to(request, student)
    return render(request, "classroom/student_detail.html", {
        "student": student, "classroom": classroom,
        # The teacher's other classes the child is also in (never another teacher's classes).
        "also_in": [c for c in selectors.classes_of_student_for_teacher(teacher=request.user, student=student)
                    if c.pk != classroom.pk],
        "pictures": [(key, pictures.PICTURES[key]) for key in student.picture_sequence],
        "rename_form": rename,
        "move_form": move or StudentMoveForm(classes=other_classes),
        "has_other_classes": other_classes.exists(),
        "picture_form": picture or PicturePasswordChoiceForm(),
        "text_form": text or TextPasswordForm(),
        "has_text_password": student.has_usable_password(),
        "locked_until": accounts.student_lock_for_teacher(student=student),
        "may_erase_data": may_erase_student_data(request.user, student),
        "may_export_data": may_export_student_data(request.user, student),
        "in_several_classes": student.memberships.count() > 1,
    })


@teacher_required
def student_detail(request, pk: int):
    """The student's page; posting here renames them."""
    student = teacher_student(request, pk)
    form = StudentNameForm(request.POST or None, initial={"name": student.display_name})
    if request.method == "POST" and form.is_valid():
        try:
            services.student_rename(student=student, name=form.cleaned_data["name"])
        except names.InvalidName as exc:
            form.add_error("name", str(exc))
        else:
            messages.success(request, _("Renamed to %(name)s.") % {"name": student.display_name})
            return redirect(_student_url(student, teacher_student_class(request, student)))
    return _student_page(request, student, rename=form)


def _student_url(student, classroom) -> str:
    return reverse("classroom:student_detail", args=[student.pk]) + f"?class={classroom.pk}"


@teacher_required
@require_POST
def student_move(request, pk: int):
    """Move the child from the page's class to another of the teacher's classes (their other
    classes are not touched)."""
    student = teacher_student(request, pk)
    old_class = teacher_student_class(request, student)
    form = StudentMoveForm(request.POST, classes=_classes_to_move_to(request, student))
    if form.is_valid():
        to_classroom = form.cleaned_data["to_classroom"]
        try:
            services.student_move(student=student, from_classroom=old_class, to_classroom=to_classroom)
        except names.InvalidName as exc:
            form.add_error("to_classroom", str(exc))
        else:
            messages.success(request, sentence_html(_("%(name)s moved to %(class_name)s."), {
                "name": student.display_name, "class_name": isolated(to_classroom.name)}))
            return redirect("classroom:class_detail", pk=old_class.pk)
    return _student_page(request, student, move=form)


@teacher_required
def student_remove(request, pk: int):
    """Take the child off the page's class (`?class=`): that membership is archived; a child
    in other classes stays in them."""
    student = teacher_student(request, pk)
    classroom = teacher_student_class(request, student)
    if request.method == "POST":
        services.student_remove(student=student, classroom=classroom)
        messages.success(request, sentence_html(_("%(name)s is no longer in %(class_name)s."), {
            "name": student.display_name, "class_name": isolated(classroom.name)}))
        return redirect("classroom:class_detail", pk=classroom.pk)
    values = {"name": student.display_name, "class_name": classroom.name}
    in_other_classes = student.memberships.filter(archived_at__isnull=True).exclude(classroom=classroom).exists()
    first = (_("They leave this class list, and stay in their other classes.") if in_other_classes
             else _("They will not be able to sign in any more, and they leave the class list."))
    return confirm(
        request, title=_("Remove %(name)s?") % values, button=_("Remove from the class"),
        question=sentence_html(_("Remove %(name)s from “%(class_name)s”?"),
                               {**values, "class_name": isolated(classroom.name)}),
        details=[first, _("Their finished games stay in the class's records.")],
        cancel_url=_student_url(student, classroom), hidden={"classroom": classroom.pk})


@teacher_required
@require_POST
def student_pictures(request, pk: int):
    student = teacher_student(request, pk)
    form = PicturePasswordChoiceForm(request.POST)
    if not form.is_valid():
        return _student_page(request, student, picture=form)
    if form.sequence is None and request.POST.get("confirmed") != "yes":
        # New random pictures make the printed card wrong: ask first. (Chosen pictures are
        # already a deliberate choice.)
        name = {"name": student.display_name}
        return confirm(
            request, title=_("New pictures for %(name)s?") % name, button=_("Give new pictures"),
            question=_("Give %(name)s new random pictures?") % name,
            details=[_("Their current pictures, and the sign-in card printed with them, stop working."),
                     _("%(name)s is signed out on every device, and their open games close.") % name,
                     _("You will see the new pictures straight away; print a new card for them.")],
            cancel_url=_student_url(student, teacher_student_class(request, student)), danger=False,
            hidden={"confirmed": "yes", "classroom": teacher_student_class(request, student).pk})
    sequence = accounts.student_set_picture_password(student=student, sequence=form.sequence)
    # Translators: %(pictures)s lists the three pictures' names, "cat, sun, tree".
    messages.success(request, _("%(name)s's new pictures: %(pictures)s. They are signed out everywhere "
                                "until they sign in with them.")
                     % {"name": student.display_name, "pictures": ", ".join(pictures.labels(sequence))})
    return redirect(_student_url(student, teacher_student_class(request, student)))


@teacher_required
@require_POST
def student_text_password(request, pk: int):
    student = teacher_student(request, pk)
    if request.POST.get("action") == "clear":
        accounts.student_clear_text_password(student=student)
        messages.success(request, _("%(name)s signs in with pictures only now, and is signed out "
                                    "everywhere until they do.") % {"name": student.display_name})
        return redirect(_student_url(student, teacher_student_class(request, student)))
    form = TextPasswordForm(request.POST)
    if not form.is_valid():
        return _student_page(request, student, text=form)
    accounts.student_set_text_password(student=student, password=form.cleaned_data["password"])
    messages.success(request, _("%(name)s can now sign in with the text password you typed, or with "
                                "their pictures. They are signed out everywhere until they sign in "
                                "again.") % {"name": student.display_name})
    return redirect(_student_url(student, teacher_student_class(request, student)))


@teacher_required
@require_POST
def student_unlock(request, pk: int):
    """Too many wrong pictures rest a student's sign-in for a while; the teacher, standing
    next to them, can let them try again at once."""
    student = teacher_student(request, pk)
    accounts.student_unlock(student=student)
    messages.success(request, _("%(name)s can try their pictures again now.") % {"name": student.display_name})
    return redirect(_student_url(student, teacher_student_class(request, student)))
