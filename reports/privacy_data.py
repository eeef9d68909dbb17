"""What the skill reports hold about a student: read by privacy/ (privacy/registry.py explains
each key). Plain data: this app never imports privacy."""

HELD = [
    {
        "model": "reports.SkillEvidence",
        "kind": "skill_evidence",
        "label": ("skill record", "skill records"),
        "about": "One row per chance the student had at a skill in a move (for example picking "
                 "the lowest card), and whether they took it: every number in a report is a count "
                 "of these.",
        "student": "student",
        "fields": ["game_id", "move_id", "classroom__name", "assignment__title", "measure",
                   "detail", "missed", "amount", "turn", "played_at", "week"],
        # Also deletes their roll-ups and flags, then rolls their classes up again without them.
        "erase": "reports.services.student_reports_forget",
    },
    {
        "model": "reports.SkillRollup",
        "kind": "skill_totals",
        "label": ("skill total", "skill totals"),
        "about": "The student's skill records added up, all time and per week, as the reports "
                 "show them.",
        "student": "student",
        "fields": ["classroom__name", "scope", "assignment__title", "week", "measure", "detail",
                   "chances", "misses", "amount_total", "amount_median", "updated_at"],
        "erase": "delete",
    },
    {
        "model": "reports.NeedsHelpFlag",
        "kind": "flags",
        "label": ("'needs help' flag", "'needs help' flags"),
        "about": "Skills where the reports say the student needs help, with the numbers behind "
                 "each flag.",
        "student": "student",
        "fields": ["classroom__name", "measure", "reason", "detail", "game_id", "evidence",
                   "created_at", "updated_at"],
        "erase": "delete",
    },
    {
        "model": "reports.RecomputeJob",
        "kind": "class_exports",
        "label": ("class report file that names them", "class report files that name them"),
        "about": "Report files a teacher made for a whole class the student is or was in (the "
                 "files name every student of the class, so only the file's kind and date are "
                 "listed here).",
        # Every class they are or were in, and every class they have skill records in.
        "student": ["classroom__memberships__student", "classroom__skill_evidence__student"],
        "where": {"kind": "export"},
        "fields": ["classroom__name", "export_format", "status", "created_at", "finished_at"],
        # Deleted with their files (the teacher can make a fresh one, without the student).
        "erase": "delete",
    },
]

NOT_ABOUT_A_STUDENT = {
    "reports.RecomputeJob.requested_by": "the teacher who asked for the job",
}
