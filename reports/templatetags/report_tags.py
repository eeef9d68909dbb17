"""Small helpers for the report templates."""

from decimal import ROUND_HALF_UP, Decimal
from urllib.parse import quote, urlencode

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from accounts.numbers import format_percent

from games.engine.skills import fact_name
from games.practice import can_practise, label_of

from ..cells import Total, amount_in_words
from ..detail_flags import Row
from ..measures import measure_by_id
from ..selectors.practice import PracticeTarget, flag_target
from ..uncertainty import BANDS, Band, band_for, range_short

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
def fact_range(cell) -> str:
    """'about 20-60 %' of a fact's wrong tries ('' when not tried)."""
    return range_short(cell.wrong, cell.declared) if cell.declared else ""


@register.filter
def percent(value) -> str:
    return "" if value is None else format_percent(value)


@register.filter
def measure_words(measure_id: str) -> str:
    m = measure_by_id(measure_id)
    return (m.miss_words or m.title) if m else measure_id


@register.filter
def measure_title(measure_id: str) -> str:
    """A measure's short title ("Times tables"), or the id when it is not one."""
    m = measure_by_id(measure_id)
    return m.title if m else measure_id


@register.filter
def band_named(key: str) -> Band:
    """A band by its key ("practise"), for a flag that stored it."""
    return BANDS.get(key, BANDS["few"])


@register.filter
def amount_of(amount, measure) -> str:
    """A row's amount in its measure's unit, rounded to a whole number as the moves page shows
    it: "3 points given away", with the plural form the number takes in the reader's language."""
    rounded = int(Decimal(str(amount)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return amount_in_words(measure.amount_words, rounded)


@register.filter
def detail_of(detail: str, measure):
    """A row's detail as its measure words it ("needed 7x8"), the detail isolated (<bdi>)."""
    shown = format_html("<bdi>{}</bdi>", detail)
    if not measure.detail_words:
        return shown
    pattern = conditional_escape(str(measure.detail_words))  # "needed %(detail)s", translated
    if "%(detail)s" not in pattern:
        return format_html("{} {}", pattern, shown)
    return mark_safe(pattern.replace("%(detail)s", shown))


@register.filter
def focus_label(stored) -> str:
    """What a stored "Practise this" focus practises, in the reader's language."""
    return label_of(stored)


@register.filter
def flag_row_words(evidence) -> str:
    """A detail flag's row in the reader's words ('7 × 8: 6 of 16 wrong'), from the numbers it
    stored (the words stored with it are in the language of whoever's request made it)."""
    try:
        return Row.from_evidence(evidence).words
    except (KeyError, TypeError):
        return evidence.get("words", "")


@register.filter
def flag_row_range(evidence) -> str:
    """A detail flag's likely miss rate ('about 20-60 %'), in the reader's words."""
    try:
        return range_short(evidence["misses"], evidence["chances"])
    except (KeyError, TypeError):
        return evidence.get("range", "")


@register.filter
def error_words(code: str) -> str:
    """An engine error code, readable: "uneven_division" -> "uneven division"."""
    return str(code).replace("_", " ")


def practise_href(practise_url: str, measure_id: str, students=(), detail: str = "") -> str:
    return target_href(practise_url, PracticeTarget(measure_id, detail), students)


def target_href(practise_url: str, target: PracticeTarget, students=()) -> str:
    return f"{practise_url}?{urlencode(target.query(students))}"


def _target_link(practise_url: str, target: PracticeTarget, student) -> str:
    """"Practise this" for one student; its accessible name says what and for whom
    ("Practise this: 7 × 8 for Ann")."""
    visible = pgettext("link", "Practise this")
    # Translators: a link's name for screen readers, "Practise this: 7 × 8 for Ann".
    label = _("%(link)s: %(what)s for %(name)s") % {"link": visible, "what": target.what,
                                                    "name": student.display_name}
    return format_html('<a class="practise-link" href="{}" aria-label="{}">{}</a>',
                       target_href(practise_url, target, [student]), label, visible)


@register.simple_tag
def flag_practise_link(flag, practise_url: str = ""):
    """A flag card's one action: "Practise this" for what the flag is about, in the game and
    at the level its evidence came from (reports/selectors/practice.py `flag_target`); "" when
    no game can practise it."""
    target = flag_target(flag)
    if target is None:
        return ""
    return _target_link(practise_url or reverse("reports:practise", args=[flag.classroom_id]), target,
                        flag.student)


@register.simple_tag
def target_practise_href(practise_url: str, target, student) -> str:
    """The Practise page's address for what a student most needs to practise
    (`selectors.weakest_target`)."""
    return target_href(practise_url, target, [student]) if target is not None else ""


@register.simple_tag
def practise_link(practise_url: str, measure, student=None, group=None, detail: str = "",
                  what: str = "", short: bool = False):
    """A "Practise this" link (docs/reports-dashboard.md): for `student`, for a `group` of
    students (a list of them or their ids), or for the whole class (neither); "" when the
    measure has no game to practise it in. Plain words; its accessible name starts with the
    words shown and says what and for whom ("Practise: 7 × 8 for Ann")."""
    measure_id = getattr(measure, "id", measure)
    if not practise_url or not can_practise(measure_id):
        return ""
    what = what or (fact_name(detail) if detail else getattr(measure, "title", measure_id))
    # "Practise" / "Practise this": a link that opens a new assignment (a verb, not the band).
    visible = pgettext("link", "Practise") if short else pgettext("link", "Practise this")
    values = {"link": visible, "what": what}
    if student is not None:
        students, shown = [student], ""
        values["name"] = student.display_name
        # Translators: a link's name for screen readers, "Practise this: 7 × 8 for Ann".
        label = _("%(link)s: %(what)s for %(name)s") % values
    elif group:
        students = list(group)
        values["count"] = len(group)
        label = ngettext("%(link)s: %(what)s for the %(count)s students who need it most",
                         "%(link)s: %(what)s for the %(count)s students who need it most",
                         len(group)) % values
        # Translators: after "Practise this", how many students it is for.
        shown = ngettext(" (%(count)s student)", " (%(count)s students)", len(group)) % values
    else:
        students = []
        label = _("%(link)s: %(what)s for the whole class") % values
        shown = _(" (whole class)")
    return format_html('<a class="practise-link" href="{}" aria-label="{}">{}{}</a>',
                       practise_href(practise_url, measure_id, students, detail), label,
                       visible, "" if short else shown)


@register.simple_tag
def row_head(row, student_url_prefix: str, practise_url: str):
    """A skill-table row's heading: the student's name, and their "Practise this" (the weakest
    of their skills at Practise or Needs help and their flags, `SkillRow.practise_target`) or
    why there is none. A live item of its own: it changes with the row's cells."""
    name = row.student.display_name
    target = row.practise_target
    if target is not None:
        practise = format_html(
            '<a class="practise-link" href="{}" aria-label="{}">{}</a>',
            target_href(practise_url, target, [row.student]),
            # Translators: a link's name for screen readers: "Practise this: Ann's weakest skill, Best card".
            _("Practise this: %(name)s's weakest skill, %(skill)s") % {"name": name, "skill": target.what},
            pgettext("link", "Practise this"))
    else:
        practise = format_html('<span class="practise-none small muted">{}</span>', row.practise_none)
    return format_html('<th scope="row"><a href="{}{}/">{}</a>\n                {}</th>',
                       student_url_prefix, row.student.pk, name, practise)


@register.simple_tag
def skill_cell(cell, moves_url: str, student=None, assignment=None, practise_url: str = "",
               group=None):
    """One skill-table cell, built here rather than by an {% include %} per cell: a class of
    30 has hundreds of cells and the dashboard has a 150 ms budget. Words, a band word and
    symbol (never colour alone), and both numbers linking to the moves behind them; with
    `practise_url`, a "Practise this" link when something was missed (for `student`, or
    for the class row: the `group` who need it, else the whole class)."""
    if not cell.chances:
        return format_html('<td class="skill-cell band-none" title="{}"><span class="muted">–'
                           '<span class="sr-only"> {}</span></span></td>', cell.words, _("no games yet"))
    query = f"?measure={cell.measure.id}"
    if student is not None:
        query += f"&student={student.pk}"
    if assignment is not None:
        query += f"&assignment={assignment.pk}"
    band = cell.band
    likely = ""
    if cell.measure.has_misses:
        likely = format_html('<span class="cell-range">{}</span>', cell.range)
        words = _missed_links(
            f"{moves_url}{query}&missed=1", f"{moves_url}{query}&missed=all", cell.misses, cell.chances,
            # Translators: a link's name for screen readers, "4 missed: list them".
            _("%(count)s missed: list them") % {"count": cell.misses},
            # Translators: a link's name for screen readers, "37 turns: list them" (unit: the game's word).
            _("%(count)s %(unit)s: list them") % {"count": cell.chances, "unit": cell.measure.chance_unit})
    else:
        words = format_html('<a href="{}">{}</a>', f"{moves_url}{query}&missed=all", cell.short)
    amount = ""
    if cell.measure.amount_words and cell.measure.family == "strategy" and cell.chances:
        value = Total(cell.measure.amount_words, cell.amount, cell.chances)
        amount = format_html('<span class="cell-amount">{}</span>', value.short)
    practise = ""
    # Offered only where a band says Practise or Needs help: the student's own, or for the
    # class row the students who need it (else the class's own band).
    offered = cell.band.offers_practice or (student is None and bool(group))
    if practise_url and cell.measure.has_misses and offered:
        practise = practise_link(practise_url, cell.measure, student, group)
    return format_html(
        '<td class="skill-cell band-{}" title="{}"><span class="cell-words">{}</span>{}{}'
        '<span class="band-label"><span aria-hidden="true">{}</span> {}</span>{}</td>',
        band.key, cell.words, words, likely, amount, band.symbol, band.label, practise)


def _missed_links(missed_url: str, all_url: str, misses: int, chances: int, missed_label: str,
                  all_label: str):
    """'missed <4> of <37>', each number a link to the moves behind it. The sentence is one
    translation with the two links in it (their order may change in another language)."""
    # Translators: a table cell, "missed 4 of 37"; keep both links (each number opens the moves).
    sentence = _("missed %(misses)s of %(count)s")
    links = {
        "misses": format_html('<a href="{}" aria-label="{}">{}</a>', missed_url, missed_label, misses),
        "count": format_html('<a href="{}" aria-label="{}">{}</a>', all_url, all_label, chances),
    }
    return format_html(sentence.replace("%(misses)s", "{misses}").replace("%(count)s", "{count}"), **links)


@register.simple_tag
def op_cell(cell, moves_url: str = "", student=None, assignment=None):
    """One operation's accuracy (summed over the measures with `by_operation`): words, the
    likely range, a band word and symbol. The numbers link to the moves when one measure
    holds them all (the moves page lists one measure's rows)."""
    if not cell.chances:
        return format_html('<td class="skill-cell band-none" title="{}"><span class="muted">–'
                           '<span class="sr-only"> {}</span></span></td>', cell.words, _("not tried yet"))
    band = cell.band
    if moves_url and len(cell.measure_ids) == 1:
        query = f"?measure={cell.measure_ids[0]}&detail={quote(cell.op)}"
        if student is not None:
            query += f"&student={student.pk}"
        if assignment is not None:
            query += f"&assignment={assignment.pk}"
        values = {"count": cell.misses, "sign": cell.op}
        words = _missed_links(
            f"{moves_url}{query}&missed=1", f"{moves_url}{query}&missed=all", cell.misses, cell.chances,
            # Translators: a link's name for screen readers, "3 wrong with ÷: list them".
            _("%(count)s wrong with %(sign)s: list them") % values,
            _("%(count)s tries with %(sign)s: list them") % {**values, "count": cell.chances})
    else:
        words = cell.short
    return format_html(
        '<td class="skill-cell band-{}" title="{}"><span class="cell-words">{}</span>'
        '<span class="cell-range">{}</span>'
        '<span class="band-label"><span aria-hidden="true">{}</span> {}</span></td>',
        band.key, cell.words, words, cell.range, band.symbol, band.label)


@register.simple_tag
def total_cell(total):
    """A total given away (points, cards), as a number and its words."""
    if not total.chances:
        return format_html('<td class="total-cell" title="{}"><span class="muted">–'
                           '<span class="sr-only"> {}</span></span></td>', total.words_full, _("no games yet"))
    extra = ""
    if total.students:
        # Translators: under a class total, "about 9 a student".
        extra = format_html('<span class="cell-range">{}</span>',
                            _("about %(each)s a student") % {"each": f"{total.per_student:.0f}"})
    return format_html('<td class="total-cell" title="{}"><span class="cell-words">{}</span>{}</td>',
                       total.words_full, total.short, extra)


@register.filter
def cell_range_words(cell) -> str:
    return getattr(cell, "range_words", "")


@register.filter
def has_family(groups, key) -> bool:
    """Whether [(family, ...)] has the family `key`."""
    return any(fam.key == key for fam, *_ in groups)


@register.filter
def measures_of(totals, words) -> list:
    """The measures of a totals table whose amounts read `words`."""
    return totals.measures_of(words)


@register.filter
def needing(table, measure_id):
    """The students of a skill table whose band on a measure is Practise or Needs help."""
    return table.needing(measure_id)
