"""Development: `make run`. DEBUG on, console e-mail, SQLite unless DATABASE_URL is set."""

import os

os.environ.setdefault("DEBUG", "1")

from .base import *  # noqa: E402,F403

# Demo data, simulated classes and benchmarks: never installed in production.
INSTALLED_APPS = [*INSTALLED_APPS, "devtools"]  # noqa: F405
WS_ECHO = True

DEBUG = True
ALLOWED_HOSTS = ALLOWED_HOSTS or ["127.0.0.1", "localhost"]  # noqa: F405
