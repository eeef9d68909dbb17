"""Sentences the engines say, in English, that the web layer can say in the reader's language.

The engine is pure Python (no Django: .importlinter), yet its sentences (events, reasons a card
can't be played, refused moves) are read by children in Spanish and Arabic (docs/i18n.md). So an
engine sentence is a `Words`: a plain `str` holding the English text, as every caller and test
already reads it, that also carries its message id and named values. The web layer
(games/words.py `say`) looks the message id up in the reader's catalogue and fills in the
values, themselves said in the reader's language when they are `Words` too.

Shown (`str()`, `%s`, a template), a `Words` is said through the
translator the web layer installs at start-up (`set_translator`, from games/apps.py), so a
measure's title or a sentence reads in the reader's language even on pages that never call
`say`; as data (a dict key, JSON, a spreadsheet cell, a stored field) it stays its English self.
Without a translator (the engine on its own, its tests, the bench) it is plain English.

The helpers are named like gettext's functions on purpose: `makemessages` (xgettext)
finds their literal message ids in the engine's modules (`_`, `ngettext`, `pgettext`,
`npgettext`, `ngettext_lazy` are among its keywords), so the engine's sentences land in the games catalogue like any other string.
"""

from __future__ import annotations

from collections.abc import Callable

_translator: Callable[["Words"], str] | None = None


def set_translator(translator: Callable[["Words"], str] | None) -> None:
    """How a `Words` is said when shown (the web layer's `games.words.say`)."""
    global _translator
    _translator = translator


class Words(str):
    """English text, plus what is needed to say it in another language."""

    msgid: str
    plural: str | None
    number: int | None
    context: str | None
    values: dict

    def __new__(cls, english: str, *, msgid: str, values: dict, plural: str | None = None,
                count: int | None = None, context: str | None = None) -> "Words":
        text = super().__new__(cls, english)
        text.msgid, text.values, text.plural, text.number, text.context = msgid, values, plural, count, context
        return text

    def __str__(self) -> str:
        return _translator(self) if _translator is not None else str.__str__(self)

    def __format__(self, spec: str) -> str:
        # An f-string builds English from English: a sentence the web layer cannot take apart
        # (a verdict) is better all English than half translated.
        return format(str.__str__(self), spec)

    def __reduce__(self):  # pickling (a cache, a copy) keeps the English text only
        return (str, (str.__str__(self),))


def _fill(text: str, values: dict) -> str:
    # The English text from the English values (`%s` would say a `Words` value through the translator).
    english = {name: str.__str__(v) if isinstance(v, Words) else v for name, v in values.items()}
    return text % english if values else text


def _(msgid: str, /, **values) -> Words:
    """A sentence; `values` fill its %(name)s placeholders."""
    return Words(_fill(msgid, values), msgid=msgid, values=values)


def ngettext(singular: str, plural: str, count: int, /, **values) -> Words:
    """A sentence that depends on a count (`count` is also a value when the text names it)."""
    return Words(_fill(singular if count == 1 else plural, values), msgid=singular, values=values,
                 plural=plural, count=count)


def pgettext(context: str, msgid: str, /, **values) -> Words:
    """A word or sentence whose meaning needs a context for the translator (a card's name)."""
    return Words(_fill(msgid, values), msgid=msgid, values=values, context=context)


def npgettext(context: str, singular: str, plural: str, count: int, /, **values) -> Words:
    """A counted sentence that also needs a context for the translator."""
    return Words(_fill(singular if count == 1 else plural, values), msgid=singular, values=values,
                 plural=plural, count=count, context=context)


class Number(Words):
    """A number that is not whole, written with a dot ("2.5"): the web layer writes it with the
    reader's decimal sign ("2,5"). Never a message id of its own."""

    def __new__(cls, text: str) -> "Number":
        return super().__new__(cls, text, msgid=text, values={})


class Plural:
    """A counted phrase whose count comes later, like Django's `ngettext_lazy` (a keyword
    `makemessages` knows): `of(count, **values)` is its `Words` for that count."""

    __slots__ = ("singular", "plural")

    def __init__(self, singular: str, plural: str):
        self.singular, self.plural = singular, plural

    def of(self, count: int, /, **values) -> Words:
        return ngettext(self.singular, self.plural, count, **values)

    def __eq__(self, other) -> bool:
        return isinstance(other, Plural) and (self.singular, self.plural) == (other.singular, other.plural)

    def __hash__(self) -> int:
        return hash((self.singular, self.plural))

    def __repr__(self) -> str:
        return f"Plural({self.singular!r}, {self.plural!r})"


def ngettext_lazy(singular: str, plural: str, /) -> Plural:
    """A counted phrase declared now and counted later (`Plural`)."""
    return Plural(singular, plural)


def listed(parts: list[str]) -> str:
    """"A, B, C" with the reader's comma (Arabic "،"): a list that does not end in "and"."""
    if not parts:
        return ""
    head = parts[0]
    for part in parts[1:]:
        # Translators: a list goes on: "Ann, Ben" (then " and Cal").
        head = _("%(names)s, %(next)s", names=head, next=part)  # each part stays itself (a card's words are said)
    return head


def names_in_words(names: list[str]) -> str:
    """"Ann", "Ann and Ben", "Ann, Ben and Cal", in the reader's language."""
    if len(names) < 2:
        return names[0] if names else ""  # as it is: a `Words` stays one
    # Translators: the end of a list of names: "Ann, Ben and Cal" (%(names)s is "Ann, Ben").
    return _("%(names)s and %(last)s", names=listed(names[:-1]), last=names[-1])
