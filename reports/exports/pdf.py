"""PDF progress reports in plain words: one student (for a parent), or a whole class (a
summary page, then one page per student). reportlab platypus; DejaVu for any name."""

from __future__ import annotations

import io
from collections.abc import Callable

from django.utils import timezone
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (KeepTogether, PageBreak, Paragraph, SimpleDocTemplate, Spacer,
                                Table, TableStyle)
from xml.sax.saxutils import escape

from classroom.cards_pdf import pdf_fonts
from classroom.models import Classroom
from games.selectors.ratings import student_ratings

from .. import selectors
from ..cells import seconds
from ..families import family_of
from ..uncertainty import band_for, range_words
from ..words import fact_to_practise, growth_sentence, student_sentence
from .rows import class_reports, game_name

INK, MUTED = colors.HexColor("#1d2433"), colors.HexColor("#4a5468")
# Band words for a parent: the same bands as the teacher's table, said more gently.
PARENT_WORDS = {"strong": "going well", "fair": "getting there", "practise": "worth practising",
                "help": "needs more practice", "few": "too early to tell", "none": "not played yet"}


def _styles():
    regular, bold = pdf_fonts()
    return {
        "h1": ParagraphStyle("h1", fontName=bold, fontSize=18, leading=22, textColor=INK, spaceAfter=4),
        "h2": ParagraphStyle("h2", fontName=bold, fontSize=13, leading=17, textColor=INK,
                             spaceBefore=8, spaceAfter=3),
        "h1sub": ParagraphStyle("h1sub", fontName=bold, fontSize=15, leading=19, textColor=INK,
                                spaceBefore=10, spaceAfter=2),
        "body": ParagraphStyle("body", fontName=regular, fontSize=10.5, leading=14.5, textColor=INK),
        "muted": ParagraphStyle("muted", fontName=regular, fontSize=9, leading=12, textColor=MUTED),
        "cell": ParagraphStyle("cell", fontName=regular, fontSize=8.5, leading=10.5, textColor=INK),
        "bold": bold,
    }


def _p(text: str, style) -> Paragraph:
    return Paragraph(escape(text), style)


def _student_story(classroom: Classroom, student, st) -> list:
    """The flowables of one student's report."""
    name = student.display_name
    today = timezone.localdate().strftime("%-d %B %Y")
    story = [_p(f"{name}: progress report", st["h1"]),
             _p(f"{classroom.name} · Numberdeck maths card games · {today}", st["muted"]),
             Spacer(1, 4 * mm),
             _p(f"In Numberdeck, children play card games that practise arithmetic. Every "
                f"decision {name} makes is looked at, and these pages say what went well and "
                f"what to practise next, in {name}'s own games only.", st["body"])]
    ratings = student_ratings(student=student)
    if ratings:
        story.append(_p("Playing level", st["h2"]))
        story.append(_p(f"Each game keeps a rating of how {name} plays, from every finished game "
                        f"(the beginner computer player is 1000). {name} sees only the level name.",
                        st["muted"]))
        story.extend(_p(f"{r.game_name}: {r.level_name} (rating {r.rating}, {r.trend_words}).", st["body"])
                     for r in ratings)
    outcomes = selectors.focus_outcomes(classroom=classroom, student=student)
    if outcomes:
        story.append(_p("Focused practice", st["h2"]))
        story.append(_p(f"Games set to practise one skill, and how {name} did at it before and in "
                        f"the practice.", st["muted"]))
        story.extend(_p(f"{o.words}{' (done)' if o.done else ' (still practising)'}.", st["body"])
                     for o in outcomes)
    measures = selectors.student_measures(classroom=classroom, student=student)
    if not measures:
        story.append(Spacer(1, 3 * mm))
        story.append(_p(f"{name} has not finished any games yet, so there is nothing to report "
                        f"so far.", st["body"]))
        return story
    story.append(_p("What we counted", st["h2"]))
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
                    [_p("Sums, one operation at a time", st["h2"])]
                    + [_p(mine.sentence_about(name) + f" (wrong {range_words(mine.misses, mine.chances)})",
                          st["body"]) for mine, _ in summary.ops]))
            if family.key == "strategy" and summary.totals:
                story.append(KeepTogether(
                    [_p("Given away by choices, in all", st["h2"])]
                    + [_p(f"{mine.title}: {mine.value} (the class: about {theirs.per_student or 0:.0f} "
                          f"a student).", st["body"]) for mine, theirs in summary.totals]))
        where = game_name(m.game) if m.game else "All games"
        if not m.has_misses:
            text = f"{name} takes about {seconds(cell.median)} to decide, over {cell.chances} decisions."
            story.append(KeepTogether([_p(f"{m.title} ({where})", st["h2"]), _p(text, st["body"])]))
            continue
        band = band_for(cell.misses, cell.chances)
        lines = [_p(f"{m.title} ({where}): {PARENT_WORDS.get(band.key, band.label)}", st["h2"]),
                 _p(student_sentence(m, cell.misses, cell.chances, who=name), st["body"]),
                 _p(f"Missed {cell.misses} of {cell.chances}: {cell.range_words}.", st["muted"])]
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
        story.append(_p("Times tables", st["h2"]))
        known = grid.known()
        story.append(_p(f"{name} named {len(known)} different times-table facts correctly every "
                        f"time.", st["body"]))
        story.append(_p(f"{name} has tried {grid.tried} of the {len(grid.facts())} facts "
                        f"(7 × 8 and 8 × 7 count as one); {len(grid.never_tried)} not tried yet.",
                        st["body"]))
        slow = sorted((c for c in grid.facts() if c.median is not None and c.declared),
                      key=lambda c: -c.median)[:5]
        if slow:
            story.append(_p("Facts that take longest (median seconds a try): "
                            + "; ".join(f"{c.name}: {c.seconds}" for c in slow) + ".", st["body"]))
        if grid.missed:
            facts = "; ".join(fact_to_practise(m.card, m.said, who=name) for m in grid.missed)
            story.append(_p(f"Good facts to practise together: {facts}.", st["body"]))
    story.append(Spacer(1, 4 * mm))
    story.append(_p("A few short games a week help most. Thank you for your support!", st["muted"]))
    return story


def _build(story) -> bytes:
    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm,
                            topMargin=16 * mm, bottomMargin=16 * mm, title="Progress report",
                            author="Numberdeck")
    doc.build(story)
    return out.getvalue()


def student_pdf(*, classroom: Classroom, student) -> bytes:
    return _build(_student_story(classroom, student, _styles()))


def class_pdf(*, classroom: Classroom, progress: Callable[[int], None] | None = None) -> bytes:
    st = _styles()
    reports = class_reports(classroom=classroom)  # read once: the summary and the class agree
    cells = [(r.student, r.cells) for r in reports if r.student is not None]
    today = timezone.localdate().strftime("%-d %B %Y")
    story = [_p(f"{classroom.name}: class progress report", st["h1"]),
             _p(f"Numberdeck · {today} · {len(cells)} students", st["muted"]), Spacer(1, 4 * mm),
             _p("How many students are where, for each measure (with at least 5 chances):",
                st["body"]), Spacer(1, 2 * mm)]
    labels = ["Strong", "Getting there", "Practise", "Needs help", "Too few to tell"]
    data = [[_p(h, st["cell"]) for h in ["Measure"] + labels]]
    for i, cell0 in enumerate(cells[0][1] if cells else []):
        m = cell0.measure
        if not m.has_misses:
            continue
        counts = {label: 0 for label in labels}
        for _, row in cells:
            c = row[i]
            if c.chances:
                counts[band_for(c.misses, c.chances).label] += 1
        if sum(counts.values()):
            data.append([_p(f"{m.title} ({game_name(m.game) if m.game else 'all games'})", st["cell"])]
                        + [_p(str(counts[label]), st["cell"]) for label in labels])
    if len(data) > 1:
        table = Table(data, colWidths=[60 * mm] + [22 * mm] * 5, repeatRows=1)
        table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.4, MUTED),
                                   ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eef1f7")),
                                   ("VALIGN", (0, 0), (-1, -1), "TOP")]))
        story.append(table)
    else:
        story.append(_p("No finished games yet.", st["body"]))
    whole = reports[-1]
    if whole.ops:
        story.append(_p("Arithmetic by operation (the whole class)", st["h2"]))
        story.extend(_p(op.words + ".", st["body"]) for op in whole.ops)
    if whole.totals:
        story.append(_p("Given away by choices (the whole class, in all)", st["h2"]))
        story.extend(_p(t.words_full + ".", st["body"]) for t in whole.totals)
    for n, (student, _) in enumerate(cells, start=1):
        story.append(PageBreak())
        story.extend(_student_story(classroom, student, st))
        if progress:
            progress(n)
    return _build(story)
