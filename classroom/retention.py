"""How long an archived class is kept (settings.ARCHIVED_CLASS_RETENTION_DAYS), in the words
the archive pages here and privacy/ (which warns, then erases the class) both use."""
from django.conf import settings
from django.utils.translation import gettext as _, ngettext


def archived_kept_for() -> str:
    """"a year", "2 years", "90 days", in the reader's language (called at each request)."""
    days = settings.ARCHIVED_CLASS_RETENTION_DAYS
    if days % 365 == 0:
        years = days // 365
        # Translators: how long an archived class is kept: "for a year", "for 2 years".
        return _("a year") if years == 1 else ngettext("%(count)s year", "%(count)s years", years) % {"count": years}
    return _("a day") if days == 1 else ngettext("%(count)s day", "%(count)s days", days) % {"count": days}
