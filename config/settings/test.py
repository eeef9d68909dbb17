"""Tests: fast hashing, no bot pauses, a file-based SQLite test database (the live Daphne
server used by browser tests runs in another process and must see the same data)."""

import os
import tempfile
from pathlib import Path

from .base import *  # noqa: F403

# Demo data, simulated classes and benchmarks: never installed in production.
INSTALLED_APPS = [*INSTALLED_APPS, "devtools"]  # noqa: F405
WS_ECHO = True

DEBUG = False
SECRET_KEY = "test-secret-key-not-for-production-use-0123456789abcdef"
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
BOT_DELAY_SECONDS = 0

# One test database per test run (pid), so two suites running side by side never share one.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")}  # noqa: F405
else:
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}  # noqa: F405

# The live Daphne server of browser tests serves static files straight from static/.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Files the tests make (exports), also through the live server of browser tests (a fork that
# keeps these settings), go to a temporary folder, not the repository's media/.
MEDIA_ROOT = Path(tempfile.gettempdir()) / f"numberdeck-test-media-{os.getpid()}"  # noqa: F405

# Templates and static files that only tests use: a test-only game's board and stylesheet
# (tests/templates/, tests/static/).
TEMPLATES = [{**TEMPLATES[0], "DIRS": [*TEMPLATES[0]["DIRS"], BASE_DIR / "tests" / "templates"]}]  # noqa: F405
STATICFILES_DIRS = [*STATICFILES_DIRS, BASE_DIR / "tests" / "static"]  # noqa: F405
