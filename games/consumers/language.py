"""The language a socket renders in (issue #26): sockets have no middleware, so the consumer
works it out once, at connect, the way a page request does (accounts/language.py): the
person's own choice or their class's, else the language cookie, else the browser's
Accept-Language (sent with the socket's handshake), else the site's default. Every fragment
and message the socket sends is rendered inside `translation.override(...)` of it."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header

from accounts.language import language_is_offered, user_language


def _supported(code: str) -> str:
    try:
        return get_supported_language_variant(code)
    except LookupError:
        return ""


def browser_language(scope: dict) -> str:
    """The language cookie's, else the best of the handshake's Accept-Language ("" if none)."""
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME, "")
    if cookie and language_is_offered(cookie):
        return cookie
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept):
        if code != "*" and (found := _supported(code)):
            return found
    return ""


def socket_language(*, scope: dict, user) -> str:
    """Call in the database thread (a student's class may be read)."""
    return user_language(user=user) or browser_language(scope) or settings.LANGUAGE_CODE
