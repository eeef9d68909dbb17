"""The dashboard's live part as HTML, shared by the page view and the dashboard consumer
(which re-renders it for its own teacher whenever the class changes)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.urls import reverse

from accounts.permissions import is_teacher
from classroom import selectors as classroom_selectors
from classroom.models import Classroom

from . import charts, selectors


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
        "trend_charts": [(t, charts.trend_svg(t, chart_id=f"trend-{i}"))
                         for i, t in enumerate(data.trends)],
    }


def render_dashboard_live(*, user, classroom_id: int, assignment_id=None) -> str | None:
    classroom = teacher_classroom(user=user, classroom_id=classroom_id)
    if classroom is None:
        return None
    assignment = (selectors.class_assignment(classroom=classroom, pk=assignment_id)
                  if assignment_id else None)
    context = dashboard_context(classroom=classroom, assignment=assignment)
    context["live"] = True  # sent over the socket: the page is connected
    return render_to_string("reports/_dashboard_live.html", context)
