"""Printable sign-in cards as a PDF: 8 cards per page (2 × 4), A4 or US Letter.

Each card: the student's name, the class and its code, the 3 password pictures in order (drawn
as vector shapes with their word) and a QR code to /join?class=CODE&student=ID. The QR code
only pre-selects the student; the pictures are still needed to sign in.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import segno
from reportlab.lib.colors import HexColor, black
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from accounts import pictures

from .pdf_pictures import draw_picture

PAPERS = {"a4": ("A4", A4), "letter": ("US Letter", LETTER)}
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
    """Shrink long names to fit; cut with an ellipsis only if even the smallest size is too wide."""
    while size > smallest and pdfmetrics.stringWidth(text, font, size) > width:
        size -= 0.5
    while pdfmetrics.stringWidth(text, font, size) > width and len(text) > 1:
        text = text[:-2] + "…"
    return text, size


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


def _draw_card(c: Canvas, card: Card, x: float, y: float, w: float, h: float, fonts) -> None:
    regular, bold = fonts
    c.setStrokeColor(LINE)
    c.setDash(3, 3)  # a cut line
    c.setLineWidth(0.7)
    c.roundRect(x, y, w, h, 3 * mm, stroke=1, fill=0)
    c.setDash()
    qr_size = min(h / 2 - PADDING, 26 * mm)
    text_width = w - 3 * PADDING - qr_size
    top = y + h - PADDING

    name, size = _fit(card.name, bold, 17, text_width)
    c.setFillColor(INK)
    c.setFont(bold, size)
    c.drawString(x + PADDING, top - size, name)
    class_line, class_size = _fit(card.class_name, regular, 9, text_width)
    c.setFillColor(MUTED)
    c.setFont(regular, class_size)
    c.drawString(x + PADDING, top - size - 5 * mm, class_line)
    c.setFillColor(INK)
    c.setFont(regular, 9)
    c.drawString(x + PADDING, top - size - 10.5 * mm, "Class code")
    c.setFont(bold, 14)
    c.drawString(x + PADDING + 18 * mm, top - size - 11 * mm, card.code)

    # The three pictures in order, numbered, each with its word, across the bottom.
    box = min((w - 2 * PADDING - 2 * 2 * mm) / 3, 16 * mm)
    base = y + PADDING + 4 * mm
    for i, key in enumerate(card.pictures):
        left = x + PADDING + i * (box + 2 * mm)
        draw_picture(c, key, left + 2 * mm, base + 1 * mm, box - 4 * mm)
        c.setFillColor(MUTED)
        c.setFont(bold, 7)
        c.drawString(left, base + box - 2 * mm, str(i + 1))
        c.setFillColor(INK)
        c.setFont(regular, 8)
        c.drawCentredString(left + box / 2, base - 3.5 * mm, pictures.PICTURES[key])

    qr_x = x + w - PADDING - qr_size
    qr_y = y + h - PADDING - qr_size
    _draw_qr(c, card.link, qr_x, qr_y, qr_size)
    c.setFillColor(MUTED)
    c.setFont(regular, 6.5)
    c.drawCentredString(qr_x + qr_size / 2, qr_y - 2.5 * mm, "Scan, then tap")
    c.drawCentredString(qr_x + qr_size / 2, qr_y - 5 * mm, "your 3 pictures")


def render_cards(cards: list[Card], *, paper: str = "a4", title: str = "Sign-in cards") -> bytes:
    """The PDF bytes: pages of up to 8 cards; an empty list gives one page that says so."""
    _, pagesize = PAPERS[paper]
    fonts = pdf_fonts()
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=pagesize, pageCompression=1)
    c.setTitle(title)
    c.setAuthor("Numberdeck")
    page_w, page_h = pagesize
    card_w = (page_w - 2 * MARGIN - (COLUMNS - 1) * GAP) / COLUMNS
    card_h = (page_h - 2 * MARGIN - (ROWS - 1) * GAP) / ROWS
    if not cards:
        c.setFont(fonts[0], 14)
        c.drawString(MARGIN, page_h - MARGIN - 14, "This class has no students yet.")
        c.showPage()
    for start in range(0, len(cards), CARDS_PER_PAGE):
        for i, card in enumerate(cards[start:start + CARDS_PER_PAGE]):
            col, row = i % COLUMNS, i // COLUMNS
            x = MARGIN + col * (card_w + GAP)
            y = page_h - MARGIN - (row + 1) * card_h - row * GAP
            _draw_card(c, card, x, y, card_w, card_h, fonts)
        c.showPage()
    c.save()
    return buffer.getvalue()
