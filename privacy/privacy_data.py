"""What privacy/ itself holds about a student (privacy/registry.py explains each key)."""

HELD = [
    {
        "model": "privacy.AccessLog",
        "kind": "access_log",
        "label": "access log entries",
        "about": "Each time a teacher or an administrator looked at or downloaded this "
                 "student's reports: who, what and when.",
        "student": "student",
        "fields": ["at", "viewer_name", "action", "what", "classroom_name"],
        # The school keeps the record that someone looked; it then reads "a former student".
        "erase": "detach",
    },
]

NOT_ABOUT_A_STUDENT = {
    "privacy.AccessLog.viewer": "viewers are teachers and administrators; a student is never "
                                "logged as a viewer (privacy/middleware.py)",
}
