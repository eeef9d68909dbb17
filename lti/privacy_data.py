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
]

NOT_ABOUT_A_STUDENT: dict[str, str] = {
    "lti.RegistrationLink.created_by": "A registration link is made by an administrator, never a student.",
}
