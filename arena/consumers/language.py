"""The language an arena socket renders in, read once when it connects (a socket has no
LocaleMiddleware): the person's own choice or their class's (accounts.language.user_language),
else what their browser asked for when the socket opened (the language cookie, then
Accept-Language: what LocaleMiddleware would choose for a page), else the site's default. So a
push reads as the page it lands on, and it costs no query (the user is read at connect)."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.translation import trans_real

from accounts.language import user_language


def browser_language(scope) -> str:
    """The offered language a socket's browser asks for, or ""."""
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME, "")
    candidates = [cookie] if cookie else []
    accept = dict(scope.get("headers") or []).get(b"accept-language", b"").decode("latin-1")
    candidates += [code for code, _q in trans_real.parse_accept_lang_header(accept) if code != "*"]
    for code in candidates:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return ""


def socket_language(*, user, scope) -> str:
    """Call it from sync code (user_language may read a student's class)."""
    return user_language(user=user) or browser_language(scope) or settings.LANGUAGE_CODE
