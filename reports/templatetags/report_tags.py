"""Small helpers for the report templates."""

from django import template
from django.utils.html import format_html

from ..measures import measure_by_id
from ..words import BANDS, Band, band_for

register = template.Library()

FACT_MIN = 3  # a fact named fewer times than this is shown, but not judged


@register.filter
def fact_band(cell) -> Band:
    if not cell.declared:
        return BANDS["none"]
    if cell.declared < FACT_MIN:
        return BANDS["few"]
    return band_for(cell.wrong, cell.declared)


@register.filter
def percent(value) -> str:
    return "" if value is None else f"{round(100 * value)}%"


@register.filter
def measure_words(measure_id: str) -> str:
    m = measure_by_id(measure_id)
    return (m.miss_words or m.title) if m else measure_id


@register.filter
def error_words(code: str) -> str:
    """An engine error code, readable: "uneven_division" -> "uneven division"."""
    return str(code).replace("_", " ")


@register.simple_tag
def skill_cell(cell, moves_url: str, student=None, assignment=None):
    """One skill-table cell, built here rather than by an {% include %} per cell: a class of
    30 has hundreds of cells and the dashboard has a 150 ms budget. Words, a band word and
    symbol (never colour alone), and both numbers linking to the moves behind them."""
    if not cell.chances:
        return format_html('<td class="skill-cell band-none" title="{}"><span class="muted">–'
                           '<span class="sr-only"> no games yet</span></span></td>', cell.words)
    query = f"?measure={cell.measure.id}"
    if student is not None:
        query += f"&student={student.pk}"
    if assignment is not None:
        query += f"&assignment={assignment.pk}"
    band = cell.band
    if cell.measure.has_misses:
        words = format_html(
            'missed <a href="{}" aria-label="{} missed: list them">{}</a> of '
            '<a href="{}" aria-label="{} {}: list them">{}</a>',
            f"{moves_url}{query}&missed=1", cell.misses, cell.misses,
            f"{moves_url}{query}&missed=all", cell.chances, cell.measure.chance_unit, cell.chances)
    else:
        words = format_html('<a href="{}">{}</a>', f"{moves_url}{query}&missed=all", cell.short)
    return format_html(
        '<td class="skill-cell band-{}" title="{}"><span class="cell-words">{}</span>'
        '<span class="band-label"><span aria-hidden="true">{}</span> {}</span></td>',
        band.key, cell.words, words, band.symbol, band.label)
