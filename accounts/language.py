"""Which language a person reads Numberdeck in (docs/i18n.md).

A signed-in person's own choice wins and lasts across sign-ins (User.language); a student who
has not chosen reads their class's language (Classroom.language); otherwise, and for visitors,
LocaleMiddleware has already chosen from the language cookie or the browser's Accept-Language.
Sockets have no middleware: consumers call `user_language` and render inside
`translation.override(...)` themselves.
"""

from django.conf import settings
from django.utils import translation


def language_is_offered(code: str) -> bool:
    return code in dict(settings.LANGUAGES)


def user_language(*, user) -> str:
    """The language `user` chose, or their class's; "" when neither says (the browser decides)."""
    if not getattr(user, "is_authenticated", False):
        return ""
    if user.language and language_is_offered(user.language):
        return user.language
    classroom = user.classroom if user.classroom_id else None
    if classroom is not None and classroom.language and language_is_offered(classroom.language):
        return classroom.language
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
