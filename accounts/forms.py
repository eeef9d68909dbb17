from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import password_validation
from django.contrib.auth.forms import PasswordResetForm
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import pictures, services
from .language import user_language
from .models import User
from .throttle import too_many_tries
from .typed_text import no_hidden_characters

NAME_MAX = 60


class TeacherSignUpForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Your name"), max_length=NAME_MAX, strip=True,
                           validators=[no_hidden_characters])
    email = forms.EmailField(label=gettext_lazy("School e-mail"))
    password = forms.CharField(label=gettext_lazy("Password"), widget=forms.PasswordInput, strip=False,
                               help_text=gettext_lazy("At least 8 characters, not only numbers."))
    password_again = forms.CharField(label=gettext_lazy("Password again"), widget=forms.PasswordInput,
                                     strip=False)

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(role=User.Role.TEACHER, email__iexact=email).exists():
            raise forms.ValidationError(_("There is already an account with this e-mail. Try signing in."))
        return email

    def clean(self):
        data = super().clean()
        password, again = data.get("password"), data.get("password_again")
        if password and again and password != again:
            self.add_error("password_again", _("The two passwords are not the same."))
        elif password:
            probe = User(username=data.get("email", ""), email=data.get("email", ""),
                         display_name=data.get("name", ""))
            try:
                password_validation.validate_password(password, probe)
            except forms.ValidationError as exc:
                self.add_error("password", exc)
        return data


class TeacherSignInForm(forms.Form):
    email = forms.EmailField(label=gettext_lazy("E-mail"))
    password = forms.CharField(label=gettext_lazy("Password"), widget=forms.PasswordInput, strip=False)


def language_choices() -> list[tuple[str, str]]:
    """Each language named in its own language, as settings.LANGUAGES writes it (never
    translated, never a flag): a reader who cannot read the current one still finds theirs.
    Blank: the browser decides."""
    return [("", gettext_lazy("The browser's language")), *settings.LANGUAGES]


class LanguageSelect(forms.Select):
    """Each option says which language its name is in, so a screen reader reads "Español" in
    Spanish."""

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        if value:
            option["attrs"]["lang"] = value
        return option


class TeacherProfileForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Your name"), max_length=NAME_MAX, strip=True,
                           validators=[no_hidden_characters])
    email = forms.EmailField(label=gettext_lazy("E-mail"))
    language = forms.ChoiceField(label=gettext_lazy("Language"), choices=language_choices, required=False,
                                 widget=LanguageSelect,
                                 help_text=gettext_lazy("The language of your pages and e-mails."))

    def __init__(self, *args, teacher: User, **kwargs):
        super().__init__(*args, **kwargs)
        self.teacher = teacher

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        taken = User.objects.filter(role=User.Role.TEACHER, email__iexact=email).exclude(pk=self.teacher.pk)
        if taken.exists():
            raise forms.ValidationError(_("Another account already uses this e-mail."))
        return email


class JoinCodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Class code"), max_length=12, strip=True,
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
            raise forms.ValidationError(_("Pick three pictures, then press Go."))
        return super().clean()


class StudentTextPasswordForm(forms.Form):
    password = forms.CharField(label=gettext_lazy("Your password"), widget=forms.PasswordInput, strip=False)


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


class TeacherPasswordResetForm(PasswordResetForm):
    """Django's reset form; the e-mail is written in the recipient's language (their choice
    on their profile), not in whatever language the person asking happens to read."""

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email,
                  html_email_template_name=None):
        language = user_language(user=context["user"]) or translation.get_language()
        with translation.override(language):
            super().send_mail(subject_template_name, email_template_name, context, from_email,
                              to_email, html_email_template_name)
