"""One reader per report: on a simulated class, the teacher dashboard, the skills CSV, the
XLSX workbook and each student's parent PDF say the same numbers, student by student and for
the whole class: misses and chances of every measure, the likely range, the band, thinking
time, accuracy per operation, what choices gave away and the class's "about N a student".

Each file is read as a teacher gets it (the dashboard's HTML, the CSV and PDF downloads, the
workbook openpyxl opens), never from the selectors, so a file that re-derived its numbers with
other filters would fail here."""

from __future__ import annotations

import csv
import io
import re
from html import unescape

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from accounts.services import student_create
from devtools.planted import PlantedPlayer, games_for, parse_plant
from devtools.simulation import PICTURES, play_game, simulate_class
from games import registry
from reports.cells import seconds
from reports.exports import xlsx
from reports.exports.pdf import PARENT_WORDS
from reports.measures import THINK, all_measures, measure_by_id
from reports.operations import OPERATION_WORDS
from reports.uncertainty import BANDS

from .simulated import remove_simulated

pytestmark = pytest.mark.django_db

CLASS = "Whole class"
MENTAL_MATHS = parse_plant("so.mental_math=0.3")
FACT = parse_plant("mg.facts:7x8=0.5")


@pytest.fixture(scope="module")
def sim(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        made = simulate_class(students=3, games=2, seed=11,
                              plants=[MENTAL_MATHS, FACT],
                              profiles=[[parse_plant("so.lowest_operator=0.4")], []])
        # A student who joined late and played one game of The Multiplication Game only: the
        # points Smooth Operator's choices gave away are the sum of fewer students than have
        # played ("about N a student" of the class is over those who played that game).
        late = student_create(classroom=made.classroom, display_name="Sim Late",
                              username=f"sim-{made.classroom.pk}-late", picture_password=PICTURES)
        made.students.append(late)
        play_game(key=games_for([FACT])[0], classroom=made.classroom, student=late,
                  player=PlantedPlayer([], seed="late"), seed=99)
        yield made
        remove_simulated(made)


# ----- reading each file as a teacher gets it -----------------------------------------------
# Figures of one student (or the class), keyed by what they are about:
#   ("measure", id): (misses, chances, likely range, band)   a measure with misses
#   ("median", id): (seconds, chances)                         thinking time
#   ("amount", id): value                                      what a strategy measure gave away
#   ("op", sign): (misses, chances, likely range, band)
#   ("total", "points given away"): value
#   ("per student", "points given away"): "about N"            the class's only

def _cells(html: str, start: str) -> list[str]:
    """The <td>s of the table row that opens with `start`."""
    row = html[html.index(start):]
    row = row[:row.index("</tr>")]
    return re.findall(r"<td\b[^>]*>.*?</td>", row, re.S)


def _title(td: str) -> str:
    return unescape(re.search(r'title="([^"]*)"', td).group(1))


def _band(td: str) -> str:
    return unescape(re.search(r'<span class="band-label"><span aria-hidden="true">[^<]*</span> ([^<]*)</span>',
                              td).group(1))


def _range(td: str) -> str:
    return unescape(re.search(r'<span class="cell-range">([^<]*)</span>', td).group(1))


def _section(html: str, section_id: str) -> str:
    part = html[html.index(f'id="{section_id}"'):]
    return part[:part.index("</section>")]


def dashboard_figures(html: str, students) -> dict[str, dict]:
    skills, ops, totals = (_section(html, s) for s in ("dash-skills", "dash-operations", "dash-totals"))
    rows = {s.display_name: f'<tr id="dash-row-{s.pk}">' for s in students}
    rows[CLASS] = '<tr id="dash-class-row">'
    found: dict[str, dict] = {}
    for name, start in rows.items():
        mine = found[name] = {}
        for td in _cells(skills, start):
            link = re.search(r"measure=([\w.]+)", td)
            if link is None:
                continue  # "–": no games yet
            measure = link.group(1)
            counts = re.search(r"missed <a[^>]*>(\d+)</a> of <a[^>]*>(\d+)</a>", td)
            if counts:
                mine[("measure", measure)] = (*counts.groups(), _range(td), _band(td))
            else:
                median, chances = re.search(r"Median thinking time: (.+) over (\d+) ", _title(td)).groups()
                mine[("median", measure)] = (median, chances)
            amount = re.search(r'<span class="cell-amount">([\d.]+) ', td)
            if amount:
                mine[("amount", measure)] = amount.group(1)
        row_start = (f'<tr><th scope="row">{name}</th>' if name != CLASS
                     else '<tfoot><tr><th scope="row">Whole class</th>')
        for td in _cells(ops, row_start):
            said = re.match(r".+ \((.)\): wrong (\d+) of (\d+) times \((about \d+-\d+ %), from", _title(td))
            if said:
                op, misses, chances, likely = said.groups()
                mine[("op", op)] = (misses, chances, likely, _band(td))
        for td in _cells(totals, row_start):
            said = re.match(r"(.+): ([\d.]+) in \d+ chances(?: \(about (\d+) a student\))?$", _title(td))
            if said:
                title, value, per_student = said.groups()
                words = title[:1].lower() + title[1:]
                mine[("total", words)] = value
                if per_student is not None:
                    mine[("per student", words)] = f"about {per_student}"
    return found


def _likely(words: str) -> str:
    return re.search(r"\((about \d+-\d+ %), from \d+ chances?\)", words).group(1)


def sheet_figures(header, lines) -> dict[str, dict]:
    """The skills CSV and the workbook's Skills sheet: one row per student × measure, per
    operation and per total."""
    measures = {m.id: m for m in all_measures()}
    found: dict[str, dict] = {}
    for line in lines:
        r = {k: ("" if v is None else str(v)) for k, v in zip(header, line)}
        mine = found.setdefault(r["Student"], {})
        key = r["Measure id"]
        if key in measures and int(r["Chances"]):
            if measures[key].has_misses:
                mine[("measure", key)] = (r["Misses"], r["Chances"], _likely(r["In words"]), r["Band"])
            else:
                mine[("median", key)] = (seconds(float(r["Median seconds"])), r["Chances"])
            if r["Total"] != "":
                mine[("amount", key)] = r["Total"]
        elif key.startswith("operation:"):
            mine[("op", key.split(":", 1)[1])] = (r["Misses"], r["Chances"], _likely(r["In words"]),
                                                  r["Band"])
        elif key.startswith("total:"):
            mine[("total", r["Total of"])] = r["Total"]
            per_student = re.search(r"\((about \d+) a student\)", r["In words"])
            if per_student:
                mine[("per student", r["Total of"])] = per_student.group(1)
    return found


def pdf_text(content: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages).split())


def parent_pdf_figures(text: str, name: str, measure_ids) -> dict:
    """A parent's PDF of one student: each measure under its heading (with the band in a
    parent's words), thinking time, each operation, each total beside the class's."""
    # str(): the words are translated lazily (docs/i18n.md); the test reads them in English.
    label_of = {str(PARENT_WORDS[key]): str(band.label) for key, band in BANDS.items()}
    parent_words = "|".join(re.escape(str(w)) for w in PARENT_WORDS.values())
    found = {}
    for measure_id in measure_ids:
        m = measure_by_id(measure_id)
        where = registry.spec_for(m.game).name if m.game else "All games"
        heading = re.escape(f"{m.title} ({where})")
        if m.has_misses:
            said = re.search(heading + rf": ({parent_words}) .*?Missed (\d+) of (\d+): "
                             rf"(about \d+-\d+ %), from \d+ chances?\.", text)
            if said:
                words, misses, chances, likely = said.groups()
                found[("measure", measure_id)] = (misses, chances, likely, label_of[words])
        else:
            said = re.search(heading + rf" {re.escape(name)} takes about (.+?) to decide, over (\d+) "
                             r"decisions\.", text)
            if said:
                found[("median", measure_id)] = said.groups()
    for op, (title, _) in OPERATION_WORDS.items():
        said = re.search(rf"{re.escape(str(title))} \({re.escape(op)}\): {re.escape(name)} got (\d+) of (\d+) "
                         rf"right\.? \(wrong (about \d+-\d+ %), from \d+ chances?\)", text)
        if said:
            right, chances, likely = said.groups()
            found[("op", op)] = (str(int(chances) - int(right)), chances, likely)
    for title, value, per_student in re.findall(r"([A-Z][a-z ]+): ([\d.]+) \(the class: (about \d+) a "
                                                r"student\)\.", text):
        words = title[:1].lower() + title[1:]
        found[("total", words)] = value
        found[("class per student", words)] = per_student
    return found


# ----- the test --------------------------------------------------------------------------------

def test_dashboard_csv_xlsx_and_parent_pdf_agree_number_for_number(client, sim, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    classroom, students = sim.classroom, sim.students
    client.force_login(classroom.owner)
    dashboard = dashboard_figures(
        client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode(), students)
    lines = list(csv.reader(io.StringIO(
        client.get(reverse("reports:skills_csv", args=[classroom.pk])).content.decode("utf-8-sig"))))
    from_csv = sheet_figures(lines[0], lines[1:])
    path = tmp_path / "class.xlsx"
    xlsx.write_xlsx(path, classroom=classroom)
    workbook = load_workbook(path)
    header, *rows = workbook["Skills"].iter_rows(values_only=True)
    from_xlsx = sheet_figures(header, rows)

    names = [s.display_name for s in students] + [CLASS]
    for name in names:
        assert dashboard[name], f"{name} has figures on the dashboard"
        assert from_csv[name] == dashboard[name], name
        assert from_xlsx[name] == dashboard[name], name

    # The workbook's own sheets: per operation and the totals.
    header, *by_op = workbook["By operation"].iter_rows(values_only=True)
    header_totals, *totals = workbook["Totals"].iter_rows(values_only=True)
    for name in names:
        line = next(r for r in by_op if r[0] == name)
        ops = {op: figures[:3] for (kind, op), figures in dashboard[name].items() if kind == "op"}
        for op, (title, _) in OPERATION_WORDS.items():
            tried = line[header.index(f"{title} ({op}): tried")]
            if op in ops:
                misses, chances, likely = ops[op]
                assert (line[header.index(f"{title} ({op}): right")], tried,
                        line[header.index(f"{title} ({op}): likely wrong")]) == (
                    int(chances) - int(misses), int(chances), likely), (name, op)
            else:
                assert tried == 0, (name, op)
        line = next(r for r in totals if r[0] == name)
        shown = {f"{w[:1].upper()}{w[1:]}": v for (kind, w), v in dashboard[name].items() if kind == "total"}
        assert {h: str(v) for h, v in zip(header_totals[1:], line[1:]) if v not in ("", None)} == shown, name

    # Each student's parent PDF: what it says is what the dashboard says of that student.
    class_per_student = {("class per student", w): v for (kind, w), v in dashboard[CLASS].items()
                         if kind == "per student"}
    for student in students:
        name = student.display_name
        shown = dashboard[name]
        text = pdf_text(client.get(reverse("reports:student_pdf", args=[classroom.pk, student.pk])).content)
        said = parent_pdf_figures(text, name, [m for kind, m in shown if kind in ("measure", "median")])
        expected = {key: value[:3] if key[0] == "op" else value for key, value in shown.items()
                    if key[0] in ("measure", "median", "op", "total")}
        expected.update({key: v for key, v in class_per_student.items()
                         if ("total", key[1]) in shown})
        assert said == expected, name

    # The simulated class shows what the test is about: every kind of figure, and a class
    # total given away (not zero) that the late student had no part in.
    kinds = {kind for figures in dashboard.values() for kind, _ in figures}
    assert kinds == {"measure", "median", "amount", "op", "total", "per student"}
    assert dashboard[CLASS][("total", "points given away")] != "0"
    assert ("total", "points given away") not in dashboard["Sim Late"]
    assert ("median", THINK) in dashboard["Sim Late"]
