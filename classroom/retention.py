"""How long an archived class is kept (settings.ARCHIVED_CLASS_RETENTION_DAYS), in the words
the archive pages here and privacy/ (which warns, then erases the class) both use."""
from django.conf import settings


def archived_kept_for() -> str:
    """"a year", "2 years", "90 days"."""
    days = settings.ARCHIVED_CLASS_RETENTION_DAYS
    if days % 365 == 0:
        years = days // 365
        return "a year" if years == 1 else f"{years} years"
    return "a day" if days == 1 else f"{days} days"
