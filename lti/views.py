"""The LTI pages: the OIDC login initiation and the launch (both reached from the platform),
Numberdeck's key set, and the administrators' page of platforms. docs/lti.md."""

import logging

from django.contrib import messages
from django.contrib.auth import login
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from lti_tool.views import jwks as lti_tool_jwks

from accounts.permissions import administrator_required

from . import launch as protocol
from .forms import PlatformForm
from .registration import lti_platform_register
from .selectors import lti_platforms
from .services import LaunchRefused, lti_launch_accept

log = logging.getLogger(__name__)
jwks = lti_tool_jwks  # Numberdeck's public keys, for the platforms (django-lti's view)


def _refused(request, message: str, status: int):
    return render(request, "lti/refused.html", {"message": message}, status=status)


def _invalid(request, error: protocol.LaunchInvalid):
    log.info("LTI message refused: %s", error.reason)
    return _refused(request, _("Numberdeck could not check this message from the learning platform, so "
                               "nothing was opened. Go back to the course and open Numberdeck again; if it "
                               "happens again, tell the school's administrator."), 400)


@csrf_exempt  # the platform's form, from another site; the state and nonce protect it
@require_http_methods(["GET", "POST"])
def oidc_login(request):
    try:
        return protocol.login_redirect(request, launch_url=request.build_absolute_uri(reverse("lti:launch")))
    except protocol.LaunchInvalid as error:
        return _invalid(request, error)


@csrf_exempt  # the platform posts the id token from another site; its signature protects it
@require_POST
def launch(request):
    try:
        landing = lti_launch_accept(launch=protocol.launch_validated(request))
    except protocol.LaunchInvalid as error:
        return _invalid(request, error)
    except LaunchRefused as refusal:
        return _refused(request, refusal.message, refusal.status)
    login(request, landing.user, backend="django.contrib.auth.backends.ModelBackend")
    if landing.user.is_teacher:
        return redirect("classroom:class_detail", landing.classroom.pk)
    return redirect("classroom:student_home")


@administrator_required
def platforms(request):
    form = PlatformForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        registration = lti_platform_register(**form.cleaned_data)
        messages.success(request, _("%(name)s is registered.") % {"name": registration.name})
        return redirect("lti:platforms")
    tool = {name: request.build_absolute_uri(reverse(f"lti:{name}")) for name in ("login", "launch", "jwks")}
    return render(request, "lti/platforms.html", {"form": form, "platforms": lti_platforms(), "tool": tool})
