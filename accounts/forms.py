from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import password_validation

from . import pictures, services
from .models import User
from .throttle import too_many_tries

NAME_MAX = 60


class TeacherSignUpForm(forms.Form):
    name = forms.CharField(label="Your name", max_length=NAME_MAX, strip=True)
    email = forms.EmailField(label="School e-mail")
    password = forms.CharField(label="Password", widget=forms.PasswordInput, strip=False,
                               help_text="At least 8 characters, not only numbers.")
    password_again = forms.CharField(label="Password again", widget=forms.PasswordInput, strip=False)

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(role=User.Role.TEACHER, email__iexact=email).exists():
            raise forms.ValidationError("There is already an account with this e-mail. Try signing in.")
        return email

    def clean(self):
        data = super().clean()
        password, again = data.get("password"), data.get("password_again")
        if password and again and password != again:
            self.add_error("password_again", "The two passwords are not the same.")
        elif password:
            probe = User(username=data.get("email", ""), email=data.get("email", ""),
                         display_name=data.get("name", ""))
            try:
                password_validation.validate_password(password, probe)
            except forms.ValidationError as exc:
                self.add_error("password", exc)
        return data


class TeacherSignInForm(forms.Form):
    email = forms.EmailField(label="E-mail")
    password = forms.CharField(label="Password", widget=forms.PasswordInput, strip=False)


class TeacherProfileForm(forms.Form):
    name = forms.CharField(label="Your name", max_length=NAME_MAX, strip=True)
    email = forms.EmailField(label="E-mail")

    def __init__(self, *args, teacher: User, **kwargs):
        super().__init__(*args, **kwargs)
        self.teacher = teacher

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        taken = User.objects.filter(role=User.Role.TEACHER, email__iexact=email).exclude(pk=self.teacher.pk)
        if taken.exists():
            raise forms.ValidationError("Another account already uses this e-mail.")
        return email


class JoinCodeForm(forms.Form):
    code = forms.CharField(
        label="Class code", max_length=12, strip=True,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                      "spellcheck": "false", "inputmode": "text"}),
    )


class PicturePasswordForm(forms.Form):
    """Three picture keys, in order, posted as repeated `picture` fields."""

    def __init__(self, data=None):
        super().__init__(data)
        self.sequence: list[str] = data.getlist("picture") if data is not None else []

    def clean(self):
        if not pictures.is_picture_sequence(self.sequence):
            raise forms.ValidationError("Pick three pictures, then press Go.")
        return super().clean()


class StudentTextPasswordForm(forms.Form):
    password = forms.CharField(label="Your password", widget=forms.PasswordInput, strip=False)


class LimitedAdminAuthenticationForm(AdminAuthenticationForm):
    """/admin/'s sign-in within the app's sign-in limits (accounts/throttle.py), on the same
    count per account as the teacher sign-in: two doors give no more tries than one."""

    def clean(self):
        username, password = self.cleaned_data.get("username"), self.cleaned_data.get("password")
        if username is None or not password:
            return self.cleaned_data  # the fields' own errors say what is missing
        result = services.password_check(request=self.request, username=username, password=password)
        if not result.ok:
            errors = [self.get_invalid_login_error()] if result.checked else []
            if result.wait_seconds:
                errors.append(forms.ValidationError(too_many_tries(result.wait_seconds), code="wait"))
            raise forms.ValidationError(errors)
        self.user_cache = result.found
        self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data
