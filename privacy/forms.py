from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User


class EraseStudentForm(forms.Form):
    """The second confirmation of an erasure: the student's name, typed."""

    typed_name = forms.CharField(label=gettext_lazy("Type the student's name to confirm"), strip=True)

    def __init__(self, *args, student: User, **kwargs):
        super().__init__(*args, **kwargs)
        self.student = student
        self.fields["typed_name"].widget.attrs["autocomplete"] = "off"

    def clean_typed_name(self):
        typed = " ".join(self.cleaned_data["typed_name"].split())
        if typed.casefold() != " ".join(self.student.display_name.split()).casefold():
            raise forms.ValidationError(
                _("That is not the student's name. Type “%(name)s” to erase their data.")
                % {"name": self.student.display_name})
        return typed
