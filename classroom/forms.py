"""Forms for classes, the class list, passwords and co-teachers (assignments: assignment_form.py).

Forms only check what was typed; services make the changes. Names go through `names.check`
so every form reports the same plain reasons.
"""

from django import forms
from django.conf import settings
from django.utils.translation import gettext as _, gettext_lazy, ngettext

from accounts import pictures
from accounts.typed_text import no_hidden_characters

from . import names
from .models import Classroom
from .roster_input import MAX_ROWS, MAX_UPLOAD_BYTES, column_names, too_big_message


class NameField(forms.CharField):
    """A student's name: tidied, at most 60 characters, no invisible control characters."""

    def __init__(self, **kwargs):
        kwargs.setdefault("label", gettext_lazy("Name"))
        # No max_length here: names.check gives the one message for every too-long name.
        super().__init__(strip=True, **kwargs)
        self.widget.attrs.update({"maxlength": names.NAME_MAX_LENGTH, "autocomplete": "off"})

    def clean(self, value):
        value = super().clean(value)
        try:
            return names.check(value)
        except names.InvalidName as exc:
            raise forms.ValidationError(str(exc)) from exc


class ClassForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Class name"), max_length=80, strip=True,
                           validators=[no_hidden_characters],
                           help_text=gettext_lazy("What you and your students call the class, e.g. “5B Maths”."))
    grade = forms.CharField(label=gettext_lazy("Grade or year (optional)"), max_length=20, required=False,
                            strip=True, validators=[no_hidden_characters])

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Please give the class a name."))
        return name


def class_language_choices() -> list[tuple[str, str]]:
    """Blank first (each student's browser decides), then every language the site offers,
    named in its own language so that whoever reads it finds theirs."""
    return [("", _("Each student's browser decides"))] + list(settings.LANGUAGES)


class LanguageSelect(forms.Select):
    """Each language's option says which language it is written in (`lang`, `dir`), so that a
    screen reader reads "Español" in Spanish and "العربية" in Arabic."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if value:
            option["attrs"]["lang"] = value
            option["attrs"]["dir"] = "rtl" if value.split("-")[0] in settings.LANGUAGES_BIDI else "ltr"
        return option


class ClassEditForm(ClassForm):
    free_play = forms.BooleanField(
        label=gettext_lazy("Free play: students may play any game, not only their assignments"),
        required=False)
    language = forms.ChoiceField(
        label=gettext_lazy("Language for students"), required=False, choices=class_language_choices,
        widget=LanguageSelect,
        help_text=gettext_lazy("The language students' pages are in, unless a student chooses another "
                               "one on their page."))


class ClassDeleteForm(forms.Form):
    typed_name = forms.CharField(label=gettext_lazy("Type the class name to confirm"), strip=True)

    def __init__(self, *args, classroom: Classroom, **kwargs):
        super().__init__(*args, **kwargs)
        self.classroom = classroom
        self.fields["typed_name"].widget.attrs["autocomplete"] = "off"

    def clean_typed_name(self):
        typed = " ".join(self.cleaned_data["typed_name"].split())
        if typed != " ".join(self.classroom.name.split()):
            raise forms.ValidationError(
                _("That is not the class name. Type “%(name)s” exactly to delete it.")
                % {"name": self.classroom.name})
        return typed


class StudentNameForm(forms.Form):
    name = NameField(label=gettext_lazy("Student's name"))


class PastedNamesForm(forms.Form):
    names = forms.CharField(
        label=gettext_lazy("Names, one per line"), strip=False,
        widget=forms.Textarea(attrs={"rows": 10, "autocomplete": "off", "spellcheck": "false"}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["names"].help_text = ngettext(
            "Paste from a spreadsheet or type them. Up to %(count)s name at a time.",
            "Paste from a spreadsheet or type them. Up to %(count)s names at a time.",
            MAX_ROWS) % {"count": MAX_ROWS}


class CsvUploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("CSV file"),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = _(
            "The first row must be the column names: “%(name)s”, and optionally “%(username)s”. "
            "Save it as “CSV UTF-8”; at most %(size)s KB.") % {**column_names(), "size": MAX_UPLOAD_BYTES // 1024}

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(too_big_message(upload.size))
        return upload


class StudentMoveForm(forms.Form):
    to_classroom = forms.ModelChoiceField(queryset=Classroom.objects.none(), label=gettext_lazy("Move to class"),
                                          empty_label=None)

    def __init__(self, *args, classes, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["to_classroom"].queryset = classes


class DuplicateForm(forms.Form):
    to_classroom = forms.ModelChoiceField(queryset=Classroom.objects.none(), label=gettext_lazy("Copy to class"),
                                          empty_label=None)

    def __init__(self, *args, classes, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["to_classroom"].queryset = classes


def picture_choices() -> list[tuple[str, str]]:
    return [("", _("Choose a picture"))] + list(pictures.PICTURES.items())


class PicturePasswordChoiceForm(forms.Form):
    """Three pictures chosen by the teacher (or leave all empty for random ones)."""

    first = forms.ChoiceField(label=gettext_lazy("First picture"), choices=picture_choices, required=False)
    second = forms.ChoiceField(label=gettext_lazy("Second picture"), choices=picture_choices, required=False)
    third = forms.ChoiceField(label=gettext_lazy("Third picture"), choices=picture_choices, required=False)

    def clean(self):
        data = super().clean()
        chosen = [data.get("first"), data.get("second"), data.get("third")]
        if any(chosen) and not all(chosen):
            raise forms.ValidationError(
                _("Choose all three pictures, or none to let Numberdeck pick them."))
        self.sequence = chosen if all(chosen) else None
        return data


class TextPasswordForm(forms.Form):
    password = forms.CharField(
        label=gettext_lazy("New text password"), min_length=4, max_length=64, strip=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
        help_text=gettext_lazy("At least 4 characters. Tell the student, or write it down for them."))


class InviteForm(forms.Form):
    email = forms.EmailField(label=gettext_lazy("Teacher's e-mail"),
                             help_text=gettext_lazy("We'll e-mail them a link. It works once, for 7 days."))
