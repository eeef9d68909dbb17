"""Text a teacher types that others read next to other words: a student's name, a class's name
and grade, an assignment's or an arena's title, a teacher's own name.

One rule refuses, in all of them, the characters nobody can see: Unicode's "other" categories
(C*): controls such as NUL, format characters such as the bidirectional overrides and isolates
(U+202A-202E, U+2066-2069) and marks (U+200E, U+200F), which turn the words after them
around ("Class 5B" shown as "B5 ssalC", or a sentence that names the class read backwards),
and private-use or unassigned code points (a tab or a line break shows as a space, so it is
let through). Letters, digits and punctuation of every script are welcome.

Where such text is shown next to other words it is isolated (`<bdi>`), so that text saved
before the rule, or a name in another script, never turns the rest of the sentence around:
`{{ text|isolated }}` in templates (accounts/templatetags/typed_text.py), `sentence_html` for
a sentence built in Python (a message after an action). A page's <title> and an e-mail cannot
hold markup: there the text goes as it is.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy

HIDDEN_CHARACTERS = gettext_lazy(
    "It has characters that cannot be shown (control characters, such as ones that turn text "
    "around). Type it again without them.")


# Line breaks and tabs are controls too, but they show as a space (and names are tidied).
SPACES = frozenset("\t\n\r")


def has_hidden_characters(text: str) -> bool:
    return any(unicodedata.category(ch).startswith("C") and ch not in SPACES for ch in text or "")


def no_hidden_characters(value: str) -> None:
    """A form field's validator (`validators=[no_hidden_characters]`)."""
    if has_hidden_characters(value):
        raise ValidationError(HIDDEN_CHARACTERS, code="hidden_characters")


def isolated(text) -> SafeString:
    """Typed text as HTML, kept apart from the words around it."""
    return format_html("<bdi>{}</bdi>", text)


def sentence_html(sentence: str, values: dict) -> SafeString:
    """A translated sentence with %(name)s placeholders, as HTML: the sentence and each value
    escaped, a value given as `isolated(text)` kept apart from the words around it."""
    return mark_safe(conditional_escape(sentence) % {k: conditional_escape(v) for k, v in values.items()})
