"""What the skill reports hold about a student: read by privacy/ (privacy/registry.py explains
each key). Plain data: this app never imports privacy. The words people read (a label's two
forms, `about`) are translated lazily, in the reader's language when privacy/ shows them."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

HELD = [
    {
        "model": "reports.SkillEvidence",
        "kind": "skill_evidence",
        "label": (pgettext_lazy("privacy: one", "skill record"), pgettext_lazy("privacy: many", "skill records")),
        "about": _("One row per chance the student had at a skill in a move (for example picking "
                   "the lowest card), and whether they took it: every number in a report is a count "
                   "of these."),
        "student": "student",
        "fields": ["game_id", "move_id", "classroom__name", "assignment__title", "measure",
                   "detail", "missed", "amount", "turn", "played_at", "week"],
        # Also deletes their roll-ups and flags, then rolls their classes up again without them.
        "erase": "reports.services.student_reports_forget",
    },
    {
        "model": "reports.SkillRollup",
        "kind": "skill_totals",
        "label": (pgettext_lazy("privacy: one", "skill total"), pgettext_lazy("privacy: many", "skill totals")),
        "about": _("The student's skill records added up, all time and per week, as the reports "
                   "show them."),
        "student": "student",
        "fields": ["classroom__name", "scope", "assignment__title", "week", "measure", "detail",
                   "chances", "misses", "amount_total", "amount_median", "updated_at"],
        "erase": "delete",
    },
    {
        "model": "reports.NeedsHelpFlag",
        "kind": "flags",
        "label": (pgettext_lazy("privacy: one", "'needs help' flag"), pgettext_lazy("privacy: many", "'needs help' flags")),
        "about": _("Skills where the reports say the student needs help, with the numbers behind "
                   "each flag."),
        "student": "student",
        "fields": ["classroom__name", "measure", "reason", "detail", "game_id", "evidence",
                   "created_at", "updated_at"],
        "erase": "delete",
    },
    {
        "model": "reports.RecomputeJob",
        "kind": "class_exports",
        "label": (pgettext_lazy("privacy: one", "class report file that names them"),
                  pgettext_lazy("privacy: many", "class report files that name them")),
        "about": _("Report files a teacher made for a whole class the student is or was in (the "
                   "files name every student of the class, so only the file's kind and date are "
                   "listed here)."),
        # Their class now, and every class they have skill records in.
        "student": ["classroom__students", "classroom__skill_evidence__student"],
        "where": {"kind": "export"},
        "fields": ["classroom__name", "export_format", "status", "created_at", "finished_at"],
        # Deleted with their files (the teacher can make a fresh one, without the student).
        "erase": "delete",
    },
]

NOT_ABOUT_A_STUDENT = {
    "reports.RecomputeJob.requested_by": "the teacher who asked for the job",
}
