"""What the lti app holds about a student: read by privacy/ (privacy/registry.py explains each
key). Plain data: this app never imports privacy."""

HELD = [
    {
        "model": "lti_tool.LtiUser",
        "kind": "learning_platform",
        "label": ("learning platform link", "learning platform links"),
        "about": "Which school learning platform opens Numberdeck for the student, and the "
                 "number that platform knows them by (Numberdeck keeps no name or e-mail "
                 "address from it), with the courses they opened it from.",
        "student": "auth_user",
        "fields": ["registration__name", "registration__issuer", "sub", "datetime_created"],
        # Their course memberships go with it (django-lti deletes them in cascade).
        "erase": "delete",
    },
    {
        "model": "lti.GradePost",
        "kind": "learning_platform_grade",
        "label": ("grade sent to a learning platform", "grades sent to a learning platform"),
        "about": "The last grade out of 100 Numberdeck sent (or tried to send) to the school's "
                 "learning platform for an assignment placed in a course there, and whether it "
                 "was taken.",
        "student": "student",
        "fields": ["placement__assignment__title", "score", "state", "error", "updated_at"],
        "erase": "delete",
    },
]

NOT_ABOUT_A_STUDENT: dict[str, str] = {
    "lti.RegistrationLink.created_by": "A registration link is made by an administrator, never a student.",
}
