"""The engines' sentences in the reader's language (games/engine/words.py explains `Words`).

`say(text)` is called where an engine's sentence becomes part of a page: inside a request, or
inside the `translation.override(...)` a socket renders in. Plain strings (names people typed,
anything already said) come back as they are.
"""

from __future__ import annotations

from django.utils import translation

from accounts.numbers import format_number
from games.engine.words import Number, Words


def decimal_sign() -> str:
    """The reader's decimal sign ("." in English, "," in Spanish), from their number convention."""
    return format_number(1.5, digits=1)[1]


def say(text):
    if not isinstance(text, Words):
        return text
    if isinstance(text, Number):  # "2.5" -> "2,5": only the sign changes (no grouping of digits)
        return str.__str__(text).replace(".", decimal_sign())
    values = {name: say(value) for name, value in text.values.items()}
    if text.plural is not None:
        if text.context is not None:
            pattern = translation.npgettext(text.context, text.msgid, text.plural, text.number)
        else:
            pattern = translation.ngettext(text.msgid, text.plural, text.number)
    elif text.context is not None:
        pattern = translation.pgettext(text.context, text.msgid)
    else:
        pattern = translation.gettext(text.msgid)
    return pattern % values if values else pattern


def say_all(texts) -> list:
    return [say(text) for text in texts]


class Spoken(str):
    """An engine's `Words` kept as its English self wherever it is data (a dict key, a
    spreadsheet cell, JSON, a stored title) and said in the reader's language wherever it is
    shown (`str()`, formatting, templates): game names and preset labels. A lazy translation
    would break the exports that write them as data."""

    words: Words

    def __new__(cls, words: Words) -> "Spoken":
        text = super().__new__(cls, words)
        text.words = words
        return text

    def __str__(self) -> str:
        return say(self.words)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __reduce__(self):  # a copy or a pickle keeps the English text only
        return (str, (str.__str__(self),))
