"""XLSX: skills per student × measure (with operations, totals and facts), accuracy per
operation, the totals given away, the class by week, the times-table facts (a × b and b × a
as one, with median seconds; the class's untried facts said so), and every decision. Written in openpyxl's write-only mode so a big class streams to disk."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font

from classroom.models import Classroom
from games.engine.skills import OPERATIONS

from .. import selectors
from ..operations import OPERATION_WORDS
from ..uncertainty import range_short
from .rows import (DECISION_HEADER, SKILL_HEADER, class_reports, decision_rows, reports_rows,
                   safe_row)

MAX_ROWS = 1_000_000  # Excel's limit is 1,048,576 rows a sheet


def _header(ws, names):
    """The bold header row, frozen so it stays in view while a teacher scrolls (in write-only
    mode the panes must be set before the first row is written)."""
    ws.freeze_panes = "A2"
    cells = []
    for name in names:
        cell = WriteOnlyCell(ws, value=str(name))  # a lazily translated header
        cell.font = Font(bold=True)
        cells.append(cell)
    ws.append(cells)


def write_xlsx(path, *, classroom: Classroom, progress: Callable[[int], None] | None = None) -> None:
    wb = Workbook(write_only=True)
    # Read once: every sheet says the numbers of the same moment, even if the class's
    # roll-ups are rebuilt while the file is written.
    reports = class_reports(classroom=classroom)
    # Sheet names and headers in the requesting teacher's language; the numbers stay numbers.
    student = pgettext("export header", "Student")
    skills = wb.create_sheet(pgettext("sheet", "Skills"))
    _header(skills, SKILL_HEADER)
    for row in reports_rows(reports):
        skills.append(safe_row(row))

    by_op = wb.create_sheet(pgettext("sheet", "By operation"))
    columns = (pgettext("export header", "right"), pgettext("export header", "tried"),
               pgettext("export header", "likely wrong"))
    _header(by_op, [student] + [f"{OPERATION_WORDS[op][0]} ({op}): {what}" for op in OPERATIONS
                                for what in columns])
    for r in reports:
        found = {c.op: c for c in r.ops}
        line = [r.name]
        for op in OPERATIONS:
            c = found.get(op)
            line += [c.right, c.chances, range_short(c.misses, c.chances)] if c else ["", 0, _("not tried yet")]
        by_op.append(safe_row(line))

    totals = wb.create_sheet(pgettext("sheet", "Totals"))
    words = []
    for r in reports:
        for t in r.totals:
            if t.words not in words:
                words.append(t.words)
    _header(totals, [student] + [str(w[1])[:1].upper() + str(w[1])[1:] for w in words])
    for r in reports:
        found = {t.words: t for t in r.totals}
        totals.append(safe_row([r.name] + [found[w].value if w in found else "" for w in words]))

    weekly = wb.create_sheet(pgettext("sheet", "Class by week"))
    _header(weekly, [pgettext("export header", "Measure"), pgettext("export header", "Week of"),
                     pgettext("export header", "Misses"), pgettext("export header", "Chances"),
                     pgettext("export header", "Median seconds")])
    for trend in selectors.class_trends(classroom=classroom):
        for p in trend.points:
            if p.chances:
                weekly.append(safe_row([trend.measure.title, p.week, p.misses if trend.measure.has_misses else "",
                                        p.chances, p.median if p.median is not None else ""]))

    facts = wb.create_sheet(pgettext("sheet", "Times tables"))
    _header(facts, [student, pgettext("export header", "Fact"), pgettext("export header", "Tried"),
                    pgettext("export header", "Right"), pgettext("export header", "Wrong"),
                    pgettext("export header", "Likely wrong"), pgettext("export header", "Median seconds"),
                    pgettext("export header", "In words")])
    for r in reports:
        if r.facts is None:
            continue
        for c in r.facts.facts():
            if c.declared:
                facts.append(safe_row([r.name, c.name, c.declared, c.right, c.wrong,
                                       range_short(c.wrong, c.declared),
                                       c.median if c.median is not None else "", c.words]))
            elif r.student is None:
                facts.append(safe_row([r.name, c.name, 0, "", "", "", "", _("not tried yet")]))

    decisions = wb.create_sheet(pgettext("sheet", "Decisions"))
    _header(decisions, DECISION_HEADER)
    for n, row in enumerate(decision_rows(classroom=classroom, progress=progress)):
        if n >= MAX_ROWS:
            decisions.append([_("More decisions than a spreadsheet holds: use the raw CSV.")])
            break
        decisions.append(safe_row(row))
    wb.save(path)
