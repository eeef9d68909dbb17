"""The rows every export shares, as plain Python values.

Words (headers, bands, "All games") are in the language active while the rows are made: the
requesting teacher's (the view's request, or `jobs.export_run_job`, which switches to it).
Numbers stay locale-neutral (a dot, no thousands separator, no % sign), so a spreadsheet in
any language reads them as numbers (docs/reports.md, "Exports").
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date

from django.urls import reverse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from classroom import selectors as classroom_selectors
from classroom.models import Classroom
from games.registry import game_name
from games.selectors.ratings import students_ratings

from .. import selectors
from ..cells import Cell, OpCell, Total
from ..families import FAMILIES, by_family, family_of
from ..measures import RULES, THINK, all_measures
from ..models import SkillEvidence
from ..selectors import FactGrid
from ..uncertainty import band_for, wilson

# A spreadsheet runs a cell starting with one of these as a formula ("CSV injection");
# a leading apostrophe makes it text. Tab and carriage return are the OWASP additions.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# What starts like a formula but is not one: a lone "-" (the exports' "nothing here") and a
# plain number such as -3 or +2.5, which a spreadsheet reads as that number. A quote before
# them would show as "'-" and turn a number into text a teacher cannot add up.
HARMLESS = re.compile(r"-|[+-]?\d+(\.\d+)?")


def safe_cell(value):
    """The value, or "'" + it when a spreadsheet would run it as a formula. A lazily
    translated word becomes its text in the active language."""
    if isinstance(value, Promise):
        value = str(value)
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not HARMLESS.fullmatch(value):
        return "'" + value
    return value


def safe_row(row) -> list:
    return [safe_cell(v) for v in row]


def filename(classroom: Classroom, what: str, ext: str, day: date | None = None) -> str:
    day = day or timezone.localdate()
    return f"{slugify(classroom.name) or 'class'}-{what}-{day.isoformat()}.{ext}"


# The headers are translated (lazily: in the language of whoever asks for the file); the
# "Measure id" column's values are not, so a file in any language can be matched to another.
SKILL_HEADER = [pgettext_lazy("export header", "Student"), pgettext_lazy("export header", "Family"),
                pgettext_lazy("export header", "Measure id"), pgettext_lazy("export header", "Measure"),
                pgettext_lazy("export header", "Game"), pgettext_lazy("export header", "What counts as a miss"),
                pgettext_lazy("export header", "Misses"), pgettext_lazy("export header", "Chances"),
                pgettext_lazy("export header", "Missed (%)"), pgettext_lazy("export header", "Likely from (%)"),
                pgettext_lazy("export header", "Likely to (%)"), pgettext_lazy("export header", "Band"),
                pgettext_lazy("export header", "Median seconds"), pgettext_lazy("export header", "Total"),
                pgettext_lazy("export header", "Total of"), pgettext_lazy("export header", "In words")]
CLASS_ROW = gettext_lazy("Whole class")
ALL_GAMES = gettext_lazy("All games")


def skill_header() -> list[str]:
    """SKILL_HEADER in the active language."""
    return [str(name) for name in SKILL_HEADER]


def decision_header() -> list[str]:
    """DECISION_HEADER in the active language."""
    return [str(name) for name in DECISION_HEADER]


@dataclass
class Report:
    """Everything the exports say about one student (or the class: `student` None)."""

    student: object | None
    cells: list[Cell]
    ops: list[OpCell] = field(default_factory=list)      # operations tried
    totals: list[Total] = field(default_factory=list)    # points given away, cards left behind
    facts: FactGrid | None = None
    ratings: list = field(default_factory=list)    # games.selectors.ratings.RatingSummary
    outcomes: list = field(default_factory=list)   # selectors.FocusOutcome ("Practise this")

    @property
    def name(self) -> str:
        return self.student.display_name if self.student is not None else str(CLASS_ROW)


def class_reports(*, classroom: Classroom) -> list[Report]:
    """A report per student of the class, then the class's own (student None): cells of
    every measure in family order, accuracy per operation, totals given away and the
    times-table facts. The numbers are the dashboard's own (`selectors.skill_table`, all
    games) and the heat map's (`selectors.fact_grids`), so a file never says other numbers
    than the page: only measures nobody has played yet are added, as "0 of 0"."""
    students = list(classroom_selectors.students_of_class(classroom=classroom))
    table = selectors.skill_table(classroom=classroom, students=students)
    grids = selectors.fact_grids(classroom=classroom, students=students)
    ratings = students_ratings(students=students)
    outcomes: dict = defaultdict(list)
    for o in selectors.focus_outcomes(classroom=classroom, students=students):
        outcomes[o.student.pk].append(o)
    measures = by_family(all_measures())

    def report(student, cells: list[Cell], ops: list[OpCell], totals: list[Total]) -> Report:
        shown = {c.measure.id: c for c in cells}
        sid = student.pk if student is not None else None
        return Report(student, [shown.get(m.id) or Cell(m) for m in measures],
                      [c for c in ops if c.chances], [t for t in totals if t.chances],
                      grids.get(sid), ratings.get(sid, []) if sid else [],
                      outcomes.get(sid, []) if sid else [])

    # The table's rows, operation rows and total rows are all in `students` order.
    per_student = zip(table.rows, table.operations.rows, table.totals.rows)
    return ([report(row.student, row.cells, op_row.cells, total_row.cells)
             for row, op_row, total_row in per_student]
            + [report(None, table.class_cells, table.operations.class_cells, table.totals.class_cells)])


def _pct(value):
    return round(100 * value, 1) if value is not None else ""


def skill_rows(*, classroom: Classroom) -> Iterator[list]:
    """The skills CSV's rows of the class (`reports_rows`)."""
    return reports_rows(class_reports(classroom=classroom))


def reports_rows(reports: list[Report]) -> Iterator[list]:
    """Per student, then for the whole class: one row per measure (every measure, "0 of 0"
    when not played yet), one per operation tried ("operation:+"), one per total given away
    ("total:points given away") and one per times-table fact tried ("mg.facts:7x8"), then
    ratings and "Practise this" outcomes."""
    for r in reports:
        for cell in r.cells:
            m = cell.measure
            low, high = (wilson(cell.misses, cell.chances) if cell.chances and m.has_misses
                         else (None, None))
            median = round(cell.median, 1) if cell.median is not None else ""
            cost = m.amount_words and m.family == "strategy" and cell.chances
            yield [r.name, family_of(m).title, m.id, m.title, game_name(m.game) if m.game else ALL_GAMES,
                   m.miss_words or "-", cell.misses if m.has_misses else "", cell.chances,
                   _pct(cell.rate), _pct(low), _pct(high),
                   cell.band.label if m.has_misses else "", median,
                   Total(tuple(m.amount_words), cell.amount).value if cost else "",
                   m.amount_words[1] if cost else "", cell.words]
        for op in r.ops:
            low, high = wilson(op.misses, op.chances)
            yield [r.name, FAMILIES["arithmetic"].title, f"operation:{op.op}", op.name, ALL_GAMES,
                   _("A wrong answer with %(sign)s") % {"sign": op.op}, op.misses, op.chances, _pct(op.rate), _pct(low),
                   _pct(high), op.band.label, "", "", "", op.words]
        for total in r.totals:
            yield [r.name, FAMILIES["strategy"].title, f"total:{total.words[1]}",
                   _("%(total)s (in all)") % {"total": total.title}, ALL_GAMES,
                   "-", "", total.chances, "", "", "", "", "", total.value, total.words[1], total.words_full]
        if r.facts is not None:
            for c in r.facts.facts():
                if not c.declared:
                    continue
                low, high = wilson(c.wrong, c.declared)
                yield [r.name, FAMILIES["arithmetic"].title, f"{r.facts.measure.id}:{c.detail}", c.name,
                       game_name(r.facts.measure.game) if r.facts.measure.game else ALL_GAMES,
                       _("The fact said wrong"), c.wrong, c.declared, _pct(c.wrong / c.declared),
                       _pct(low), _pct(high), band_for(c.wrong, c.declared).label,
                       c.median if c.median is not None else "", "", "", c.words]
        for rating in r.ratings:
            yield [r.name, _("Playing level"), f"rating:{rating.key}", _("Rating"), rating.game_name,
                   "-", "", rating.games, "", "", "", rating.level_name, "", rating.rating,
                   pgettext_lazy("export: what a total is", "rating"),
                   # Translators: "Rating 1040 (up 20 this week); the child sees “Getting good”".
                   _("Rating %(rating)s (%(trend)s); the child sees “%(level)s”") % {
                       "rating": rating.rating, "trend": rating.trend_words, "level": rating.level_name}]
        for o in r.outcomes:
            (bm, bc), (dm, dc) = o.before, o.during
            yield [r.name, "Practice", f"practice:{o.assignment.pk}:{o.measure.id}"
                   + (f":{o.assignment.focus.get('detail')}" if o.assignment.focus.get("detail") else ""),
                   _("Practice: %(skill)s") % {"skill": o.label},
                   game_name(o.measure.game) if o.measure.game else ALL_GAMES,
                   o.measure.miss_words or "-", dm, dc, _pct(dm / dc if dc else None), "", "",
                   _("done") if o.done else _("in progress"), "", bm,
                   # Translators: what the Total column holds in a practice row.
                   _("before it was set: misses, of %(count)s chances") % {"count": bc},
                   f"{o.words} ({o.assignment.title})"]


DECISION_HEADER = [pgettext_lazy("export header", "Student"), pgettext_lazy("export header", "Played at"),
                   pgettext_lazy("export header", "Game"), pgettext_lazy("export header", "Game number"),
                   pgettext_lazy("export header", "Assignment"), pgettext_lazy("export header", "Turn"),
                   pgettext_lazy("export header", "Move"), pgettext_lazy("export header", "Accepted"),
                   pgettext_lazy("export header", "Rule error"), pgettext_lazy("export header", "Seconds"),
                   pgettext_lazy("export header", "Chances at"), pgettext_lazy("export header", "Missed"),
                   pgettext_lazy("export header", "Details"), pgettext_lazy("export header", "Replay")]


def decision_count(*, classroom: Classroom) -> int:
    return SkillEvidence.objects.filter(classroom=classroom).count()


def decision_rows(*, classroom: Classroom,
                  progress: Callable[[int], None] | None = None) -> Iterator[list]:
    """One row per recorded decision of a student (a move with its evidence rows), oldest
    first. Streams the evidence in chunks; `progress(n)` hears how many rows were read."""
    evidence = (SkillEvidence.objects.filter(classroom=classroom)
                .select_related("student", "game", "assignment", "move")
                .order_by("move_id", "id"))
    current, group, read = None, [], 0
    for row in evidence.iterator(chunk_size=2000):
        read += 1
        if progress and read % 2000 == 0:
            progress(read)
        if current is not None and row.move_id != current:
            yield _decision(group)
            group = []
        current = row.move_id
        group.append(row)
    if group:
        yield _decision(group)
    if progress:
        progress(read)


def _decision(group: list[SkillEvidence]) -> list:
    first = group[0]
    move = first.move
    # Every attempt is a chance at the rules (an accepted one has no rules row of its own).
    chances = {e.measure for e in group if e.measure != THINK} | {RULES}
    think = move.think_ms / 1000 if move.think_ms is not None else None
    details = sorted({f"{e.measure}={e.detail}" for e in group
                      if e.detail and e.measure not in (THINK, RULES)})
    action = move.action.get("type", "") if isinstance(move.action, dict) else ""
    replay = reverse("games:replay", args=[first.game_id]) + f"?turn={first.turn}"
    return [
        first.student.display_name, timezone.localtime(first.played_at).strftime("%Y-%m-%d %H:%M"),
        game_name(first.game.key), first.game_id, first.assignment.title if first.assignment else "",
        first.turn, action, _("yes") if move.accepted else _("no"), move.error_code,
        round(think, 1) if think is not None else "",
        " ".join(sorted(chances)),
        " ".join(sorted({e.measure for e in group if e.missed})),
        " ".join(details), replay,
    ]
