# Two commands: `make run` (demo on http://127.0.0.1:8000) and `make test` (import contracts, then every test).
# Both create .venv and install requirements.txt only when it changed since the last install.
# With DATABASE_URL and REDIS_URL set they use PostgreSQL, Redis and a real Celery worker.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.requirements-installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install migrate demo serve worker clean

$(BIN)/python:
	@echo "Creating the Python environment in $(VENV)…"
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt | $(BIN)/python
	@echo "Installing Python packages (about a minute the first time)…"
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	@echo "Loading the demo class and its games…"
	$(BIN)/python manage.py load_demo

# Development server: Daphne serves HTTP and WebSockets on HOST and PORT; devtools/launch.py
# starts it and prints how to sign in once it answers. Without REDIS_URL, Celery tasks run
# eagerly in the web process; with it, a real worker starts alongside and stops with Ctrl-C.
run: migrate
	@echo "Loading the demo class and its games…"
	@$(BIN)/python manage.py load_demo --brief
	@if [ -n "$$REDIS_URL" ]; then \
	  echo "Starting a Celery worker (REDIS_URL is set)"; \
	  $(BIN)/celery -A config worker --beat --loglevel=warning --concurrency=2 & \
	fi; \
	exec $(BIN)/python -m devtools.launch --host $(HOST) --port $(PORT)

# import-linter first (.importlinter: the apps' dependencies go one way), then every test, in
# TEST_WORKERS processes (pytest-xdist); each has its own test database, Redis key prefix and
# live server for the browser tests. `--dist load` hands out tests in collection order, so each
# worker still runs its browser tests last (tests/conftest.py). (`loadgroup` would keep a
# module's shared data on one worker, but pytest-xdist 3.8 names groups through an attribute
# pytest 9 no longer reads: its groups are ignored.) `TEST_WORKERS=0` runs in one process.
TEST_WORKERS ?= 2
test: install
	$(BIN)/lint-imports --no-logo
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist load --durations=15

# Production-style: web + worker against DATABASE_URL and REDIS_URL, production settings.
# Needs SECRET_KEY and ALLOWED_HOSTS; put a TLS proxy in front (see README).
serve: install
	DJANGO_SETTINGS_MODULE=config.settings.production $(BIN)/python manage.py migrate --noinput
	DJANGO_SETTINGS_MODULE=config.settings.production $(BIN)/python manage.py collectstatic --noinput
	DJANGO_SETTINGS_MODULE=config.settings.production $(BIN)/celery -A config worker --beat --loglevel=info & \
	DJANGO_SETTINGS_MODULE=config.settings.production $(BIN)/python manage.py arena_ticker & \
	DJANGO_SETTINGS_MODULE=config.settings.production ARENA_TICKER=0 exec $(BIN)/daphne -b $(HOST) -p $(PORT) config.asgi:application

worker: install
	$(BIN)/celery -A config worker --loglevel=info

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .hypothesis .test-db-*.sqlite3* .import_linter_cache
