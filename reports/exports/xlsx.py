"""XLSX: skills per student × measure, the class by week, the class's times-table facts, and
every decision. Written in openpyxl's write-only mode so a big class streams to disk."""

from __future__ import annotations

from collections.abc import Callable

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font

from classroom.models import Classroom

from .. import selectors
from .rows import (DECISION_HEADER, SKILL_HEADER, decision_rows, safe_row, skill_rows)

MAX_ROWS = 1_000_000  # Excel's limit is 1,048,576 rows a sheet


def _header(ws, names):
    cells = []
    for name in names:
        cell = WriteOnlyCell(ws, value=name)
        cell.font = Font(bold=True)
        cells.append(cell)
    ws.append(cells)


def write_xlsx(path, *, classroom: Classroom, progress: Callable[[int], None] | None = None) -> None:
    wb = Workbook(write_only=True)
    skills = wb.create_sheet("Skills")
    _header(skills, SKILL_HEADER)
    for row in skill_rows(classroom=classroom):
        skills.append(safe_row(row))

    weekly = wb.create_sheet("Class by week")
    _header(weekly, ["Measure", "Week of", "Misses", "Chances", "Median seconds"])
    for trend in selectors.class_trends(classroom=classroom):
        for p in trend.points:
            if p.chances:
                weekly.append(safe_row([trend.measure.title, p.week, p.misses if trend.measure.has_misses else "",
                                        p.chances, p.median if p.median is not None else ""]))

    facts = wb.create_sheet("Times tables")
    _header(facts, ["Right / declared (class)"] + [f"× {b}" for b in selectors.FACT_RANGE])
    for a, row in zip(selectors.FACT_RANGE, selectors.fact_grid(classroom=classroom).rows):
        facts.append([f"{a} ×"] + [f"{c.right}/{c.declared}" if c.declared else "" for c in row])

    decisions = wb.create_sheet("Decisions")
    _header(decisions, DECISION_HEADER)
    for n, row in enumerate(decision_rows(classroom=classroom, progress=progress)):
        if n >= MAX_ROWS:
            decisions.append(["More decisions than a spreadsheet holds: use the raw CSV."])
            break
        decisions.append(safe_row(row))
    wb.save(path)
