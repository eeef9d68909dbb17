"""The engines' sentences in the reader's language (games/engine/words.py explains `Words`).

`say(text)` is called where an engine's sentence becomes part of a page: inside a request, or
inside the `translation.override(...)` a socket renders in. Plain strings (names people typed,
anything already said) come back as they are.
"""

from __future__ import annotations

import re

from django.utils import translation

from accounts.numbers import format_number
from games.engine.words import Number, Words


def decimal_sign() -> str:
    """The reader's decimal sign ("." in English, "," in Spanish), from their number convention."""
    return format_number(1.5, digits=1)[1]


# An equation inside a right-to-left sentence ("لعب علي ÷: 12 ÷ 4 = 3 نقاط") would be laid
# out right to left too, as "3 = 4 ÷ 12": numbers are left to right one by one, but after an
# Arabic word the signs between them take the sentence's direction (after a Latin name they
# happen not to, which is why English names in tests hid it). Unicode's left-to-right isolate (LRI ... PDI)
# keeps each equation in the order the cards show it; the marks are invisible. Templates do
# the same with <bdi dir="ltr">; engine sentences are text, so they carry the marks themselves.
_OPERAND = r"(?:\d+(?:[.,]\d+)?|▢)"
_EQUATION = re.compile(rf"{_OPERAND}(?:[ \u00a0]*[×÷+−=][ \u00a0]*{_OPERAND})+")
LRI, PDI = "\u2066", "\u2069"


def isolated_equations(text: str) -> str:
    """`text` with each equation ("12 ÷ 4 = 3", "3 × 4") kept left to right."""
    return _EQUATION.sub(lambda m: f"{LRI}{m.group(0)}{PDI}", text)


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
    said = pattern % values if values else pattern
    return isolated_equations(said) if translation.get_language_bidi() else said


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
