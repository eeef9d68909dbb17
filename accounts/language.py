"""Which language a person reads Numberdeck in (docs/i18n.md).

A signed-in person's own choice wins and lasts across sign-ins (User.language); a student who
has not chosen reads their class's language (Classroom.language; a child in several classes,
the first of them, by when they joined, that has one); otherwise, and for visitors,
LocaleMiddleware has already chosen from the language cookie or the browser's Accept-Language.
Sockets have no middleware: consumers call `user_language` and render inside
`translation.override(...)` themselves.
"""

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from .student_classes import active_memberships


def language_is_offered(code: str) -> bool:
    return code in dict(settings.LANGUAGES)


def user_language(*, user) -> str:
    """The language `user` chose, or their class's; "" when neither says (the browser decides)."""
    if not getattr(user, "is_authenticated", False):
        return ""
    if user.language and language_is_offered(user.language):
        return user.language
    if not getattr(user, "is_student", False):
        return ""
    # A child in several classes reads the language of the first of them that has one.
    for code in active_memberships(student=user).values_list("classroom__language", flat=True):
        if code and language_is_offered(code):
            return code
    return ""


class UserLanguageMiddleware:
    """After AuthenticationMiddleware and LocaleMiddleware: the person's own language over the
    browser's. LocaleMiddleware's response step then labels the answer (Content-Language)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        code = user_language(user=request.user)
        if code:
            translation.activate(code)
            request.LANGUAGE_CODE = code
        return self.get_response(request)


def user_set_language(*, user, code: str) -> None:
    """Keep `code` (one of settings.LANGUAGES) as `user`'s language across sign-ins. The
    language switcher (config/language.py) and the teacher's profile both write it here."""
    if not language_is_offered(code):
        raise ValueError(f"{code!r} is not one of settings.LANGUAGES")
    if user.language != code:
        user.language = code
        user.save(update_fields=["language"])


def browser_language(scope: dict) -> str:
    """The language a socket's browser asks for, as LocaleMiddleware would choose it for a
    page: the language cookie's, else the best offered one of the handshake's Accept-Language;
    "" when neither names one we offer."""
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME, "")
    if cookie and language_is_offered(cookie):
        return cookie
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept):
        if code == "*":
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return ""


def socket_language(*, user, scope: dict) -> str:
    """The language a socket renders in, worked out once at connect (a socket has no
    middleware): the person's own or their class's, else the browser's, else the site's
    default. Call it in a database thread: a student's class may be read."""
    return user_language(user=user) or browser_language(scope or {}) or settings.LANGUAGE_CODE


# The settings whose change (in a test) changes what the catalogues say: the caches of said
# words (accounts/template_i18n.py, games.rendering.event_line) are emptied when one changes.
CATALOGUE_SETTINGS = frozenset({"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "INSTALLED_APPS", "USE_L10N"})
