"""The 12 password pictures as simple vector shapes for reportlab (the PDF sign-in cards).

They follow templates/accounts/_picture.svg.html closely enough that a child recognises the
same cat: drawn in the SVG's 64×64 box with y pointing down, so coordinates can be copied.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor, white

RED, BROWN, GREEN = HexColor("#d62f2f"), HexColor("#8a4b22"), HexColor("#3c9a3c")
BLUE, YELLOW, ORANGE = HexColor("#2f6fd6"), HexColor("#f2c230"), HexColor("#f7a21b")
DARK, PINK, TEAL = HexColor("#222222"), HexColor("#e85d9b"), HexColor("#17a2b8")
CAT, HEART, ROOF, WALL = HexColor("#f08a24"), HexColor("#e03b5a"), HexColor("#c0392b"), HexColor("#f4d9a6")


def _polygon(c, points, fill, stroke=None):
    path = c.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    c.setFillColor(fill)
    if stroke is not None:
        c.setStrokeColor(stroke)
        c.setLineWidth(2)
    c.drawPath(path, fill=1, stroke=1 if stroke is not None else 0)


def _circle(c, x, y, r, fill):
    c.setFillColor(fill)
    c.circle(x, y, r, fill=1, stroke=0)


def _lines(c, segments, color, width):
    c.setStrokeColor(color)
    c.setLineWidth(width)
    c.setLineCap(1)
    for x1, y1, x2, y2 in segments:
        c.line(x1, y1, x2, y2)


def _apple(c):
    _circle(c, 25, 34, 16, RED)
    _circle(c, 39, 34, 16, RED)
    _lines(c, [(32, 20, 38, 8)], BROWN, 4)
    c.setFillColor(GREEN)
    c.ellipse(34, 9, 47, 16, fill=1, stroke=0)


def _ball(c):
    _circle(c, 32, 32, 24, BLUE)
    _lines(c, [(8, 32, 56, 32), (32, 8, 32, 56)], white, 3)


def _boat(c):
    _polygon(c, [(8, 40), (56, 40), (48, 52), (16, 52)], BROWN)
    _polygon(c, [(32, 8), (32, 38), (14, 38)], YELLOW)
    _polygon(c, [(34, 14), (34, 38), (50, 38)], white, stroke=HexColor("#555555"))
    _lines(c, [(4, 58, 60, 58)], BLUE, 3)


def _cat(c):
    _polygon(c, [(14, 28), (12, 8), (28, 20)], CAT)
    _polygon(c, [(50, 28), (52, 8), (36, 20)], CAT)
    _circle(c, 32, 38, 20, CAT)
    _circle(c, 24, 34, 3.5, DARK)
    _circle(c, 40, 34, 3.5, DARK)
    _polygon(c, [(29, 42), (35, 42), (32, 45)], ROOF)
    _lines(c, [(8, 42, 20, 42), (8, 47, 20, 47), (44, 42, 56, 42), (44, 47, 56, 47)], DARK, 1.5)


def _fish(c):
    c.setFillColor(TEAL)
    c.ellipse(6, 22, 48, 42, fill=1, stroke=0)
    _polygon(c, [(46, 32), (60, 20), (60, 44)], TEAL)
    _circle(c, 18, 29, 3.5, DARK)


def _flower(c):
    for x, y in ((32, 16), (46, 28), (40, 44), (24, 44), (18, 28)):
        _circle(c, x, y, 9, PINK)
    _circle(c, 32, 32, 8, YELLOW)


def _heart(c):
    _circle(c, 20, 22, 12, HEART)
    _circle(c, 44, 22, 12, HEART)
    _polygon(c, [(9.5, 28), (54.5, 28), (32, 56)], HEART)


def _house(c):
    _polygon(c, [(8, 30), (32, 8), (56, 30)], ROOF)
    c.setFillColor(WALL)
    c.rect(14, 30, 36, 26, fill=1, stroke=0)
    c.setFillColor(BROWN)
    c.rect(28, 40, 9, 16, fill=1, stroke=0)
    c.setFillColor(BLUE)
    c.rect(18, 36, 7, 7, fill=1, stroke=0)
    c.rect(40, 36, 7, 7, fill=1, stroke=0)


def _moon(c):
    _circle(c, 30, 34, 24, YELLOW)
    _circle(c, 44, 24, 20, white)  # the card is white: the overlap cuts the crescent


def _star(c):
    _polygon(c, [(32, 4), (40, 22), (60, 24), (45, 37), (50, 57), (32, 46), (14, 57), (19, 37),
                 (4, 24), (24, 22)], YELLOW, stroke=HexColor("#b8860b"))


def _sun(c):
    _lines(c, [(32, 4, 32, 12), (32, 52, 32, 60), (4, 32, 12, 32), (52, 32, 60, 32),
               (12, 12, 18, 18), (46, 46, 52, 52), (52, 12, 46, 18), (12, 52, 18, 46)], ORANGE, 4)
    _circle(c, 32, 32, 13, ORANGE)


def _tree(c):
    c.setFillColor(BROWN)
    c.rect(28, 40, 8, 18, fill=1, stroke=0)
    _circle(c, 32, 26, 18, GREEN)


DRAWINGS = {
    "apple": _apple, "ball": _ball, "boat": _boat, "cat": _cat, "fish": _fish,
    "flower": _flower, "heart": _heart, "house": _house, "moon": _moon, "star": _star,
    "sun": _sun, "tree": _tree,
}


def draw_picture(c, key: str, x: float, y: float, size: float) -> None:
    """Draw picture `key` in the square whose bottom-left corner is (x, y)."""
    c.saveState()
    c.translate(x, y + size)
    c.scale(size / 64, -size / 64)  # SVG coordinates: origin top-left, y down
    DRAWINGS[key](c)
    c.restoreState()
