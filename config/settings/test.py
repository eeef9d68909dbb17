"""Tests: fast hashing, no bot pauses, a file-based SQLite test database (the live Daphne
server used by browser tests runs in another process and must see the same data)."""

import os
import tempfile
import uuid
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
# Browser tests click far faster than any child: the flood tests set their own limit.
USER_MOVES_PER_WINDOW = 10_000
ARENA_TICKER = False  # tests run rounds themselves; the browser tests' server starts one

# One test database per test run (pid), so two suites running side by side never share one.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")}  # noqa: F405
else:
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}  # noqa: F405

# The pool of PostgreSQL connections (base.py) is the production one, but a wait for a connection
# may last a minute before the try-again page: the suite runs on a shared, often busy machine, and
# tests that fire many requests at once from threads (the test client keeps a thread's connection
# until the thread ends) queue for connections. The tests of the timeout set their own.
if DATABASES["default"].get("POOL") and "DB_POOL_TIMEOUT" not in os.environ:  # noqa: F405
    DATABASES["default"]["POOL"]["timeout"] = 60.0  # noqa: F405

# One id per run of the suite and per pytest-xdist worker ("3f9c0a1b2d-gw1"), carried by every
# Redis key the run makes: game ids restart at 1 in every test database, so without it two runs
# (or two workers) sharing a Redis would share channel groups, cache entries and Celery tasks.
# The first process of a run picks it and exports it, so the xdist workers, the browser tests'
# forked server and any subprocess of a test share their run's part; the worker id tells the
# workers apart. tests/conftest.py deletes the run's keys at the end (tests/run_isolation.py).
TEST_RUN_ID = f"{os.environ.setdefault('NUMBERDECK_TEST_RUN', uuid.uuid4().hex[:10])}-" \
              f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"


def run_key_prefix(run_id: str) -> str:
    """Every Redis key of one run starts with this."""
    return f"numberdeck-test:{run_id}:"


def redis_settings_for_run(run_id: str) -> dict:
    """The settings that keep one run's Redis keys, queue and channel groups its own."""
    prefix = run_key_prefix(run_id)
    celery_keys = {"global_keyprefix": f"{prefix}celery:"}
    return {
        "CHANNEL_LAYERS": {"default": {**CHANNEL_LAYERS["default"],  # noqa: F405
                                       "CONFIG": {**CHANNEL_LAYERS["default"].get("CONFIG", {}),  # noqa: F405
                                                  "prefix": f"{prefix}asgi:"}}},
        "CACHES": {"default": {**CACHES["default"], "KEY_PREFIX": f"{prefix}cache"}},  # noqa: F405
        "CELERY_TASK_DEFAULT_QUEUE": f"numberdeck-test-{run_id}",
        "CELERY_BROKER_TRANSPORT_OPTIONS": {**CELERY_BROKER_TRANSPORT_OPTIONS, **celery_keys},  # noqa: F405
        "CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS": celery_keys,
    }


def redis_roles_for_run(run_id: str) -> dict:
    """`redis_settings_for_run`, for the roles this environment puts on Redis (REDIS_URL, or
    CHANNEL_REDIS_URLS, CACHE_REDIS_URL, CELERY_BROKER_URL: config/settings/base.py)."""
    own = redis_settings_for_run(run_id)
    roles = {}
    if CHANNEL_REDIS_URLS:  # noqa: F405
        roles["CHANNEL_LAYERS"] = own["CHANNEL_LAYERS"]
    if CACHE_REDIS_URL:  # noqa: F405
        roles["CACHES"] = own["CACHES"]
    if not CELERY_TASK_ALWAYS_EAGER:  # noqa: F405
        roles.update({k: v for k, v in own.items() if k.startswith("CELERY_")})
    return roles


TEST_RUN_KEY_PREFIX = run_key_prefix(TEST_RUN_ID)
# The settings just above (channel layer, cache, Celery), made this run's own.
globals().update(redis_roles_for_run(TEST_RUN_ID))
# Every Redis server this run writes keys to: tests/conftest.py deletes the run's keys on each.
TEST_REDIS_URLS = sorted({url for url in (*CHANNEL_REDIS_URLS, CACHE_REDIS_URL, CELERY_BROKER_URL)  # noqa: F405
                          if url.startswith(("redis://", "rediss://", "unix://"))})

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

# A test database is thrown away at the end of the run: its commits need not wait for the disk
# (PostgreSQL's synchronous_commit, per connection; about a tenth off the database-bound tests on
# this machine's disk). Behind PgBouncer no startup option is accepted (base.py).
if DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3" and not DB_POOLER:  # noqa: F405
    _options = DATABASES["default"].setdefault("OPTIONS", {})  # noqa: F405
    _options["options"] = (_options.get("options", "") + " -c synchronous_commit=off").strip()
