"""Forms for classes, the class list, passwords and co-teachers (assignments: assignment_form.py).

Forms only check what was typed; services make the changes. Names go through `names.check`
so every form reports the same plain reasons.
"""

from django import forms

from accounts import pictures

from . import names
from .models import Classroom
from .roster_input import MAX_ROWS, MAX_UPLOAD_BYTES


class NameField(forms.CharField):
    """A student's name: tidied, at most 60 characters, no invisible control characters."""

    def __init__(self, **kwargs):
        kwargs.setdefault("label", "Name")
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
    name = forms.CharField(label="Class name", max_length=80, strip=True,
                           help_text="What you and your students call the class, e.g. “5B Maths”.")
    grade = forms.CharField(label="Grade or year (optional)", max_length=20, required=False, strip=True)

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("Please give the class a name.")
        return name


class ClassEditForm(ClassForm):
    free_play = forms.BooleanField(
        label="Free play: students may play any game, not only their assignments", required=False)


class ClassDeleteForm(forms.Form):
    typed_name = forms.CharField(label="Type the class name to confirm", strip=True)

    def __init__(self, *args, classroom: Classroom, **kwargs):
        super().__init__(*args, **kwargs)
        self.classroom = classroom
        self.fields["typed_name"].widget.attrs["autocomplete"] = "off"

    def clean_typed_name(self):
        typed = " ".join(self.cleaned_data["typed_name"].split())
        if typed != " ".join(self.classroom.name.split()):
            raise forms.ValidationError(
                f"That is not the class name. Type “{self.classroom.name}” exactly to delete it.")
        return typed


class StudentNameForm(forms.Form):
    name = NameField(label="Student's name")


class PastedNamesForm(forms.Form):
    names = forms.CharField(
        label="Names, one per line", strip=False,
        widget=forms.Textarea(attrs={"rows": 10, "autocomplete": "off", "spellcheck": "false"}),
        help_text=f"Paste from a spreadsheet or type them. Up to {MAX_ROWS} names at a time.")


class CsvUploadForm(forms.Form):
    file = forms.FileField(
        label="CSV file",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
        help_text="The first row must be the column names: “name”, and optionally “username”. "
                  f"Save it as “CSV UTF-8”; at most {MAX_UPLOAD_BYTES // 1024} KB.")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                f"This file is too big ({upload.size // 1024} KB). A class list should be under "
                f"{MAX_UPLOAD_BYTES // 1024} KB; please upload at most {MAX_ROWS} students at a time.")
        return upload


class StudentMoveForm(forms.Form):
    to_classroom = forms.ModelChoiceField(queryset=Classroom.objects.none(), label="Move to class",
                                          empty_label=None)

    def __init__(self, *args, classes, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["to_classroom"].queryset = classes


class DuplicateForm(forms.Form):
    to_classroom = forms.ModelChoiceField(queryset=Classroom.objects.none(), label="Copy to class",
                                          empty_label=None)

    def __init__(self, *args, classes, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["to_classroom"].queryset = classes


PICTURE_CHOICES = [("", "Choose a picture")] + list(pictures.PICTURES.items())


class PicturePasswordChoiceForm(forms.Form):
    """Three pictures chosen by the teacher (or leave all empty for random ones)."""

    first = forms.ChoiceField(label="First picture", choices=PICTURE_CHOICES, required=False)
    second = forms.ChoiceField(label="Second picture", choices=PICTURE_CHOICES, required=False)
    third = forms.ChoiceField(label="Third picture", choices=PICTURE_CHOICES, required=False)

    def clean(self):
        data = super().clean()
        chosen = [data.get("first"), data.get("second"), data.get("third")]
        if any(chosen) and not all(chosen):
            raise forms.ValidationError(
                "Choose all three pictures, or none to let Numberdeck pick them.")
        self.sequence = chosen if all(chosen) else None
        return data


class TextPasswordForm(forms.Form):
    password = forms.CharField(
        label="New text password", min_length=4, max_length=64, strip=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
        help_text="At least 4 characters. Tell the student, or write it down for them.")


class InviteForm(forms.Form):
    email = forms.EmailField(label="Teacher's e-mail",
                             help_text="We'll e-mail them a link. It works once, for 7 days.")
