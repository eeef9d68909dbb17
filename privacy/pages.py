"""The privacy page anyone may read, and the access log's pages: a class's (its teachers, and
administrators) and all of it (administrators)."""
from django.conf import settings
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render

from accounts.permissions import administrator_required, class_access_log_required, is_administrator
from classroom.models import Classroom
from classroom.retention import archived_kept_for
from classroom.selectors import classes_for_teacher
from reports.exports.jobs import KEEP_FILES_DAYS

from . import access_log
from .retention import WARNING_DAYS

PER_PAGE = 100


def privacy_page(request):
    return render(request, "privacy/privacy.html", {
        "kept_for": archived_kept_for(), "retention_days": settings.ARCHIVED_CLASS_RETENTION_DAYS,
        "warning_days": WARNING_DAYS, "export_days": KEEP_FILES_DAYS,
        "session_days": settings.SESSION_COOKIE_AGE // (24 * 60 * 60),
    })


def _log_page(request, entries, **context):
    page = Paginator(entries, PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "privacy/access_log.html", {"page": page, **context})


@class_access_log_required
def class_access_log(request, pk: int):
    """A teacher sees the log of their classes (archived ones too); an administrator, any."""
    classes = Classroom.objects.all() if is_administrator(request.user) else \
        classes_for_teacher(teacher=request.user, archived=None)
    classroom = get_object_or_404(classes, pk=pk)
    return _log_page(request, access_log.entries(classroom=classroom), classroom=classroom)


@administrator_required
def access_log_all(request):
    return _log_page(request, access_log.entries(), classroom=None)
