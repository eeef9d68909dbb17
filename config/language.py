"""Choosing the language (docs/i18n.md, "Which language a person reads"): the switcher every page's footer shows
(templates/_language_switcher.html) posts here.

Django's own `set_language` view only sets the cookie; here a signed-in person's choice is also
kept on their account (User.language), so it lasts across sign-ins and devices and beats their
class's language. The cookie is what a visitor's choice lives in, and what still applies after
signing out on this browser.
"""

from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.language import language_is_offered, user_set_language


def _safe_next(request: HttpRequest) -> str:
    """Back where the switcher was, when that is a page of this site; else the start page. Not
    back here: the CSRF refusal of a choice shows the switcher with this address as its page."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                       require_https=request.is_secure()) \
            and urlsplit(target).path != request.path:
        return target
    return reverse("home")


@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    code = request.POST.get("language", "")
    if not language_is_offered(code):
        # A plain answer: only a hand-made request gets here (the switcher offers the list).
        return HttpResponseBadRequest(_("That language is not offered."),
                                      content_type="text/plain; charset=utf-8")
    if request.user.is_authenticated:
        user_set_language(user=request.user, code=code)
    response = HttpResponseRedirect(_safe_next(request))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, code,
        max_age=settings.LANGUAGE_COOKIE_AGE, path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN, secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY, samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response
