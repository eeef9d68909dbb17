"""A class's recompute and export jobs."""

from __future__ import annotations

from django.db.models import QuerySet

from classroom.models import Classroom

from ..models import RecomputeJob


def class_job(*, classroom: Classroom, pk: int) -> RecomputeJob | None:
    return RecomputeJob.objects.filter(classroom=classroom, pk=pk).first()


def recent_exports(*, classroom: Classroom, limit: int = 8) -> QuerySet[RecomputeJob]:
    return (RecomputeJob.objects.filter(classroom=classroom, kind=RecomputeJob.Kind.EXPORT)
            .select_related("requested_by").order_by("-created_at", "-id")[:limit])
