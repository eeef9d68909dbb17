"""{% load language_choice %}{% language_choices as choices %}: the languages the switcher offers
(templates/_language_switcher.html).

Each is named in its own language, as settings.LANGUAGES writes it, never translated: a reader
looks for the name of the language they read. (Django's `get_available_languages` passes the
names through gettext, and Django's catalogues turn "English" into "Inglés".)
"""

from dataclasses import dataclass

from django import template
from django.conf import settings
from django.utils import translation

register = template.Library()


@dataclass(frozen=True)
class LanguageChoice:
    code: str
    name: str  # in its own language
    bidi: bool  # written right to left
    current: bool


@register.simple_tag
def language_choices() -> list[LanguageChoice]:
    current = translation.get_language()
    return [LanguageChoice(code=code, name=name, current=code == current,
                           bidi=code.split("-")[0] in settings.LANGUAGES_BIDI)
            for code, name in settings.LANGUAGES]
