"""Right-to-left text in our PDFs (the sign-in cards, the parent report): issue #26.

reportlab draws the characters of a string in the order given, left to right, each in its
isolated form: Arabic would come out backwards with its letters unjoined. Two kept libraries fix
that before drawing: arabic-reshaper picks each letter's joined form (initial, medial, final),
and python-bidi applies the Unicode bidirectional algorithm to put a line in visual order
(numbers and Latin names inside Arabic stay left to right). reportlab's own shaping needs
uharfbuzz, a compiled extension we do not otherwise need; these two are pure Python and small.
Draw a right-to-left line with `drawRightString` from the right margin.
"""

import unicodedata

import arabic_reshaper
from bidi.algorithm import get_display


def is_right_to_left(text: str) -> bool:
    """True when `text` has a letter of a right-to-left script (Arabic, Hebrew)."""
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def for_pdf(text: str) -> str:
    """One line of text as reportlab must be given it: shaped and in visual order when it holds
    right-to-left letters, unchanged otherwise."""
    if not is_right_to_left(text):
        return text
    return get_display(arabic_reshaper.reshape(text))
