from django import forms
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _, gettext_lazy

MAX_UPLOAD_BYTES = 10 * 1024 * 1024  # a district's whole roster, zipped, is far smaller


class BundleUploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("OneRoster bundle (.zip)"),
        help_text=gettext_lazy("The zip of CSV files your school's system exports (OneRoster 1.1 or 1.2), "
                               "at most 10 MB. Nothing changes until you have seen what it would do."),
        widget=forms.ClearableFileInput(attrs={"accept": ".zip,application/zip"}))
    source = forms.CharField(
        label=gettext_lazy("Roster source (optional)"), required=False, max_length=100,
        help_text=gettext_lazy("Which system sends this roster. Leave it empty to use the name in the "
                               "bundle; use the same name every time for the same system."))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(_("The file is %(size)s; a roster can be at most %(limit)s.") % {
                "size": filesizeformat(upload.size), "limit": filesizeformat(MAX_UPLOAD_BYTES)})
        return upload


class ApplyForm(forms.Form):
    confirm = forms.BooleanField(label=gettext_lazy("I have read the changes above: make them."))
    # The plan shown (plan.Plan.digest): a different plan by the time it is sent is not applied.
    digest = forms.CharField(widget=forms.HiddenInput, max_length=64)
