"""What the rostering app holds about a student: read by privacy/ (privacy/registry.py explains
each key). Plain data: this app never imports privacy. Which of the school system's ids is
this child (and in which classes it placed them) is the child's: exported, and erased with
them. Nothing else from a roster is kept about a child (docs/privacy.md, "Rosters")."""

HELD = [
    {
        "model": "rostering.RosterEnrollment",
        "kind": "roster_enrollments",
        "label": ("class from the school's roster", "classes from the school's roster"),
        "about": "Each class the school's system (OneRoster) placed the student in: the system's "
                 "name, the id of the enrollment and of the class there, the role, and when the "
                 "roster took it away.",
        "student": "person__user",
        "fields": ["source__name", "sourced_id", "roster_class__sourced_id", "role", "archived_at", "created_at"],
        "erase": "delete",
    },
    {
        "model": "rostering.RosterPerson",
        "kind": "roster_ids",
        "label": ("id in the school's roster", "ids in the school's roster"),
        "about": "The id the school's system (OneRoster) gives the student, so that its next roster "
                 "finds the same account: the system's name and the id, and when it was linked.",
        "student": "user",
        "fields": ["source__name", "sourced_id", "archived_at", "created_at"],
        "erase": "delete",
    },
]

NOT_ABOUT_A_STUDENT = {
    "rostering.RosterImport.uploaded_by": "the administrator who uploaded a roster",
}
