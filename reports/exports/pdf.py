"""PDF progress reports in plain words: one student (for a parent), or a whole class (a
summary page, then one page per student). reportlab platypus; DejaVu for any name and for
Arabic letters.

Written in the active language (the caller switches: the teacher's, or the one chosen on the
student page for a parent). Right to left (Arabic): reportlab lays text out left to right and
does not shape, so `_p` breaks a paragraph into lines itself (measured on the logical text),
then gives each line shaped and in visual order (classroom.pdf_text.for_pdf) and right-aligned
from the right margin; tables put their first column on the right. Numbers keep 0-9.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (KeepTogether, PageBreak, Paragraph, SimpleDocTemplate, Spacer,
                                Table, TableStyle)
from xml.sax.saxutils import escape

from classroom.cards_pdf import pdf_fonts
from classroom.models import Classroom
from classroom.pdf_text import for_pdf
from games.registry import game_name
from games.selectors.ratings import student_ratings

from .. import selectors
from ..cells import seconds
from ..families import family_of
from ..uncertainty import BANDS, band_for, range_words
from ..words import fact_to_practise, growth_sentence, student_sentence
from .rows import ALL_GAMES, class_reports

INK, MUTED = colors.HexColor("#1d2433"), colors.HexColor("#4a5468")
MARGIN = 18 * mm
TEXT_WIDTH = A4[0] - 2 * MARGIN
# Band words for a parent: the same bands as the teacher's table, said more gently.
PARENT_WORDS = {"strong": gettext_lazy("going well"), "fair": gettext_lazy("getting there"),
                "practise": gettext_lazy("worth practising"), "help": gettext_lazy("needs more practice"),
                "few": gettext_lazy("too early to tell"), "none": gettext_lazy("not played yet")}
# The class summary's columns, in the teacher's table's order.
SUMMARY_BANDS = ("strong", "fair", "practise", "help", "few")


def _rtl() -> bool:
    return translation.get_language_bidi()


def _styles():
    regular, bold = pdf_fonts()
    # Right to left: lines start at the right margin.
    align = {"alignment": TA_RIGHT} if _rtl() else {}
    return {
        "h1": ParagraphStyle("h1", fontName=bold, fontSize=18, leading=22, textColor=INK, spaceAfter=4, **align),
        "h2": ParagraphStyle("h2", fontName=bold, fontSize=13, leading=17, textColor=INK,
                             spaceBefore=8, spaceAfter=3, **align),
        "h1sub": ParagraphStyle("h1sub", fontName=bold, fontSize=15, leading=19, textColor=INK,
                                spaceBefore=10, spaceAfter=2, **align),
        "body": ParagraphStyle("body", fontName=regular, fontSize=10.5, leading=14.5, textColor=INK, **align),
        "muted": ParagraphStyle("muted", fontName=regular, fontSize=9, leading=12, textColor=MUTED, **align),
        "cell": ParagraphStyle("cell", fontName=regular, fontSize=8.5, leading=10.5, textColor=INK, **align),
        "bold": bold,
    }


def _lines(text: str, font: str, size: float, width: float) -> list[str]:
    """`text` broken into lines no wider than `width`, word by word, in logical order."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and stringWidth(candidate, font, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return lines + [line] if line else lines


def _p(text: str, style, width: float = TEXT_WIDTH) -> Paragraph:
    text = str(text)
    if not _rtl():
        return Paragraph(escape(text), style)
    # Each line is put in visual order on its own: the bidirectional algorithm run over a
    # whole paragraph would move its end onto the first line. A little room is left because
    # a shaped word is not always as wide as its letters measured one by one.
    lines = _lines(text, style.fontName, style.fontSize, width * 0.94)
    return Paragraph("<br/>".join(escape(for_pdf(line)) for line in lines), style)


def _today() -> str:
    # Translators: how a date is written under a report's title, in Django's date format letters
    # ("j F Y": 26 November 2026; "j \d\e F \d\e Y": 26 de noviembre de 2026).
    return date_format(timezone.localdate(), pgettext("date format", "j F Y"))


def _student_story(classroom: Classroom, student, st) -> list:
    """The flowables of one student's report."""
    name = student.display_name
    values = {"name": name}
    story = [_p(_("%(name)s: progress report") % values, st["h1"]),
             # Translators: under the title of a parent's report: the class's name and the date.
             _p(_("%(class)s · Numberdeck maths card games · %(date)s") % {
                 "class": classroom.name, "date": _today()}, st["muted"]),
             Spacer(1, 4 * mm),
             _p(_("In Numberdeck, children play card games that practise arithmetic. Every "
                  "decision %(name)s makes is looked at, and these pages say what went well and "
                  "what to practise next, in %(name)s's own games only.") % values, st["body"])]
    ratings = student_ratings(student=student)
    if ratings:
        story.append(_p(_("Playing level"), st["h2"]))
        story.append(_p(_("Each game keeps a rating of how %(name)s plays, from every finished game "
                          "(the beginner computer player is 1000). %(name)s sees only the level name.")
                        % values, st["muted"]))
        # Translators: "Numero: Getting good (rating 1040, up 20 this week)."
        story.extend(_p(_("%(game)s: %(level)s (rating %(rating)s, %(trend)s).") % {
            "game": r.game_name, "level": r.level_name, "rating": r.rating, "trend": r.trend_words},
            st["body"]) for r in ratings)
    outcomes = selectors.focus_outcomes(classroom=classroom, student=student)
    if outcomes:
        story.append(_p(_("Focused practice"), st["h2"]))
        story.append(_p(_("Games set to practise one skill, and how %(name)s did at it before and in "
                          "the practice.") % values, st["muted"]))
        story.extend(_p((_("%(outcome)s (done).") if o.done else _("%(outcome)s (still practising)."))
                        % {"outcome": o.words}, st["body"]) for o in outcomes)
    measures = selectors.student_measures(classroom=classroom, student=student)
    if not measures:
        story.append(Spacer(1, 3 * mm))
        story.append(_p(_("%(name)s has not finished any games yet, so there is nothing to report "
                          "so far.") % values, st["body"]))
        return story
    story.append(_p(_("What we counted"), st["h2"]))
    summary = selectors.student_summary(classroom=classroom, student=student)
    family = None
    for sm in measures:
        m, cell = sm.cell.measure, sm.cell
        if family_of(m) is not family:
            family = family_of(m)
            story.append(_p(family.title, st["h1sub"]))
            story.append(_p(family.about, st["muted"]))
            if family.key == "arithmetic" and summary.ops:
                story.append(KeepTogether(
                    [_p(_("Sums, one operation at a time"), st["h2"])]
                    # Translators: "Adding (+): Ann got 12 of 14 right. (wrong about 5-30 %, from 14 chances)".
                    + [_p(_("%(sentence)s (wrong %(range)s)") % {
                        "sentence": mine.sentence_about(name), "range": range_words(mine.misses, mine.chances)},
                        st["body"]) for mine, _theirs in summary.ops]))
            if family.key == "strategy" and summary.totals:
                story.append(KeepTogether(
                    [_p(_("Given away by choices, in all"), st["h2"])]
                    # Translators: "Points given away: 40 (the class: about 35 a student)."
                    + [_p(_("%(total)s: %(amount)s (the class: about %(each)s a student).") % {
                        "total": mine.title, "amount": mine.value, "each": f"{theirs.per_student or 0:.0f}"},
                        st["body"]) for mine, theirs in summary.totals]))
        where = game_name(m.game) if m.game else ALL_GAMES
        heading = {"skill": m.title, "game": where}
        if not m.has_misses:
            text = ngettext("%(name)s takes about %(time)s to decide, over %(count)s decisions.",
                            "%(name)s takes about %(time)s to decide, over %(count)s decisions.",
                            cell.chances) % {"name": name, "time": seconds(cell.median), "count": cell.chances}
            # Translators: a skill's heading, "Thinking time (All games)".
            story.append(KeepTogether([_p(_("%(skill)s (%(game)s)") % heading, st["h2"]), _p(text, st["body"])]))
            continue
        band = band_for(cell.misses, cell.chances)
        heading["band"] = PARENT_WORDS.get(band.key, band.label)
        lines = [_p(_("%(skill)s (%(game)s): %(band)s") % heading, st["h2"]),
                 _p(student_sentence(m, cell.misses, cell.chances, who=name), st["body"]),
                 # Translators: "Missed 4 of 37: about 5-25 %, from 37 chances."
                 _p(_("Missed %(misses)s of %(count)s: %(range)s.") % {
                     "misses": cell.misses, "count": cell.chances, "range": cell.range_words}, st["muted"])]
        if sm.trend:
            pts = [p for p in sm.trend.points if p.chances]
            if len(pts) >= 2:
                before = (sum(p.misses for p in pts[:-1]), sum(p.chances for p in pts[:-1]))
                growth = growth_sentence(before=before, recent=(pts[-1].misses, pts[-1].chances),
                                         who=name)
                if growth:
                    lines.append(_p(growth, st["body"]))
        story.append(KeepTogether(lines))
    grid = selectors.fact_grid(classroom=classroom, student=student)
    if grid.declared:
        story.append(_p(_("Times tables"), st["h2"]))
        known = grid.known()
        story.append(_p(ngettext(
            "%(name)s named %(count)s different times-table facts correctly every time.",
            "%(name)s named %(count)s different times-table facts correctly every time.",
            len(known)) % {"name": name, "count": len(known)}, st["body"]))
        story.append(_p(_("%(name)s has tried %(tried)s of the %(facts)s facts (7 × 8 and 8 × 7 count "
                          "as one); %(untried)s not tried yet.") % {
            "name": name, "tried": grid.tried, "facts": len(grid.facts()), "untried": len(grid.never_tried)},
            st["body"]))
        slow = sorted((c for c in grid.facts() if c.median is not None and c.declared),
                      key=lambda c: -c.median)[:5]
        if slow:
            story.append(_p(_("Facts that take longest (median seconds a try): %(facts)s.") % {
                "facts": "; ".join(f"{c.name}: {c.seconds}" for c in slow)}, st["body"]))
        if grid.missed:
            facts = "; ".join(fact_to_practise(m.card, m.said, who=name) for m in grid.missed)
            story.append(_p(_("Good facts to practise together: %(facts)s.") % {"facts": facts}, st["body"]))
    story.append(Spacer(1, 4 * mm))
    story.append(_p(_("A few short games a week help most. Thank you for your support!"), st["muted"]))
    return story


def _build(story) -> bytes:
    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN,
                            topMargin=16 * mm, bottomMargin=16 * mm, title=_("Progress report"),
                            author="Numberdeck", lang=translation.get_language() or "en")
    doc.build(story)
    return out.getvalue()


def student_pdf(*, classroom: Classroom, student) -> bytes:
    return _build(_student_story(classroom, student, _styles()))


def class_pdf(*, classroom: Classroom, progress: Callable[[int], None] | None = None) -> bytes:
    st = _styles()
    reports = class_reports(classroom=classroom)  # read once: the summary and the class agree
    cells = [(r.student, r.cells) for r in reports if r.student is not None]
    story = [_p(_("%(class)s: class progress report") % {"class": classroom.name}, st["h1"]),
             _p(ngettext("Numberdeck · %(date)s · %(count)s student", "Numberdeck · %(date)s · %(count)s students",
                         len(cells)) % {"date": _today(), "count": len(cells)}, st["muted"]),
             Spacer(1, 4 * mm),
             _p(_("How many students are where, for each measure (with at least 5 chances):"),
                st["body"]), Spacer(1, 2 * mm)]
    widths = [60 * mm] + [22 * mm] * len(SUMMARY_BANDS)
    data = [[_p(h, st["cell"], w) for h, w in zip(
        [pgettext("export header", "Measure")] + [BANDS[key].label for key in SUMMARY_BANDS], widths)]]
    for i, cell0 in enumerate(cells[0][1] if cells else []):
        m = cell0.measure
        if not m.has_misses:
            continue
        counts = {key: 0 for key in SUMMARY_BANDS}
        for _student, row in cells:
            c = row[i]
            if c.chances:
                counts[band_for(c.misses, c.chances).key] += 1
        if sum(counts.values()):
            where = game_name(m.game) if m.game else ALL_GAMES
            data.append([_p(_("%(skill)s (%(game)s)") % {"skill": m.title, "game": where}, st["cell"], widths[0])]
                        + [_p(str(counts[key]), st["cell"], widths[1]) for key in SUMMARY_BANDS])
    if len(data) > 1:
        if _rtl():  # the first column on the right, as the page reads
            data, widths = [row[::-1] for row in data], widths[::-1]
        table = Table(data, colWidths=widths, repeatRows=1)
        table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.4, MUTED),
                                   ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eef1f7")),
                                   ("VALIGN", (0, 0), (-1, -1), "TOP")]))
        story.append(table)
    else:
        story.append(_p(_("No finished games yet."), st["body"]))
    whole = reports[-1]
    if whole.ops:
        story.append(_p(_("Arithmetic by operation (the whole class)"), st["h2"]))
        story.extend(_p(op.words + ".", st["body"]) for op in whole.ops)
    if whole.totals:
        story.append(_p(_("Given away by choices (the whole class, in all)"), st["h2"]))
        story.extend(_p(t.words_full + ".", st["body"]) for t in whole.totals)
    for n, (student, _row) in enumerate(cells, start=1):
        story.append(PageBreak())
        story.extend(_student_story(classroom, student, st))
        if progress:
            progress(n)
    return _build(story)
