"""What the privacy app itself holds about a student (privacy/registry.py explains each key).
A model of this app that refers to a student (an access log row) is declared here."""

HELD: list[dict] = [
    {
        "model": "privacy.AccessLog",
        "kind": "access_log",
        "label": ("access log entry", "access log entries"),
        "about": "Each time a teacher or an administrator looked at or downloaded this "
                 "student's reports: who, what and when.",
        "student": "student",
        "fields": ["at", "viewer_name", "action", "what", "classroom_name"],
        # The school keeps the record that someone looked; the row then reads "a former
        # student" (privacy/models.py AccessLog.sentence).
        "erase": "detach",
    },
]

NOT_ABOUT_A_STUDENT: dict[str, str] = {
    "privacy.AccessLog.viewer": "viewers are teachers and administrators; a student is never "
                                "logged as a viewer (privacy/middleware.py)",
}
