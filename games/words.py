"""The engines' sentences in the reader's language (games/engine/words.py explains `Words`).

`say(text)` is called where an engine's sentence becomes part of a page: inside a request, or
inside the `translation.override(...)` a socket renders in. Plain strings (names people typed,
anything already said) come back as they are.
"""

from __future__ import annotations

from django.utils import translation

from games.engine.words import Words


def say(text):
    if not isinstance(text, Words):
        return text
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
