"""How long an archived class is kept (settings.ARCHIVED_CLASS_RETENTION_DAYS, a year by
default), the warning two weeks before, and the erasure. Run by the daily Celery task
privacy.tasks.retention_sweep; every step is safe to run twice or in two workers at once.

A class is erased at the later of (archived + the retention) and (warned + WARNING_DAYS): a
teacher always has two weeks' notice, even when the job was not running at the time, or when
the retention was shortened.
"""
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db.models import F
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils import translation
from django.utils.formats import date_format
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from accounts.language import user_language
from accounts.models import User
from accounts.typed_text import isolated, sentence_html
from classroom.models import Classroom
from classroom.retention import archived_kept_for
from classroom.selectors import classes_for_teacher, teachers_of_class

from .erasure import erase_classroom
from .models import ErasureWarning

WARNING_DAYS = 14


def kept_for() -> timedelta:
    return timedelta(days=settings.ARCHIVED_CLASS_RETENTION_DAYS)


@dataclass(frozen=True)
class Notice:
    """What the teacher's pages and the e-mail say about one class."""

    classroom: Classroom
    erase_on: datetime

    @property
    def kept_for(self) -> str:
        return archived_kept_for()

    @property
    def erase_day(self) -> str:
        # Translators: the day a class will be erased, as Django's date format: "12 March 2027"
        # (Spanish: "j \\d\\e F \\d\\e Y").
        return date_format(self.erase_on, pgettext("day a class is erased", "j F Y"))

    def _sentence(self) -> tuple[str, dict]:
        return (_("%(class)s will be erased on %(day)s because it was archived %(kept_for)s ago. "
                  "Restore it to keep it, or export it first."),
                {"class": self.classroom.name, "day": self.erase_day, "kept_for": archived_kept_for()})

    @property
    def text(self) -> str:
        """In the active language (the reader's: a page's, or the e-mail's recipient's)."""
        sentence, values = self._sentence()
        return sentence % values

    @property
    def html(self) -> SafeString:
        """The same on a page, the class's name kept apart from the words around it."""
        sentence, values = self._sentence()
        return sentence_html(sentence, {**values, "class": isolated(self.classroom.name)})

    @property
    def subject(self) -> str:
        return _("%(class)s will be erased on %(day)s") % {"class": self.classroom.name, "day": self.erase_day}


def _current(warnings):
    """Warnings still standing: the class is archived, by the same archiving."""
    return warnings.filter(classroom__archived_at=F("archived_at"), erased_at__isnull=True)


def notices_for_teacher(*, teacher: User, classroom: Classroom | None = None) -> list[Notice]:
    """The banners on the teacher's pages: every warned class of theirs, or just `classroom`."""
    classes = classes_for_teacher(teacher=teacher, archived=True)
    if classroom is not None:
        classes = classes.filter(pk=classroom.pk)
    warnings = _current(ErasureWarning.objects.filter(classroom__in=classes)).select_related("classroom")
    return [Notice(w.classroom, w.erase_on) for w in warnings.order_by("erase_on", "pk")]


def warn_due(*, now: datetime) -> int:
    """Warn for each class whose erasure is WARNING_DAYS or less away; returns how many new.
    One warning per archiving (a unique constraint): a second run finds it made."""
    cutoff = now - kept_for() + timedelta(days=WARNING_DAYS)
    made = 0
    for classroom in Classroom.objects.filter(archived_at__lte=cutoff).order_by("pk"):
        erase_on = max(classroom.archived_at + kept_for(), now + timedelta(days=WARNING_DAYS))
        _, created = ErasureWarning.objects.get_or_create(
            classroom=classroom, archived_at=classroom.archived_at,
            defaults={"warned_at": now, "erase_on": erase_on})
        made += created
    return made


def _by_language(teachers) -> dict[str, list[str]]:
    """The teachers' addresses by the language each reads (their choice, else the site's)."""
    grouped: dict[str, list[str]] = {}
    for teacher in teachers.order_by("pk"):
        grouped.setdefault(user_language(user=teacher) or settings.LANGUAGE_CODE, []).append(teacher.email)
    return grouped


def email_warnings(*, now: datetime) -> int:
    """Send each standing warning's e-mail once. A warning is claimed (emailed_at set) before
    sending, so two runs never both send; a send that fails is released for the next run."""
    sent = 0
    for warning in _current(ErasureWarning.objects.filter(emailed_at__isnull=True)):
        if not ErasureWarning.objects.filter(pk=warning.pk, emailed_at__isnull=True).update(emailed_at=now):
            continue
        teachers = teachers_of_class(classroom=warning.classroom).exclude(email="")
        notice = Notice(warning.classroom, warning.erase_on)
        try:
            # One e-mail per language: each teacher reads it in their own.
            for language, emails in _by_language(teachers).items():
                with translation.override(language):
                    send_mail(subject=notice.subject,
                              message=render_to_string("privacy/erasure_warning_email.txt", {"notice": notice}),
                              from_email=None, recipient_list=emails)
        except Exception:
            ErasureWarning.objects.filter(pk=warning.pk).update(emailed_at=None)
            raise
        sent += 1
    return sent


def erase_due(*, now: datetime) -> int:
    """Erase each class whose warning's date has come and that is still archived by the same
    archiving (restoring it cancelled the warning)."""
    erased = 0
    for warning in _current(ErasureWarning.objects.filter(erase_on__lte=now)).select_related("classroom"):
        erase_classroom(classroom=warning.classroom, erased_by=None)
        # The class row may be gone (and the warning with it): marking by pk is a no-op then.
        ErasureWarning.objects.filter(pk=warning.pk).update(erased_at=now)
        erased += 1
    return erased


def retention_run(*, now: datetime | None = None) -> dict[str, int]:
    """The daily job: warn, e-mail, erase. Restored classes' warnings are simply no longer
    current, and a class archived again starts a new retention period."""
    now = now or timezone.now()
    return {"warned": warn_due(now=now), "emailed": email_warnings(now=now),
            "erased": erase_due(now=now)}
