"""Settings follow the environment: SQLite by default, PostgreSQL with DATABASE_URL (through
PgBouncer with DB_POOLER), Redis-backed channels/cache/Celery with REDIS_URL (or a Redis of its own
for each), and production settings that pass `check --deploy`."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROBE = (
    "import json, django; from django.conf import settings; django.setup();"
    "print(json.dumps({'engine': settings.DATABASES['default']['ENGINE'],"
    " 'name': str(settings.DATABASES['default']['NAME']),"
    " 'layer': settings.CHANNEL_LAYERS['default']['BACKEND'],"
    " 'prefix': settings.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('prefix'),"
    " 'eager': settings.CELERY_TASK_ALWAYS_EAGER, 'broker': settings.CELERY_BROKER_URL,"
    " 'hosts': settings.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('hosts'),"
    " 'cache': settings.CACHES['default'].get('LOCATION'),"
    " 'server_side_cursors': not settings.DATABASES['default'].get('DISABLE_SERVER_SIDE_CURSORS'),"
    " 'db_options': settings.DATABASES['default'].get('OPTIONS', {}),"
    " 'pool': settings.DATABASES['default'].get('POOL'),"
    " 'conn_max_age': settings.DATABASES['default'].get('CONN_MAX_AGE'),"
    " 'health_checks': settings.DATABASES['default'].get('CONN_HEALTH_CHECKS')}, default=str))"
)
# Every variable that picks a service: a probe starts from none of them.
SERVICE_VARIABLES = {"DATABASE_URL", "REDIS_URL", "CHANNEL_LAYER", "CHANNEL_REDIS_URLS", "CACHE_REDIS_URL",
                     "CELERY_BROKER_URL", "DB_POOLER", "DB_POOL_MAX_SIZE", "DB_POOL_MIN_SIZE", "DB_POOL_TIMEOUT",
                     "CONN_MAX_AGE"}
PRODUCTION = {"SECRET_KEY": "k3Yq8-production-grade-secret-value-with-enough-entropy-0123456789",
              "ALLOWED_HOSTS": "numberdeck.example.org"}


def probe(settings_module: str = "config.settings.local", **env) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in SERVICE_VARIABLES}
    clean.update(env, DJANGO_SETTINGS_MODULE=settings_module)
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=clean,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_sqlite_in_memory_layer_and_eager_celery_by_default():
    found = probe()
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["name"].endswith("db.sqlite3")
    assert found["layer"] == "channels.layers.InMemoryChannelLayer"
    assert found["eager"] is True


def test_postgresql_and_redis_from_the_environment():
    found = probe(DATABASE_URL="postgres://postgres@127.0.0.1:5432/numberdeck",
                  REDIS_URL="redis://127.0.0.1:6379/0")
    assert found["engine"] == "config.postgresql"  # Django's, with the bounded pool
    assert found["name"] == "numberdeck"
    assert found["layer"] == "config.channel_layer.PubSubChannelLayer"
    # Pub/sub ignores Redis's database number: the prefix keeps db 0's site from hearing db 5's.
    assert found["prefix"] == "asgi-db0:"
    assert probe(REDIS_URL="redis://127.0.0.1:6379/5")["prefix"] == "asgi-db5:"
    assert found["eager"] is False and found["broker"] == "redis://127.0.0.1:6379/0"


def test_each_redis_role_may_have_servers_of_its_own():
    """docs/deploy.md: the channel layer sharded over CHANNEL_REDIS_URLS (each server with the
    options REDIS_URL's had), the cache on CACHE_REDIS_URL, the broker on CELERY_BROKER_URL;
    a role not named stays on REDIS_URL."""
    shards = "redis://10.0.0.1:6379/0, redis://10.0.0.2:6379/0"
    found = probe(REDIS_URL="redis://10.0.0.9:6379/0", CHANNEL_REDIS_URLS=shards,
                  CACHE_REDIS_URL="redis://10.0.0.3:6379/0", CELERY_BROKER_URL="redis://10.0.0.4:6379/0")
    assert [h["address"] for h in found["hosts"]] == ["redis://10.0.0.1:6379/0", "redis://10.0.0.2:6379/0"]
    assert all(h["socket_timeout"] is None and h["max_connections"] == 2000 and h["retry_on_error"]
               for h in found["hosts"])
    assert found["prefix"] == "asgi-db0:"
    assert found["cache"] == "redis://10.0.0.3:6379/0"
    assert found["broker"] == "redis://10.0.0.4:6379/0" and found["eager"] is False
    alone = probe(REDIS_URL="redis://10.0.0.9:6379/2", CACHE_REDIS_URL="redis://10.0.0.3:6379/0")
    assert [h["address"] for h in alone["hosts"]] == ["redis://10.0.0.9:6379/2"]
    assert alone["broker"] == "redis://10.0.0.9:6379/2" and alone["cache"] == "redis://10.0.0.3:6379/0"
    # Without REDIS_URL, a role named on its own uses Redis, and the others stay in the process.
    layer_only = probe(CHANNEL_REDIS_URLS=shards)
    assert layer_only["layer"] == "config.channel_layer.PubSubChannelLayer"
    assert layer_only["cache"] is None and layer_only["eager"] is True


def test_behind_pgbouncer_no_server_side_cursors_and_no_startup_options():
    postgres = {"DATABASE_URL": "postgres://postgres@127.0.0.1:6432/numberdeck"}
    direct = probe(**postgres)
    assert direct["server_side_cursors"] is True and direct["db_options"] == {"options": "-c jit=off"}
    pooled = probe(DB_POOLER="pgbouncer", **postgres)
    assert pooled["server_side_cursors"] is False and "options" not in pooled["db_options"]
    with pytest.raises(subprocess.CalledProcessError) as refused:
        probe(DB_POOLER="pgpool", **postgres)
    assert "DB_POOLER must be 'pgbouncer' or unset" in refused.value.stderr


def test_postgresql_connections_are_pooled_and_bounded_in_every_environment():
    """docs/deploy.md, "Database connections": each process borrows from a pool of at most
    DB_POOL_MAX_SIZE connections (10 unless set), so nothing is kept per thread (CONN_MAX_AGE 0,
    as Django requires of a pool), production included; behind PgBouncer too. SQLite has no pool."""
    postgres = {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/numberdeck"}
    default = probe(**postgres)
    assert default["pool"] == {"max_size": 10, "min_size": 2, "timeout": 10.0, "max_idle": 300}
    assert default["conn_max_age"] == 0
    production = probe("config.settings.production", **postgres, **PRODUCTION)
    assert production["pool"] == default["pool"] and production["conn_max_age"] == 0
    sized = probe("config.settings.production", DB_POOL_MAX_SIZE="4", DB_POOL_MIN_SIZE="8",
                  DB_POOL_TIMEOUT="2.5", DB_POOLER="pgbouncer", **postgres, **PRODUCTION)
    assert sized["pool"] == {"max_size": 4, "min_size": 4, "timeout": 2.5, "max_idle": 300}
    # No pool (for comparison only): each thread keeps its connection, checked before reuse.
    unpooled = probe("config.settings.production", DB_POOL_MAX_SIZE="0", **postgres, **PRODUCTION)
    assert unpooled["pool"] is None and unpooled["conn_max_age"] == 60 and unpooled["health_checks"] is True
    assert unpooled["engine"] == "config.postgresql"
    assert probe()["pool"] is None  # SQLite
    with pytest.raises(subprocess.CalledProcessError) as refused:
        probe(DB_POOL_TIMEOUT="0", **postgres)
    assert "DB_POOL_TIMEOUT more than 0" in refused.value.stderr


def test_channel_layer_chooses_channels_redis_core_layer_or_refuses_a_wrong_name():
    redis = {"REDIS_URL": "redis://127.0.0.1:6379/0"}
    assert probe(CHANNEL_LAYER="core", **redis)["layer"] == "config.channel_layer.CoreChannelLayer"
    with pytest.raises(subprocess.CalledProcessError) as refused:
        probe(CHANNEL_LAYER="kafka", **redis)
    assert "CHANNEL_LAYER must be 'pubsub' or 'core'" in refused.value.stderr


def test_the_suite_runs_on_the_database_the_environment_names(settings):
    expected = "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite3"
    assert settings.DATABASES["default"]["ENGINE"].endswith(expected)


def test_production_settings_pass_check_deploy_with_real_values():
    # The test process allows sync ORM calls next to Playwright; a real deployment does not.
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.production",
               SECRET_KEY="k3Yq8-production-grade-secret-value-with-enough-entropy-0123456789",
               ALLOWED_HOSTS="numberdeck.example.org")
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                            cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_settings_refuse_a_missing_secret():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.production", ALLOWED_HOSTS="x.example.org")
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env,
                            capture_output=True, text=True)
    assert result.returncode != 0 and "Set SECRET_KEY" in result.stderr


PRODUCTION_IMPORTS = (
    "import json, sys, django; django.setup();"
    "import config.asgi, config.urls, config.celery;"
    "from config.routing import websocket_urlpatterns;"
    "from django.core.management import get_commands;"
    "print(json.dumps({'devtools': sorted(m for m in sys.modules if m.split('.')[0] == 'devtools'),"
    " 'sockets': [str(p.pattern) for p in websocket_urlpatterns],"
    " 'commands': sorted(c for c, app in get_commands().items() if app == 'devtools')}))"
)


def test_production_never_imports_the_developer_tools():
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE", "WS_ECHO"}}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.production",
               SECRET_KEY="k3Yq8-production-grade-secret-value-with-enough-entropy-0123456789",
               ALLOWED_HOSTS="numberdeck.example.org")
    out = subprocess.run([sys.executable, "-c", PRODUCTION_IMPORTS], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["devtools"] == [] and found["commands"] == []
    assert "ws/echo/" not in found["sockets"] and "ws/game/<int:game_id>/" in found["sockets"]


def test_development_has_the_demo_and_benchmark_commands():
    out = subprocess.run([sys.executable, "manage.py", "help", "--commands"], cwd=ROOT,
                         env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.local"},
                         capture_output=True, text=True, check=True)
    assert {"load_demo", "simulate_class", "bench_reports", "bench_dashboard"} <= set(out.stdout.split())
