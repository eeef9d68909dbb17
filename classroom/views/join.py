"""Students sign in: /join -> class code -> tap your name -> tap your pictures (or a text
password the teacher gave). The checks and their limits are accounts.services'."""

from django.contrib.auth import login
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts import codes, pictures
from accounts import services as accounts
from accounts.forms import JoinCodeForm, PicturePasswordForm, StudentTextPasswordForm
from accounts.student_classes import remember_working_class
from accounts.throttle import source_of, too_many_tries

from ..selectors import class_by_join_code, students_of_class


# ----- students: /join -> class code -> name -> pictures -----------------------------

def _find_class(request, code: str):
    """The class with this code, or None, and how long this device must wait before its next
    code. Every way of trying a code (the form, the QR link, the URL) is limited per device and
    per network address (accounts.services.class_code_check), so codes can't be guessed fast."""
    code = codes.normalise(code)
    result = accounts.class_code_check(
        source=source_of(request),
        find=lambda: class_by_join_code(code=code) if codes.is_well_formed(code) else None)
    return result.found, result.wait_seconds


def _too_many_codes(wait_seconds: int) -> str:
    return too_many_tries(wait_seconds) + " " + _("Or ask your teacher for the code.")


def join(request):
    """Step 1: the class code. A sign-in card's QR code lands here with ?class=&student=,
    which only pre-selects: the pictures are still required."""
    form = JoinCodeForm(request.POST or None)
    status = 200
    if request.GET.get("class"):
        classroom, wait = _find_class(request, request.GET["class"])
        student_id = request.GET.get("student", "")
        if classroom is not None and student_id.isdigit():
            return redirect("classroom:join_pictures", code=classroom.join_code, student_id=int(student_id))
        if classroom is not None:
            return redirect("classroom:join_class", code=classroom.join_code)
        if wait:
            form.add_error(None, _too_many_codes(wait))
            status = 429
    if request.method == "POST" and form.is_valid():
        classroom, wait = _find_class(request, form.cleaned_data["code"])
        if classroom is not None:
            return redirect("classroom:join_class", code=classroom.join_code)
        if wait:
            form.add_error("code", _too_many_codes(wait))
            status = 429
        else:
            form.add_error("code", _("We couldn't find a class with that code. Check the letters with your teacher."))
    return render(request, "accounts/join_code.html", {"form": form}, status=status)


def _class_or_404(request, code: str):
    classroom, _wait = _find_class(request, code)
    if classroom is None:
        raise Http404("No class with that code.")
    return classroom


def join_class(request, code: str):
    """Step 2: tap your name."""
    classroom = _class_or_404(request, code)
    return render(request, "accounts/join_names.html",
                  {"classroom": classroom, "students": students_of_class(classroom=classroom)})


def _student_or_404(classroom, student_id: int):
    student = students_of_class(classroom=classroom).filter(pk=student_id).first()
    if student is None:
        raise Http404("That student is not in this class.")
    return student


def _sign_in_student(request, student, classroom):
    """Sign in; the class whose code they typed is the class they work in (a child in
    several classes signs in through any of them)."""
    login(request, student, backend="django.contrib.auth.backends.ModelBackend")
    remember_working_class(request, classroom_id=classroom.pk)
    accounts.user_touch_last_seen(user=student)
    return redirect("classroom:student_home")


def join_pictures(request, code: str, student_id: int):
    """Step 3: the picture password."""
    classroom = _class_or_404(request, code)
    student = _student_or_404(classroom, student_id)
    form = PicturePasswordForm(request.POST if request.method == "POST" else None)
    error = ""
    wait = accounts.student_sign_in_wait(student=student, source=source_of(request))
    status = 429 if wait else 200
    if request.method == "POST":
        if not form.is_valid():
            # Translators: "Go" is the button's word on the picture sign-in page (accounts' page).
            error, status = _("Pick three pictures, then press Go."), 400
        else:
            result = accounts.student_check_picture_password(student=student, sequence=form.sequence,
                                                             source=source_of(request))
            if result.ok:
                return _sign_in_student(request, student, classroom)
            wait, status = result.wait_seconds, 429 if result.wait_seconds else 400
            error = _("That wasn't quite right. Have another go!") if result.checked else ""
    return render(request, "accounts/join_pictures.html", {
        "classroom": classroom, "student": student, "pictures": pictures.PICTURES.items(),
        "error": error, "wait": too_many_tries(wait) if wait else "",
        "has_text_password": student.has_usable_password(),
    }, status=status)


def join_text(request, code: str, student_id: int):
    """A teacher may give a student a text password instead of pictures."""
    classroom = _class_or_404(request, code)
    student = _student_or_404(classroom, student_id)
    form = StudentTextPasswordForm(request.POST or None)
    wait = accounts.student_sign_in_wait(student=student, source=source_of(request))
    if request.method == "POST" and form.is_valid():
        result = accounts.student_check_text_password(student=student, password=form.cleaned_data["password"],
                                                     source=source_of(request))
        if result.ok:
            return _sign_in_student(request, student, classroom)
        wait = result.wait_seconds
        if result.checked:
            form.add_error("password", _("That wasn't quite right. Have another go!"))
    return render(request, "accounts/join_text.html", {
        "classroom": classroom, "student": student, "form": form,
        "wait": too_many_tries(wait) if wait else "",
        "pictures_url": reverse("classroom:join_pictures", args=[classroom.join_code, student.pk]),
    }, status=429 if wait else 200)
