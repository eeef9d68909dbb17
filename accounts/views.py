"""Account pages: teacher sign-up/sign-in/profile, and the student's /join flow.

Views stay thin: forms validate, services decide (including lockouts), selectors fetch.
"""

from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import services
from .forms import TeacherProfileForm, TeacherSignInForm, TeacherSignUpForm
from .permissions import is_student, is_teacher, teacher_required
from .throttle import too_many_tries


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
        messages.success(request, _("Welcome to Numberdeck, %(name)s!") % {"name": teacher.display_name})
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


def teacher_sign_in(request):
    form = TeacherSignInForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        result = services.teacher_check_credentials(
            request=request, email=form.cleaned_data["email"], password=form.cleaned_data["password"])
        if result.ok:
            login(request, result.found, backend="django.contrib.auth.backends.ModelBackend")
            next_url = request.GET.get("next", "")
            if next_url.startswith("/") and not next_url.startswith("//"):
                return redirect(next_url)
            return redirect("home")
        if result.wait_seconds:
            form.add_error(None, " ".join([too_many_tries(result.wait_seconds),
                                           _("If you have forgotten your password, you can reset it.")]))
        else:
            form.add_error(None, _("That e-mail and password don't match an account. Please try again."))
    return render(request, "accounts/login.html", {"form": form})


@require_POST
def sign_out(request):
    logout(request)
    # Still in the language the person was reading: the middleware chose it for this request.
    messages.info(request, _("You are signed out. See you next time!"))
    return redirect("home")


@teacher_required
@require_POST
def sign_out_everywhere(request):
    """End the teacher's sessions on every other device (and close their open games and
    dashboards); this one stays signed in."""
    services.user_end_sessions(user=request.user, keep_session_key=request.session.session_key or "")
    update_session_auth_hash(request, request.user)  # this session takes the new hash
    messages.success(request, _("You are signed out on every other device. This one stays signed in."))
    return redirect("accounts:teacher_profile")


@teacher_required
def teacher_profile(request):
    teacher = request.user
    initial = {"name": teacher.display_name, "email": teacher.email, "language": teacher.language}
    form = TeacherProfileForm(request.POST or None, initial=initial, teacher=teacher)
    if request.method == "POST" and form.is_valid():
        teacher = services.teacher_update_profile(teacher=teacher, **form.cleaned_data)
        # The message is read on the next page, which is already in the language just chosen.
        with translation.override(teacher.language or translation.get_language()):
            messages.success(request, _("Your profile is saved."))
        return redirect("accounts:teacher_profile")
    return render(request, "accounts/profile.html", {"form": form})


class TeacherPasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's reset-by-link page; a successful reset also forgives wrong sign-in tries, so
    the teacher can sign in with the new password at once, from any device."""

    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_valid(self, form):
        response = super().form_valid(form)
        services.teacher_password_was_reset(teacher=form.user)
        return response


def forbidden(request, exception=None):
    """Whose page it is, when the refusal says (accounts.permissions.NotForThisAccount)."""
    return render(request, "403.html", {"page_for": getattr(exception, "page_for", "")}, status=403)


def not_found(request, exception=None):
    return render(request, "404.html", status=404)
