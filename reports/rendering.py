"""The dashboard's live part, shared by the page view (the whole fragment, inline) and the
dashboard consumer, which re-renders it for its own teacher whenever the class changes, as its
named parts (LIVE_PARTS: the partials of reports/_dashboard_live.html)."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from accounts.language import user_language
from accounts.permissions import is_teacher
from classroom import selectors as classroom_selectors
from classroom.models import Classroom
from live.partials import render_partials

from . import charts, selectors
from live.diff import LivePart


def teacher_classroom(*, user, classroom_id: int) -> Classroom | None:
    """An active class the user teaches, else None (the consumer's permission check)."""
    if not is_teacher(user):
        return None
    return classroom_selectors.classes_for_teacher(teacher=user).filter(pk=classroom_id).first()


def dashboard_context(*, classroom: Classroom, assignment=None) -> dict:
    data = selectors.dashboard(classroom=classroom, assignment=assignment)
    return {
        "classroom": classroom, "d": data,
        # One reverse() for every row's link, not one per row.
        "student_url_prefix": reverse("reports:student", args=[classroom.pk, 0])[:-2],
        "moves_url": reverse("reports:moves", args=[classroom.pk]),
        "practise_url": reverse("reports:practise", args=[classroom.pk]),
        "trend_charts": [(t, charts.trend_svg(t, chart_id=f"trend-{i}"))
                         for i, t in enumerate(data.trends)],
    }


# The live fragment's parts, in page order: a push sends those that changed (live/diff.py).
LIVE_PARTS = ("connection", "summary", "now", "alerts", "skills", "skills_updated", "operations",
              "totals", "trends", "games")


def render_dashboard_live(*, user, classroom_id: int, assignment_id=None,
                          browser_language: str = "") -> dict[str, LivePart] | None:
    """The live fragment's parts (name -> LivePart: its HTML and its items) for a teacher of
    the class, else None. In that teacher's language (their own choice, else what their
    browser asked for when the socket opened, `browser_language`): a socket has no
    LocaleMiddleware, and each consumer renders for its own teacher, so two teachers of a
    class each read their own language."""
    language = user_language(user=user) or browser_language or settings.LANGUAGE_CODE
    with translation.override(language):
        return _render_live(user=user, classroom_id=classroom_id, assignment_id=assignment_id)


def _render_live(*, user, classroom_id: int, assignment_id=None) -> dict[str, LivePart] | None:
    classroom = teacher_classroom(user=user, classroom_id=classroom_id)
    if classroom is None:
        return None
    assignment = (selectors.class_assignment(classroom=classroom, pk=assignment_id)
                  if assignment_id else None)
    context = dashboard_context(classroom=classroom, assignment=assignment)
    context["live"] = True  # sent over the socket: the page is connected
    parts = {}
    for name in LIVE_PARTS:
        # One part at a time, so the `live_item` tag records each part's own items.
        context["live_items"] = items = {}
        html = render_partials(template_name="reports/_dashboard_live.html", names=(name,),
                               context=context)[name]
        parts[name] = LivePart(html=html, items=items)
    return parts
