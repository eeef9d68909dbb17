"""Account pages: teacher sign-up/sign-in/profile, and the student's /join flow.

Views stay thin: forms validate, services decide (including lockouts), selectors fetch.
"""

from django.contrib import messages
from django.contrib.auth import login, logout
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from classroom import codes
from classroom.selectors import class_by_join_code, students_of_class

from . import pictures, services
from .forms import (JoinCodeForm, PicturePasswordForm, StudentTextPasswordForm, TeacherProfileForm,
                    TeacherSignInForm, TeacherSignUpForm)
from .permissions import is_student, is_teacher, teacher_required


def home(request):
    if is_teacher(request.user):
        return redirect("classroom:teacher_home")
    if is_student(request.user):
        return redirect("classroom:student_home")
    return render(request, "home.html")


def teacher_sign_up(request):
    form = TeacherSignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        teacher = services.teacher_sign_up(name=form.cleaned_data["name"],
                                           email=form.cleaned_data["email"],
                                           password=form.cleaned_data["password"])
        login(request, teacher, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to Numberdeck, {teacher.display_name}!")
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


def _minutes_left(until) -> int:
    return max(1, round((until - timezone.now()).total_seconds() / 60))


def teacher_sign_in(request):
    form = TeacherSignInForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        result = services.teacher_check_credentials(
            request=request, email=form.cleaned_data["email"], password=form.cleaned_data["password"])
        if result.ok:
            login(request, result.user, backend="django.contrib.auth.backends.ModelBackend")
            next_url = request.GET.get("next", "")
            if next_url.startswith("/") and not next_url.startswith("//"):
                return redirect(next_url)
            return redirect("home")
        if result.locked_until:
            form.add_error(None, "Too many sign-in attempts. Please wait "
                                 f"{_minutes_left(result.locked_until)} minutes, or reset your password.")
        else:
            form.add_error(None, "That e-mail and password don't match an account. Please try again.")
    return render(request, "accounts/login.html", {"form": form})


@require_POST
def sign_out(request):
    logout(request)
    messages.info(request, "You are signed out. See you next time!")
    return redirect("home")


@teacher_required
def teacher_profile(request):
    teacher = request.user
    initial = {"name": teacher.display_name, "email": teacher.email}
    form = TeacherProfileForm(request.POST or None, initial=initial, teacher=teacher)
    if request.method == "POST" and form.is_valid():
        services.teacher_update_profile(teacher=teacher, **form.cleaned_data)
        messages.success(request, "Your profile is saved.")
        return redirect("accounts:teacher_profile")
    return render(request, "accounts/profile.html", {"form": form})


# ----- students: /join -> class code -> name -> pictures -----------------------------

def join(request):
    """Step 1: the class code. A sign-in card's QR code lands here with ?class=&student=,
    which only pre-selects: the pictures are still required."""
    code = codes.normalise(request.GET.get("class", ""))
    student_id = request.GET.get("student", "")
    if code and class_by_join_code(code=code):
        if student_id.isdigit():
            return redirect("accounts:join_pictures", code=code, student_id=int(student_id))
        return redirect("accounts:join_class", code=code)
    form = JoinCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        code = codes.normalise(form.cleaned_data["code"])
        if class_by_join_code(code=code):
            return redirect("accounts:join_class", code=code)
        form.add_error("code", "We couldn't find a class with that code. Check the letters with your teacher.")
    return render(request, "accounts/join_code.html", {"form": form})


def _class_or_404(code: str):
    classroom = class_by_join_code(code=codes.normalise(code))
    if classroom is None:
        raise Http404("No class with that code.")
    return classroom


def join_class(request, code: str):
    """Step 2: tap your name."""
    classroom = _class_or_404(code)
    return render(request, "accounts/join_names.html",
                  {"classroom": classroom, "students": students_of_class(classroom=classroom)})


def _student_or_404(classroom, student_id: int):
    student = students_of_class(classroom=classroom).filter(pk=student_id).first()
    if student is None:
        raise Http404("That student is not in this class.")
    return student


def _sign_in_student(request, student):
    login(request, student, backend="django.contrib.auth.backends.ModelBackend")
    services.user_touch_last_seen(user=student)
    return redirect("classroom:student_home")


def join_pictures(request, code: str, student_id: int):
    """Step 3: the picture password."""
    classroom = _class_or_404(code)
    student = _student_or_404(classroom, student_id)
    form = PicturePasswordForm(request.POST if request.method == "POST" else None)
    error = ""
    locked = services.throttle.locked_until(scope="picture", key=str(student.pk))
    if request.method == "POST":
        if not form.is_valid():
            error = "Pick three pictures, then press Go."
        else:
            result = services.student_check_picture_password(student=student, sequence=form.sequence)
            if result.ok:
                return _sign_in_student(request, student)
            locked = result.locked_until
            error = "" if locked else "That wasn't quite right. Have another go!"
    status = 429 if locked else (400 if error else 200)
    return render(request, "accounts/join_pictures.html", {
        "classroom": classroom, "student": student, "pictures": pictures.PICTURES.items(),
        "error": error, "locked_minutes": _minutes_left(locked) if locked else 0,
        "has_text_password": student.has_usable_password(),
    }, status=status)


def join_text(request, code: str, student_id: int):
    """A teacher may give a student a text password instead of pictures."""
    classroom = _class_or_404(code)
    student = _student_or_404(classroom, student_id)
    form = StudentTextPasswordForm(request.POST or None)
    locked = services.throttle.locked_until(scope="picture", key=str(student.pk))
    if request.method == "POST" and form.is_valid():
        result = services.student_check_text_password(student=student, password=form.cleaned_data["password"])
        if result.ok:
            return _sign_in_student(request, student)
        locked = result.locked_until
        if not locked:
            form.add_error("password", "That wasn't quite right. Have another go!")
    return render(request, "accounts/join_text.html", {
        "classroom": classroom, "student": student, "form": form,
        "locked_minutes": _minutes_left(locked) if locked else 0,
        "pictures_url": reverse("accounts:join_pictures", args=[classroom.join_code, student.pk]),
    }, status=429 if locked else 200)


def forbidden(request, exception=None):
    return render(request, "403.html", status=403)


def not_found(request, exception=None):
    return render(request, "404.html", status=404)
