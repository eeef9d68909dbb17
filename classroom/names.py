"""Student names as teachers type them and children tap them.

Names are tidied (trimmed, inner spaces collapsed) and compared without regard to case,
because two buttons reading "Ann" and "ann" on the sign-in screen look like the same child.
"""

from __future__ import annotations

from django.utils.translation import gettext as _, ngettext

from accounts.typed_text import HIDDEN_CHARACTERS, has_hidden_characters

NAME_MAX_LENGTH = 60  # accounts.User.display_name


class InvalidName(ValueError):
    """A name that cannot be used; the message is for a teacher."""


def tidy(raw: str) -> str:
    return " ".join((raw or "").split())


def check(raw: str) -> str:
    """The tidied name, or InvalidName with a reason a teacher can act on."""
    name = tidy(raw)
    if not name:
        raise InvalidName(_("The name is empty."))
    if len(name) > NAME_MAX_LENGTH:
        raise InvalidName(ngettext("The name is longer than %(count)s character.",
                                   "The name is longer than %(count)s characters.",
                                   NAME_MAX_LENGTH) % {"count": NAME_MAX_LENGTH})
    if has_hidden_characters(name):
        raise InvalidName(str(HIDDEN_CHARACTERS))
    return name


def key(name: str) -> str:
    """What makes two names 'the same' on the sign-in screen."""
    return tidy(name).casefold()


def suggestions(name: str, taken: set[str]) -> list[str]:
    """Two free alternatives for a name already in use, e.g. "Ann B." and "Ann 2".

    `taken` holds `key()`s of names in use. The initial is a placeholder for the child's
    surname initial: the teacher knows it, we only show the pattern with a free example.
    """
    name = tidy(name)
    with_initial = next(
        (candidate for letter in "BCDEFGHJKLMNPRSTVWAIOQUXYZ"
         if key(candidate := f"{name} {letter}.") not in taken),
        None,
    )
    number = 2
    while key(f"{name} {number}") in taken:
        number += 1
    return [s for s in (with_initial, f"{name} {number}") if s and len(s) <= NAME_MAX_LENGTH]


def tell_apart_hint(name: str, taken: set[str]) -> str:
    options = suggestions(name, taken)
    if len(options) == 2:
        # Translators: two suggested names for a student, such as “Ann B.” and “Ann 2”.
        return _("Add something to tell them apart, such as “%(first)s” or “%(second)s”.") % {
            "first": options[0], "second": options[1]}
    if options:
        return _("Add something to tell them apart, such as “%(name)s”.") % {"name": options[0]}
    return _("Add something to tell them apart.")


def duplicate_message(name: str, taken: set[str]) -> str:
    return (_("There is already a student called “%(name)s” in this class.") % {"name": tidy(name)}
            + " " + tell_apart_hint(name, taken))
