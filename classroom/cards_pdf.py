"""Printable sign-in cards as a PDF: 8 cards per page (2 × 4), A4 or US Letter.

Each card: the student's name, the class and its code, the 3 password pictures in order (drawn
as vector shapes with their word) and a QR code to /join?class=CODE&student=ID. The QR code
only pre-selects the student; the pictures are still needed to sign in.

The words are in the active language (the view chooses it: views/cards.py `cards_language`).
In a right-to-left language the card is mirrored: text from the right edge (drawRightString),
the QR code on the left, picture 1 on the right; each line is shaped by `pdf_text.for_pdf`.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import segno
from django.utils.translation import get_language_bidi, gettext as _, gettext_lazy
from reportlab.lib.colors import HexColor, black
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from accounts import pictures

from .pdf_pictures import draw_picture
from .pdf_text import for_pdf

PAPERS = {"a4": ("A4", A4), "letter": (gettext_lazy("US Letter"), LETTER)}
COLUMNS, ROWS = 2, 4
CARDS_PER_PAGE = COLUMNS * ROWS
MARGIN, GAP, PADDING = 10 * mm, 4 * mm, 4 * mm
INK, MUTED, LINE = HexColor("#1d2433"), HexColor("#4a5468"), HexColor("#8a8f9c")

# DejaVu covers accented and non-Latin names and Arabic; the built-in Helvetica only covers
# Latin-1. The font files ship with the code (classroom/fonts/, their licence beside them), so a
# machine with no fonts installed prints any name and any language.
_FONT_DIR = Path(__file__).resolve().parent / "fonts"
_FONT_FILES = {"regular": str(_FONT_DIR / "DejaVuSans.ttf"), "bold": str(_FONT_DIR / "DejaVuSans-Bold.ttf")}


def pdf_fonts() -> tuple[str, str]:
    """(regular, bold) font names for reportlab: DejaVu (any name prints), else Helvetica if
    the files were removed. The reports' PDFs use them too."""
    if all(Path(p).exists() for p in _FONT_FILES.values()):
        if "CardSans" not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont("CardSans", _FONT_FILES["regular"]))
            pdfmetrics.registerFont(TTFont("CardSans-Bold", _FONT_FILES["bold"]))
        return "CardSans", "CardSans-Bold"
    return "Helvetica", "Helvetica-Bold"


@dataclass(frozen=True)
class Card:
    name: str
    class_name: str
    code: str
    pictures: list[str]  # picture keys, in order
    link: str  # absolute /join?class=…&student=… URL for the QR code


def _fit(text: str, font: str, size: float, width: float, smallest: float = 8) -> tuple[str, float]:
    """Shrink long names to fit; cut with an ellipsis only if even the smallest size is too wide.
    `text` is in reading order; what comes back is ready to draw (shaped, in visual order)."""
    while size > smallest and pdfmetrics.stringWidth(for_pdf(text), font, size) > width:
        size -= 0.5
    # Cut the reading order's end (then shape), so a right-to-left name loses its last letters.
    while pdfmetrics.stringWidth(for_pdf(text), font, size) > width and len(text) > 1:
        text = text[:-2] + "…"
    return for_pdf(text), size


class _Line:
    """Draws lines of a text column that starts at `left` or, right to left, ends at `right`."""

    def __init__(self, c: Canvas, *, left: float, right: float, rtl: bool):
        self.c, self.left, self.right, self.rtl = c, left, right, rtl

    def draw(self, text: str, y: float, *, indent: float = 0) -> None:
        """`text` already shaped; `indent` from the column's start edge."""
        if self.rtl:
            self.c.drawRightString(self.right - indent, y, text)
        else:
            self.c.drawString(self.left + indent, y, text)


def _draw_qr(c: Canvas, link: str, x: float, y: float, size: float) -> None:
    qr = segno.make(link, error="m")
    rows = list(qr.matrix_iter(scale=1, border=4))  # the standard quiet zone
    module = size / len(rows)
    c.setFillColor(black)
    for r, row in enumerate(rows):
        for col, dark in enumerate(row):
            if dark:
                # Slightly oversized squares so no hairline gaps appear between modules.
                c.rect(x + col * module, y + size - (r + 1) * module, module + 0.1, module + 0.1,
                       fill=1, stroke=0)


def _draw_card(c: Canvas, card: Card, x: float, y: float, w: float, h: float, fonts, words: dict,
               rtl: bool) -> None:
    regular, bold = fonts
    c.setStrokeColor(LINE)
    c.setDash(3, 3)  # a cut line
    c.setLineWidth(0.7)
    c.roundRect(x, y, w, h, 3 * mm, stroke=1, fill=0)
    c.setDash()
    qr_size = min(h / 2 - PADDING, 26 * mm)
    text_width = w - 3 * PADDING - qr_size
    top = y + h - PADDING
    # Left to right: text on the left, the QR code on the right; mirrored right to left.
    text_left = x + PADDING + (qr_size + PADDING if rtl else 0)
    column = _Line(c, left=text_left, right=text_left + text_width, rtl=rtl)

    name, size = _fit(card.name, bold, 17, text_width)
    c.setFillColor(INK)
    c.setFont(bold, size)
    column.draw(name, top - size)
    class_line, class_size = _fit(card.class_name, regular, 9, text_width)
    c.setFillColor(MUTED)
    c.setFont(regular, class_size)
    column.draw(class_line, top - size - 5 * mm)
    c.setFillColor(INK)
    label, label_size = _fit(words["class_code"], regular, 9, text_width / 2, smallest=6)
    c.setFont(regular, label_size)
    column.draw(label, top - size - 10.5 * mm)
    c.setFont(bold, 14)
    # The code after its label (to its left, right to left); codes are Latin letters and digits.
    column.draw(card.code, top - size - 11 * mm,
                indent=pdfmetrics.stringWidth(label, regular, label_size) + 2 * mm)

    # The three pictures in order, numbered, each with its word, across the bottom (picture 1
    # where a reader starts: on the left, or on the right in a right-to-left language).
    box = min((w - 2 * PADDING - 2 * 2 * mm) / 3, 16 * mm)
    base = y + PADDING + 4 * mm
    for i, key in enumerate(card.pictures):
        slot = 2 - i if rtl else i
        left = x + PADDING + slot * (box + 2 * mm)
        draw_picture(c, key, left + 2 * mm, base + 1 * mm, box - 4 * mm)
        c.setFillColor(MUTED)
        c.setFont(bold, 7)
        if rtl:
            c.drawRightString(left + box, base + box - 2 * mm, str(i + 1))
        else:
            c.drawString(left, base + box - 2 * mm, str(i + 1))
        c.setFillColor(INK)
        word, word_size = _fit(str(pictures.PICTURES[key]), regular, 8, box + 2 * mm, smallest=6)
        c.setFont(regular, word_size)
        c.drawCentredString(left + box / 2, base - 3.5 * mm, word)

    qr_x = x + PADDING if rtl else x + w - PADDING - qr_size
    qr_y = y + h - PADDING - qr_size
    _draw_qr(c, card.link, qr_x, qr_y, qr_size)
    c.setFillColor(MUTED)
    c.setFont(regular, 6.5)
    # One sentence, wrapped to the QR code's width (in reading order, then each line shaped).
    for n, line in enumerate(simpleSplit(words["scan"], regular, 6.5, qr_size + PADDING)[:3]):
        c.drawCentredString(qr_x + qr_size / 2, qr_y - (2.5 + 2.5 * n) * mm, for_pdf(line))


def card_words() -> dict:
    """The words every card prints, in the active language."""
    return {
        "class_code": _("Class code"),
        # Translators: printed under the QR code of a child's sign-in card; "3" is the pictures' number.
        "scan": _("Scan, then tap your 3 pictures"),
    }


def render_cards(cards: list[Card], *, paper: str = "a4", title: str = "") -> bytes:
    """The PDF bytes: pages of up to 8 cards; an empty list gives one page that says so. The
    words are in the active language (translation.override around the call)."""
    pagesize = PAPERS[paper][1]
    fonts = pdf_fonts()
    rtl = get_language_bidi()
    words = card_words()
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=pagesize, pageCompression=1)
    c.setTitle(title or _("Sign-in cards"))  # the document's metadata: logical order, unshaped
    c.setAuthor("Numberdeck")
    page_w, page_h = pagesize
    card_w = (page_w - 2 * MARGIN - (COLUMNS - 1) * GAP) / COLUMNS
    card_h = (page_h - 2 * MARGIN - (ROWS - 1) * GAP) / ROWS
    if not cards:
        c.setFont(fonts[0], 14)
        _Line(c, left=MARGIN, right=page_w - MARGIN, rtl=rtl).draw(
            for_pdf(_("This class has no students yet.")), page_h - MARGIN - 14)
        c.showPage()
    for start in range(0, len(cards), CARDS_PER_PAGE):
        for i, card in enumerate(cards[start:start + CARDS_PER_PAGE]):
            col, row = i % COLUMNS, i // COLUMNS
            if rtl:  # the first card of a page where a reader starts: top right
                col = COLUMNS - 1 - col
            x = MARGIN + col * (card_w + GAP)
            y = page_h - MARGIN - (row + 1) * card_h - row * GAP
            _draw_card(c, card, x, y, card_w, card_h, fonts, words, rtl)
        c.showPage()
    c.save()
    return buffer.getvalue()
