"""Right-to-left text in our PDFs (the sign-in cards, the parent report): docs/i18n.md,
"PDFs in Arabic".

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
from bidi import get_display  # python-bidi 0.6: the Unicode algorithm with isolates


def is_right_to_left(text: str) -> bool:
    """True when `text` has a letter of a right-to-left script (Arabic, Hebrew)."""
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def for_pdf(text: str) -> str:
    """One line of text as reportlab must be given it: shaped and in visual order when it holds
    right-to-left letters, unchanged otherwise."""
    if not is_right_to_left(text):
        return text.translate(_ISOLATES)
    # The bidi algorithm reads the isolates (an equation kept left to right: games/words.py);
    # then they go, as the PDF's fonts have no glyph for them.
    return get_display(arabic_reshaper.reshape(text)).translate(_ISOLATES)


_ISOLATES = dict.fromkeys(range(0x2066, 0x206A))  # LRI, RLI, FSI, PDI
