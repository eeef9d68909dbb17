"""What the accounts app holds about a student: read by privacy/ (privacy/registry.py explains
each key). Plain data: this app never imports privacy. The account goes last: every other
app's rows about the student are erased before it (privacy/registry.py `APPS`)."""

HELD = [
    {
        "model": "accounts.Membership",
        "kind": "classes",
        "label": ("class", "classes"),
        "about": "The classes the student is or was in: when they joined, and when they left "
                 "(a left class keeps its records of them).",
        "student": "student",
        "fields": ["classroom__name", "joined_at", "archived_at"],
        "erase": "delete",
    },
    {
        "model": "accounts.User",
        "kind": "account",
        "label": ("account", "accounts"),
        "about": "The student's account: their name, username, and when they joined and last "
                 "played (their classes are in their own file). Their sign-in pictures and password "
                 "are not included: they are a way in, not information about the student.",
        "student": "pk",
        "fields": ["username", "display_name", "is_active", "date_joined",
                   "last_login", "last_seen_at"],
        # Their sign-in lockout counts go too (they are keyed by the account).
        "erase": "accounts.services.student_delete",
    },
]

NOT_ABOUT_A_STUDENT: dict[str, str] = {}
