"""A plan in plain words, class by class: what the upload page and the command both show."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _, ngettext

from .plan import ClassChanges, Plan


@dataclass(frozen=True)
class ClassSummary:
    title: str
    headline: str  # "New class", "Archived", ... ("" when only its people change)
    lines: list[str]


def _names(names: list[str]) -> str:
    return ", ".join(names)


def _headline(c: ClassChanges) -> str:
    return {
        "new": _("New class"),
        "restored": _("Brought back from the archive"),
        "archived": _("Archived: its students keep their accounts with it"),
        "skipped": _("Not added yet: the roster gives it no teacher"),
        "renamed": _("Renamed from “%(old)s”") % {"old": c.old_title},
    }.get(c.status, "")


def _lines(c: ClassChanges) -> list[str]:
    lines = []
    if c.old_title and c.status != "renamed":
        lines.append(_("Renamed from “%(old)s”.") % {"old": c.old_title})
    if c.teachers_added:
        lines.append(ngettext("Teacher added: %(names)s.", "Teachers added: %(names)s.", len(c.teachers_added))
                     % {"names": _names(c.teachers_added)})
    if c.teachers_removed:
        lines.append(ngettext("Teacher taken off: %(names)s.", "Teachers taken off: %(names)s.",
                              len(c.teachers_removed)) % {"names": _names(c.teachers_removed)})
    if c.students_added:
        lines.append(ngettext("%(count)s student added: %(names)s.", "%(count)s students added: %(names)s.",
                              len(c.students_added)) % {"count": len(c.students_added),
                                                        "names": _names(c.students_added)})
    for name, from_class in c.students_moved_in:
        lines.append(_("%(name)s moves here from %(class)s.") % {"name": name, "class": from_class})
    for name, to_class in c.students_moved_out:
        lines.append(_("%(name)s leaves for %(class)s.") % {"name": name, "class": to_class})
    for old, new in c.students_renamed:
        lines.append(_("%(old)s is now called %(new)s.") % {"old": old, "new": new})
    if c.students_removed:
        lines.append(ngettext("%(count)s student taken off the list: %(names)s.",
                              "%(count)s students taken off the list: %(names)s.", len(c.students_removed))
                     % {"count": len(c.students_removed), "names": _names(c.students_removed)})
    return lines


def summaries(plan: Plan) -> list[ClassSummary]:
    return [ClassSummary(c.title, _headline(c), _lines(c)) for c in plan.changed_classes]


def as_text(plan: Plan) -> str:
    """The preview for a terminal."""
    if plan.is_empty:
        out = [_("Nothing changes: Numberdeck already matches this roster.")]
    else:
        out = []
        for summary in summaries(plan):
            out.append(f"{summary.title}" + (f" — {summary.headline}" if summary.headline else ""))
            out += [f"  {line}" for line in summary.lines]
        for old, new in plan.teachers_renamed:
            out.append(_("%(old)s is now called %(new)s.") % {"old": old, "new": new})
    out += [_("Note: %(note)s") % {"note": note} for note in plan.notes]
    return "\n".join(out)
