"""Settings shared by every environment. Environment variables switch features:

- DATABASE_URL: PostgreSQL (or any dj-database-url URL); SQLite in the repo when unset.
- REDIS_URL: when set, channels-redis, the Redis cache and a real Celery broker; when unset,
  the in-memory channel layer, the local-memory cache and eager Celery.
- CHANNEL_REDIS_URLS, CACHE_REDIS_URL, CELERY_BROKER_URL: one Redis role each on Redis servers
  of its own (the channel layer sharded over several); each role unset falls back on REDIS_URL
  (docs/deploy.md).
- DB_POOLER=pgbouncer: PostgreSQL is reached through PgBouncer in transaction mode.
- DB_POOL_MAX_SIZE, DB_POOL_MIN_SIZE, DB_POOL_TIMEOUT: each process's bounded pool of PostgreSQL
  connections (docs/deploy.md, "Database connections").
- SECRET_KEY, DEBUG, ALLOWED_HOSTS.
"""

import os
from pathlib import Path
from urllib.parse import urlparse

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from redis.exceptions import ConnectionError as RedisConnectionError

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-insecure-key-change-me-in-production")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",  # must precede staticfiles so `runserver` serves ASGI
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "channels",
    "accounts",
    "classroom",
    "reports",
    "games",
    "live",
    "arena",
    "privacy",
    "rostering",
    "lti_tool",  # django-lti: platforms, deployments, courses, people, keys (docs/lti.md)
    "lti",
]

MIDDLEWARE = [
    "config.unavailable.DatabaseAwayMiddleware",  # first: a database away gives a try-again page, not a 500
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # the Content-Security-Policy header (below)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the visitor's language (LANGUAGES below)
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.language.UserLanguageMiddleware",  # a signed-in person's own language, or their class's
    "privacy.middleware.AccessLogMiddleware",  # who viewed or exported a child's reports
    "accounts.middleware.DeviceCookieMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.boosted_forms.BoostedFormRedirectMiddleware",  # a sent form's redirect is a whole-page visit
]

# Content-Security-Policy (docs/csp.md): every page's scripts, styles, images and sockets come
# from this site only, and nothing inline runs or applies (no <script> body, no on*= handler, no
# style="..." or <style>): a script or style injected into a page, through a name a teacher
# typed for instance, does nothing. 'self' also covers this host's ws:/wss: sockets.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],  # the QR codes are inline <svg> elements, not data: images
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

ROOT_URLCONF = "config.urls"
# The echo socket (/ws/echo/) is the latency benchmark's floor; off unless asked for.
WS_ECHO = env_bool("WS_ECHO", False)
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=0,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # SQLite has no row locks (select_for_update is a no-op there). IMMEDIATE transactions
    # take the write lock at BEGIN, so concurrent moves queue up instead of failing with
    # "database is locked"; PostgreSQL uses real row locks.
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
    # SQLite cannot make the roll-up and flag unique keys that treat nulls as equal; the
    # services rebuild those rows under a lock on the class instead of relying on them.
    SILENCED_SYSTEM_CHECKS = ["models.W047"]
# DB_POOLER=pgbouncer: the database is reached through PgBouncer in transaction mode
# (docs/deploy.md), which hands each transaction to whichever server connection is free. A
# server-side cursor (what QuerySet.iterator() opens on PostgreSQL) lives in the server
# connection that declared it, so its next fetch could land on another one: Django then reads
# iterator() results with client-side cursors, in chunks. PgBouncer also refuses startup
# parameters it does not track, so `jit=off` (below) is set on the database instead.
DB_POOLER = os.environ.get("DB_POOLER", "")
if DB_POOLER not in ("", "pgbouncer"):
    raise ImproperlyConfigured(f"DB_POOLER must be 'pgbouncer' or unset, not {DB_POOLER!r}")
if DB_POOLER:
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
elif not DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # No JIT: our queries are short, and PostgreSQL's JIT compiles any query whose estimated
    # cost is high (a delete of a game's report rows was estimated at 200,000 rows) at a cost of
    # hundreds of milliseconds each time, which was most of the report analysis time. Behind
    # PgBouncer: `ALTER DATABASE ... SET jit = off` (docs/deploy.md).
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c jit=off"

# Database connections (docs/deploy.md, "Database connections"). Django opens a connection per
# thread that queries, and under ASGI those threads are many: one per HTTP request being served
# and the sockets' pool of threads. Kept for CONN_MAX_AGE, they grew with the load past what
# PostgreSQL allows ("too many clients", and 500s for children signing in). On PostgreSQL each
# process instead borrows from a pool of at most DB_POOL_MAX_SIZE connections
# (config/postgresql/): a thread borrows one when it first queries and gives it back when Django
# closes it (end of a request, of a socket's query, of a Celery task), so CONN_MAX_AGE is 0. A
# request that finds every connection lent waits its turn, up to DB_POOL_TIMEOUT seconds, and
# then gets the try-again page (503; config/unavailable.py). Idle connections above
# DB_POOL_MIN_SIZE close after 5 minutes unused. DB_POOL_MAX_SIZE=0: no pool (each thread keeps
# its own connection for CONN_MAX_AGE seconds, unbounded), for comparison only.
DB_POOL_MAX_SIZE = int(os.environ.get("DB_POOL_MAX_SIZE", "10"))
DB_POOL_MIN_SIZE = int(os.environ.get("DB_POOL_MIN_SIZE", "2"))
DB_POOL_TIMEOUT = float(os.environ.get("DB_POOL_TIMEOUT", "10"))
if DB_POOL_MAX_SIZE < 0 or DB_POOL_MIN_SIZE < 0 or DB_POOL_TIMEOUT <= 0:
    raise ImproperlyConfigured("DB_POOL_MAX_SIZE and DB_POOL_MIN_SIZE must be 0 or more, DB_POOL_TIMEOUT more than 0")
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["ENGINE"] = "config.postgresql"  # Django's, with the pool (config/postgresql/)
    if DB_POOL_MAX_SIZE:
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["POOL"] = {"max_size": DB_POOL_MAX_SIZE,
                                        "min_size": min(DB_POOL_MIN_SIZE, DB_POOL_MAX_SIZE),
                                        "timeout": DB_POOL_TIMEOUT, "max_idle": 300}
    else:
        # Without the pool, a thread's kept connection is checked before each request or socket
        # query reuses it: after PostgreSQL restarts it is replaced, not used and failed.
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend"]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:teacher_login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Languages (docs/i18n.md). Each is named in its own language, never by a flag. A signed-in
# person's choice is kept on their account; a student without one gets their class's; a visitor
# gets the browser's Accept-Language (LocaleMiddleware). Each area's catalogue is in its app's
# locale/ folder; `locale/` holds the shared pages' (devtools/i18n.py).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español"), ("ar", "العربية")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language a visitor picks in the switcher (config/language.py) lasts a year, not just the
# browser session; a signed-in person's is kept on their account as well.
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# Uploaded and generated files (report exports). Never served as public URLs: downloads go
# through a view that checks the teacher.
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
MEDIA_URL = "/media/"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Numberdeck <no-reply@numberdeck.local>")

REDIS_URL = os.environ.get("REDIS_URL", "")
# Redis has three roles here, and a district gives each its own servers (docs/deploy.md): the
# channel layer (the pushes to open sockets), the cache (membership versions, the move and
# socket limits, sign-in counts) and Celery's broker. Each role left unset uses REDIS_URL, so
# REDIS_URL alone puts all three on one server. The channel layer may be sharded over several
# servers, listed in CHANNEL_REDIS_URLS: channels-redis hashes each channel and group name
# (CRC32, the same in every process) onto one of them, so every web process must list the same
# servers in the same order. It does not support Redis Cluster.
CHANNEL_REDIS_URLS = env_list("CHANNEL_REDIS_URLS") or ([REDIS_URL] if REDIS_URL else [])
CACHE_REDIS_URL = os.environ.get("CACHE_REDIS_URL", "") or REDIS_URL
# Celery reads CELERY_BROKER_URL from the environment itself, before any setting: the same
# variable here keeps the two in step.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "") or REDIS_URL or "memory://"
REDIS_MAX_CONNECTIONS = int(os.environ.get("REDIS_MAX_CONNECTIONS", "2000"))


def channel_layer_host(url: str) -> dict:
    """One Redis server of the channel layer, with the options every one of them needs.

    redis-py 8 reads with a 5 s socket timeout by default; the core layer's receive is a 5 s
    blocking BZPOPMIN, so an idle socket's consumer would crash (1011) at random. After a
    Redis restart every pooled connection fails once on first use ("Connection closed by
    server"): retry such a command once on a fresh connection. redis-py's pools allow 100
    connections per process by default and then raise "Too many connections": at a bell,
    hundreds of sockets open at once, each joining its group over a connection of its own,
    and most of them failed (HTTP 500). The pool may grow to REDIS_MAX_CONNECTIONS per
    process and server (Redis itself takes 10,000); the connections stay pooled for the next
    burst."""
    return {"address": url, "socket_timeout": None, "retry_on_error": [RedisConnectionError],
            "max_connections": REDIS_MAX_CONNECTIONS}


def pubsub_prefix(urls: list[str]) -> str:
    """The pub/sub layer's prefix. Redis's pub/sub channels ignore the database number: the
    prefix carries it, so two sites on one Redis server (on different databases) never hear
    each other's pushes. Shards on different database numbers name each, in order."""
    dbs = [urlparse(url).path.strip("/") or "0" for url in urls]
    return f"asgi-db{dbs[0] if len(set(dbs)) == 1 else '-'.join(dbs)}:"


if CHANNEL_REDIS_URLS:
    CHANNEL_LAYER_CAPACITY = 5000
    REDIS_LAYER_HOSTS = [channel_layer_host(url) for url in CHANNEL_REDIS_URLS]
    # Which channels-redis layer carries the pushes (devtools/bench/README.md, "What the arena
    # runs taught", measured both in one 600-student arena): "pubsub" (the default) publishes a
    # group message once and Redis pushes it to each web process subscribed to the group, which
    # hands it to its sockets;
    # "core" keeps every message for one process's sockets in a sorted set that the process
    # drains one message at a time, four Redis round trips each on its event loop, and under
    # a busy arena that queue, not the moves, made the tail (p95 over a second). What pub/sub
    # gives up: a message reaches only the processes listening at that moment, and a process
    # that lost its Redis connection misses what was sent meanwhile; a push was never more
    # than a courtesy here (live/groups.py): every page reads its state again on
    # (re)connect.
    CHANNEL_LAYER_KIND = os.environ.get("CHANNEL_LAYER", "pubsub")
    if CHANNEL_LAYER_KIND == "core":
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "config.channel_layer.CoreChannelLayer",  # see there: the shards
                # The core layer drops a group_send past a process's capacity (default 100),
                # logged only at INFO: in a 600-student arena a process's burst of pushes passed
                # 100 and tables silently missed moves (devtools/bench/README.md, "Arena"). 5,000
                # small fragments is a few MB of Redis at worst; they expire in 60 s.
                "CONFIG": {"hosts": REDIS_LAYER_HOSTS, "capacity": CHANNEL_LAYER_CAPACITY},
            }
        }
    elif CHANNEL_LAYER_KIND == "pubsub":
        CHANNEL_LAYERS = {"default": {"BACKEND": "config.channel_layer.PubSubChannelLayer",
                                      "CONFIG": {"hosts": REDIS_LAYER_HOSTS,
                                                 "prefix": pubsub_prefix(CHANNEL_REDIS_URLS)}}}
    else:
        raise ImproperlyConfigured(f"CHANNEL_LAYER must be 'pubsub' or 'core', not {CHANNEL_LAYER_KIND!r}")
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
if CACHE_REDIS_URL:
    CACHES = {"default": {"BACKEND": "config.cache.ReusedClientRedisCache",  # see config/cache.py
                          "LOCATION": CACHE_REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: a real broker when CELERY_BROKER_URL or REDIS_URL names one, otherwise tasks run
# eagerly in-process.
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL.startswith("memory://")
CELERY_RESULT_BACKEND = (CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://"))
                         else "cache+memory://")
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True  # a task lost with a crashed worker is re-run; tasks are idempotent
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# A worker that dies (docs/reports.md, "When a worker dies or Redis stops"). Tasks are
# acks_late: Redis keeps each message until its task has ended, and gives the message of a dead
# worker to another one only after the visibility timeout. A timeout shorter than a task would
# hand a task still running to a second worker, so it is longer than the longest job (a class's
# recompute or every-decision export: minutes even for a year of a big class; 2 hours leaves a
# wide margin). The page does not wait for that redelivery: each report job has a heartbeat,
# and one whose worker went quiet is shown as stopped with Try again at once
# (REPORT_JOB_STALE_SECONDS); the redelivered task then finds its job given up on and does
# nothing, as every task run twice must. A short connect timeout lets a request whose broker
# cannot be reached go on (the job waits, "paused") instead of hanging.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 2 * 60 * 60, "socket_connect_timeout": 5}
# Take one message at a time: a worker that dies then strands only the task it was running,
# not others it had fetched ahead (those would also wait for the visibility timeout), and a
# process busy with a long export leaves the next bot move to an idle one.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Report jobs (reports/job_queue.py): a running job with no heartbeat (progress is written at
# least every 50 games or 2000 rows, a few seconds apart) for this long has lost its worker; a
# job handed to the broker this long ago and never started is given up on too (it is sent again
# every REPORT_JOB_RESEND_SECONDS until then, in case a dead worker had fetched it).
REPORT_JOB_STALE_SECONDS = 120
REPORT_JOB_START_SECONDS = 10 * 60
REPORT_JOB_RESEND_SECONDS = 60
# Static schedule (celery beat): skill roll-ups per student, class, assignment and week. A
# finished game already refreshes its own class; this catches anything missed.
CELERY_BEAT_SCHEDULE: dict = {
    "skill-rollups": {"task": "reports.tasks.rollups_all", "schedule": 15 * 60},
    "old-export-files": {"task": "reports.export_tasks.exports_expire", "schedule": 24 * 60 * 60},
    # Report jobs a dead worker left are marked failed; those Redis could not take are sent.
    "report-jobs": {"task": "reports.tasks.report_jobs_sweep", "schedule": 60},
    # Games nobody has moved in for GAME_IDLE_CLOSE_MINUTES are stopped (games/tasks.py).
    "idle-games": {"task": "games.tasks.close_idle_games", "schedule": 5 * 60},
    # Archived classes past ARCHIVED_CLASS_RETENTION_DAYS are erased, after a warning.
    "archived-class-retention": {"task": "privacy.tasks.retention_sweep", "schedule": 24 * 60 * 60},
    # Sign-in counts with no wrong try for an hour, of devices no account knows (accounts/tasks.py).
    "sign-in-counts": {"task": "accounts.tasks.sign_in_counts_forget", "schedule": 60 * 60},
    # A computer player's turn whose wake-up was lost after its commit (games/tasks.py).
    "stalled-bots": {"task": "games.tasks.wake_stalled_bots", "schedule": 15},
}
# Retention (privacy/retention.py; docs/privacy.md, "How long it is kept"): an archived class is erased this
# many days after it was archived; its teachers are warned two weeks before.
ARCHIVED_CLASS_RETENTION_DAYS = int(os.environ.get("ARCHIVED_CLASS_RETENTION_DAYS", "365"))

# Games left alone (docs/play.md, "Stopping a game, and games left alone"): a game with no move for this long is put away (stopped, not
# counted), and the teacher's "Playing now" lists a student whose last move in a game was in the
# last PLAYING_NOW_MINUTES, or whose game was dealt in the last PLAYING_NOW_FIRST_MOVE_MINUTES
# (time to read the cards before the first move: reports/selectors/activity.py says why).
GAME_IDLE_CLOSE_MINUTES = 60
PLAYING_NOW_MINUTES = 10
PLAYING_NOW_FIRST_MOVE_MINUTES = 2

# Bots pause this long before each decision so a child can follow the game.
BOT_DELAY_SECONDS = float(os.environ.get("BOT_DELAY_SECONDS", "0.8"))
# A bot's turn lasting this much longer than its pause lost its wake-up: it is woken again.
BOT_STALL_SECONDS = 5

# Each game or lobby socket may send this many messages a second after a burst of SOCKET_BURST
# (a token bucket, live/guard.py); one that floods is closed with 4429. A child
# double-tapping, or playing a whole turn quickly, stays far inside it.
SOCKET_MAX_MESSAGES_PER_SECOND = 10
SOCKET_BURST = 20
# Per person, across all their sockets and web processes (live/limits.py): moves in
# any window of USER_MOVE_WINDOW_SECONDS (a flood past it is paused and set aside as no
# evidence), and sockets open on one game at once.
USER_MOVES_PER_WINDOW = 30
USER_MOVE_WINDOW_SECONDS = 10
FLOOD_PAUSE_SECONDS = 30
SOCKETS_PER_GAME = 4

# Sign-in limits (accounts/throttle.py, docs/security.md). Wrong tries are counted per account
# and device (the device cookie); for a device that never signed in to the account, also per
# account and network address, per account from everywhere, and per network address (a
# school may share one). Past a count's free tries (*_MAX_FAILURES) each wrong try makes the
# next one wait twice as long, from SIGNIN_FIRST_WAIT_SECONDS up to SIGNIN_LONGEST_WAIT_SECONDS;
# a count with no wrong try for SIGNIN_FORGET_SECONDS starts again.
SIGNIN_FIRST_WAIT_SECONDS = 2
SIGNIN_LONGEST_WAIT_SECONDS = 15 * 60
SIGNIN_FORGET_SECONDS = 60 * 60
PICTURE_SIGNIN_MAX_FAILURES = 5  # a student's pictures or text password, per device and per address
TEACHER_SIGNIN_MAX_FAILURES = 10  # a password (teacher sign-in and /admin/), per device and per address
ACCOUNT_SIGNIN_MAX_FAILURES = 30  # one account, from every device it never signed in on
NETWORK_SIGNIN_MAX_FAILURES = 300  # one address, every account, devices new to the account
CLASS_CODE_MAX_FAILURES = 10  # class codes, per device
CLASS_CODE_NETWORK_MAX_FAILURES = 20  # class codes, per address, devices that never typed a right one
# How many proxies in front of the web processes append to X-Forwarded-For: 0 uses the
# connection's own address and never the header (accounts/addresses.py, docs/security.md).
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # Without a broker (no REDIS_URL) Celery's is kombu's in-memory transport, which has no
    # host and says "No hostname was supplied. Reverting to default 'localhost'" on every
    # start: a line that only confuses whoever runs `make run`.
    "filters": {"database_away": {"()": "config.unavailable.QuietDatabaseAwayLog"}},
    "loggers": {
        # A try-again page (the database could not be had) is one warning line, not a traceback.
        "django.request": {"filters": ["database_away"]},
        **({"kombu.connection": {"level": "ERROR"}} if CELERY_TASK_ALWAYS_EAGER else {}),
    },
}


# The class arena (arena/): a pairing round every ARENA_ROUND_SECONDS per arena, run by a
# ticker thread in each web process (arena/ticker.py) that looks every ARENA_TICK_SECONDS (or
# by `manage.py arena_ticker` processes); the
# odd one out gets a computer player after ARENA_BOT_AFTER_SECONDS.
# ARENA_TICKER=0 for web processes when `manage.py arena_ticker` runs the rounds instead.
ARENA_TICKER = os.environ.get("ARENA_TICKER", "1") == "1"
ARENA_TICK_SECONDS = float(os.environ.get("ARENA_TICK_SECONDS", "0.5"))
ARENA_ROUND_SECONDS = float(os.environ.get("ARENA_ROUND_SECONDS", "2"))
ARENA_BOT_AFTER_SECONDS = float(os.environ.get("ARENA_BOT_AFTER_SECONDS", "10"))
