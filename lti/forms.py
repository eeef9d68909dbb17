from django import forms
from django.utils.translation import gettext_lazy as _

from .selectors import lti_platform_exists


class PlatformForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=255,
                           help_text=_("For you: for example “District Moodle”."))
    issuer = forms.CharField(label=_("Issuer (platform ID)"), max_length=255)
    client_id = forms.CharField(label=_("Client ID"), max_length=255)
    deployment_ids = forms.CharField(label=_("Deployment IDs"), widget=forms.Textarea(attrs={"rows": 3}),
                                     help_text=_("One a line."))
    keyset_url = forms.URLField(label=_("Public keyset URL"), max_length=200, assume_scheme="https")
    auth_url = forms.URLField(label=_("Authentication request URL"), max_length=200, assume_scheme="https")
    token_url = forms.URLField(label=_("Access token URL"), max_length=200, assume_scheme="https")

    def clean_deployment_ids(self) -> list[str]:
        ids = [line.strip() for line in self.cleaned_data["deployment_ids"].splitlines() if line.strip()]
        if not ids:
            raise forms.ValidationError(_("Give at least one deployment ID."))
        if any(len(i) > 255 for i in ids):
            raise forms.ValidationError(_("A deployment ID is longer than 255 characters."))
        return ids

    def clean(self):
        data = super().clean()
        if data.get("issuer") and data.get("client_id") and \
                lti_platform_exists(issuer=data["issuer"], client_id=data["client_id"]):
            raise forms.ValidationError(_("This platform is already registered with this client ID."))
        return data
