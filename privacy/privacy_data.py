"""What the privacy app itself holds about a student (privacy/registry.py explains each key).
A model of this app that refers to a student (an access log row) is declared here."""

HELD: list[dict] = []

NOT_ABOUT_A_STUDENT: dict[str, str] = {}
