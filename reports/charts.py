"""Charts as server-rendered SVG (no chart library, no CDN).

Every chart is an `<svg role="img">` with a title and a description that says the same thing
in words, and every point carries its numbers as text (a `<title>` tooltip and a label), so
nothing depends on colour or on seeing the line.

Right to left (Arabic): the charts are not mirrored. Time runs left to right, oldest first, in
every language, as the numbers and equations on the cards do (docs/i18n.md): reports.css
gives the SVG `direction: ltr` so its axis labels anchor where they are drawn.
"""

from __future__ import annotations

from django.utils.dateformat import format as date_format
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.safestring import SafeString, mark_safe

from .cells import decimal, missed_of, seconds
from .selectors import Trend

WIDTH, HEIGHT = 340, 150
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 14, 30


def _week(d) -> str:
    return date_format(d, "j M")


def _week_said(week, words: str) -> str:
    # Translators: one point of a chart, "week of 3 Nov: missed 4 of 37".
    return _("week of %(week)s: %(what)s") % {"week": _week(week), "what": words}


def trend_svg(trend: Trend, *, chart_id: str, subject: str = "") -> SafeString:
    """A line of the weekly miss rate (or median seconds for thinking time), oldest left."""
    m = trend.measure
    points = trend.points
    if m.has_misses:
        values = [None if not p.chances else 100 * p.misses / p.chances for p in points]
        # Scale to the data (25, 50 or 100 %) so a class missing 10-15 % is not a flat line;
        # the axis labels say which scale it is.
        highest = max([v for v in values if v is not None] or [0])
        top = next(t for t in (25.0, 50.0, 100.0) if highest <= t)
        said = [_week_said(p.week, missed_of(p.misses, p.chances) if p.chances else _("no games"))
                for p in points]
    else:
        values = [p.median if p.chances else None for p in points]
        top = max([v for v in values if v is not None] or [1]) * 1.2 or 1
        said = [_week_said(p.week, _("%(time)s per decision") % {"time": seconds(p.median)}
                           if p.chances else _("no games"))
                for p in points]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / max(1, len(points) - 1)

    def xy(i, v):
        return LEFT + i * step, TOP + plot_h * (1 - v / top)

    named = {"who": subject or _("Class"), "skill": m.title}
    # Translators: a chart's title, "Class: Best card, % missed per week" (who: a student's name or "Class").
    title = (_("%(who)s: %(skill)s, %% missed per week") if m.has_misses
             else _("%(who)s: %(skill)s, seconds per week")) % named
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'role="img" aria-labelledby="{chart_id}-t {chart_id}-d" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-t">{escape(title)}</title>',
        f'<desc id="{chart_id}-d">{escape("; ".join(said))}.</desc>',
    ]
    for frac in (0, 0.5, 1):  # grid lines with their values written out
        y = TOP + plot_h * (1 - frac)
        label = (f"{frac * top:g}%" if m.has_misses
                 else _("%(seconds)s s") % {"seconds": decimal(f"{frac * top:g}")})
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>')
        parts.append(f'<text class="axis" x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
    for i in (0, len(points) - 1):
        parts.append(f'<text class="axis" x="{LEFT + i * step:.1f}" y="{HEIGHT - 8}" '
                     f'text-anchor="{"start" if i == 0 else "end"}">{_week(points[i].week)}</text>')
    # The line breaks where a week had no games, rather than pretending to know.
    segment: list[str] = []
    segments = []
    for i, v in enumerate(values):
        if v is None:
            if segment:
                segments.append(segment)
            segment = []
            continue
        x, y = xy(i, v)
        segment.append(f"{x:.1f},{y:.1f}")
    if segment:
        segments.append(segment)
    for seg in segments:
        parts.append(f'<polyline class="line" points="{" ".join(seg)}"/>')
    for i, (v, words) in enumerate(zip(values, said)):
        if v is None:
            continue
        x, y = xy(i, v)
        parts.append(f'<circle class="dot" cx="{x:.1f}" cy="{y:.1f}" r="4"><title>{escape(words)}</title></circle>')
    parts.append("</svg>")
    return mark_safe("".join(parts))
