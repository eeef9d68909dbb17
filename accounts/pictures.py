"""The 12 pictures of picture passwords: friendly, distinct, each with a word label.

A picture password is a sequence of 3 picture keys. The drawings are inline SVG in
`templates/accounts/_picture.svg.html`, so nothing depends on an emoji font. A child reads the
labels in their own language: `PICTURES[key]` is the label in the active language, a plain
string (a PDF's text, a joined list); `PICTURES.items()` gives lazy labels, for choices made at
import time and for templates.
"""

import secrets

from django.utils.translation import pgettext_lazy


class _Labels(dict):
    """Picture key -> label. Looking one up gives a plain string in the active language (lazy
    strings are not `str`, and some callers, reportlab among them, need one)."""

    def __getitem__(self, key: str) -> str:
        return str(super().__getitem__(key))


PICTURES = _Labels({
    "apple": pgettext_lazy("sign-in picture", "Apple"),
    "ball": pgettext_lazy("sign-in picture", "Ball"),
    "boat": pgettext_lazy("sign-in picture", "Boat"),
    "cat": pgettext_lazy("sign-in picture", "Cat"),
    "fish": pgettext_lazy("sign-in picture", "Fish"),
    "flower": pgettext_lazy("sign-in picture", "Flower"),
    "heart": pgettext_lazy("sign-in picture", "Heart"),
    "house": pgettext_lazy("sign-in picture", "House"),
    "moon": pgettext_lazy("sign-in picture", "Moon"),
    "star": pgettext_lazy("sign-in picture", "Star"),
    "sun": pgettext_lazy("sign-in picture", "Sun"),
    "tree": pgettext_lazy("sign-in picture", "Tree"),
})
PICTURE_KEYS = tuple(PICTURES)
PASSWORD_LENGTH = 3


def random_picture_password() -> list[str]:
    """Three different pictures, chosen with a cryptographic RNG."""
    keys = list(PICTURE_KEYS)
    chosen = []
    for _ in range(PASSWORD_LENGTH):
        chosen.append(keys.pop(secrets.randbelow(len(keys))))
    return chosen


def is_picture_sequence(value) -> bool:
    return (
        isinstance(value, (list, tuple))
        and len(value) == PASSWORD_LENGTH
        and all(v in PICTURES for v in value)
    )


def encode(sequence) -> str:
    return ",".join(sequence)


def decode(stored: str) -> list[str]:
    return [p for p in stored.split(",") if p] if stored else []


def labels(sequence) -> list[str]:
    return [PICTURES[p] for p in sequence]
