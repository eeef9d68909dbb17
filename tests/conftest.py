"""Shared fixtures: people and classes, and the rule for tests that need Redis or Chromium.

A test that needs a service skips with a visible reason on a laptop that lacks it, and fails
instead when CI=true: CI must run everything.
"""

import contextlib
import os
import shutil

import pytest
import redis
from django.conf import settings
from django.db import connection, transaction
from hypothesis import settings as hypothesis_settings

from accounts.models import User
from accounts.services import student_create, teacher_sign_up
from classroom.models import Classroom
from config.celery import app as celery_app
from tests.run_isolation import run_keys_delete

IN_CI = os.environ.get("CI", "").lower() == "true"

# CI explores the same hypothesis examples every run, so main stays green or red for a reason
# in the code; laptops keep exploring new random examples (a failure prints its seed).
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if IN_CI:
    hypothesis_settings.load_profile("ci")
CHROMIUM = "/usr/bin/chromium"


def need(available: bool, reason: str) -> None:
    if available:
        return
    if IN_CI:
        pytest.fail(f"{reason} (CI=true, so this cannot be skipped)")
    pytest.skip(reason)


def redis_available() -> bool:
    url = os.environ.get("REDIS_URL")
    if not url:
        return False
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


@pytest.fixture
def require_redis():
    need(redis_available(), "REDIS_URL is not set or Redis does not answer")


@pytest.fixture
def make_teacher(db):
    counter = {"n": 0}

    def make(name: str = "", email: str = "", password: str = "correct-horse-42") -> User:
        counter["n"] += 1
        n = counter["n"]
        return teacher_sign_up(name=name or f"Teacher {n}", email=email or f"teacher{n}@school.test",
                               password=password)

    return make


def members(classroom: Classroom):
    """Everyone who is or was in the class (a membership, archived ones included)."""
    return User.objects.filter(memberships__classroom=classroom)


def active_class_names(student: User) -> list[str]:
    """The classes the student is in now, by name."""
    return sorted(student.memberships.filter(archived_at__isnull=True).values_list("classroom__name", flat=True))


def classroom_of(teacher: User, name: str = "Class 5B", **extra) -> Classroom:
    """A class owned and taught by `teacher` (also for module-scoped worlds, which cannot use
    the function-scoped `make_classroom`)."""
    classroom = Classroom.objects.create(name=name, owner=teacher, **extra)
    classroom.teachers.add(teacher)
    return classroom


@pytest.fixture
def make_classroom(db):
    return classroom_of


@pytest.fixture
def make_student(db):
    def make(classroom: Classroom, name: str = "Ann", pictures=("cat", "sun", "tree")) -> User:
        return student_create(classroom=classroom, display_name=name, picture_password=list(pictures))

    return make


@pytest.fixture
def teacher(make_teacher):
    return make_teacher(name="Ms Rivera", email="rivera@school.test")


@pytest.fixture
def classroom(make_classroom, teacher):
    return make_classroom(teacher, name="Class 5B", join_code="ABC234")


@pytest.fixture
def student(make_student, classroom):
    return make_student(classroom, "Ann", ("cat", "sun", "tree"))


@pytest.fixture(scope="session", autouse=True)
def no_stray_database_sessions(django_db_setup, django_db_blocker):
    """At the end of the run, end the database sessions that threads of this process left open
    (the in-process Celery workers of the worker and browser tests open one in their own
    thread, which ends without closing it): PostgreSQL drops the run's test database only when
    no other session uses it, and each run has a database of its own (config/settings/test.py)."""
    yield
    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            # A fresh connection of our own: the one this thread had may have been shared with
            # the browser tests' forked server, which closed it on start.
            connection.close()
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               "WHERE datname = current_database() AND pid <> pg_backend_pid()")


def pytest_sessionfinish(session, exitstatus):
    """Files the tests made (exports) go to a temporary folder of this run: remove it. The
    run's Redis keys (channel groups, cache, Celery's queue of tasks no worker took: each run
    has its own prefix, config/settings/test.py) are deleted too, and only those."""
    if not settings.configured:
        return
    if "numberdeck-test-media-" in str(settings.MEDIA_ROOT):
        shutil.rmtree(settings.MEDIA_ROOT, ignore_errors=True)
    for url in settings.TEST_REDIS_URLS:
        try:
            run_keys_delete(url=url, prefix=settings.TEST_RUN_KEY_PREFIX)
        except redis.RedisError:  # that Redis is down: nothing can be deleted there
            pass


def chromium_available() -> bool:
    return os.path.exists(CHROMIUM) or shutil.which("chromium") is not None


def pytest_collection_modifyitems(config, items):
    """Browser tests run last: Playwright's sync API leaves an event loop running in the main
    thread, after which pytest-asyncio cannot start its own loops. With pytest-xdist
    (`make test`) each worker runs the tests it is sent in the order of this list (`--dist
    load` sends them from its front), so browser tests come last in every worker too;
    `pytest_runtest_setup` below fails a test that would break the rule."""
    for item in items:
        if "/tests/browser/" in str(item.path):
            item.add_marker(pytest.mark.browser)
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


BROWSER_TESTS_BEGAN = pytest.StashKey[bool]()


def pytest_runtest_setup(item):
    """A test that is not a browser test, run in a process where browser tests already ran,
    fails at once and says why (instead of failing later on Playwright's event loop)."""
    if item.get_closest_marker("browser") is not None:
        item.config.stash[BROWSER_TESTS_BEGAN] = True
    elif item.config.stash.get(BROWSER_TESTS_BEGAN, False):
        pytest.fail("a non-browser test was run after browser tests in this process: browser "
                    "tests must come last (tests/conftest.py, pytest_collection_modifyitems)")


@contextlib.contextmanager
def module_world(django_db_blocker):
    """For a module whose many tests all start from the same rows (the permission matrices):
    build them once, in a transaction that stays open for the module and is rolled back at its
    end. Each test (`db`) runs in a savepoint inside it and is rolled back to it, so every test
    still starts from exactly those rows. Not for `transactional_db` tests."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


@pytest.fixture
def eager_celery():
    """Run Celery tasks in-process for this test, even where REDIS_URL gives a real broker
    (CI): tests that wait for a task's result have no worker to wait for. The real worker is
    tested in tests/reports/test_report_worker.py."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


# ----- Another class, and a second teacher of this one (classroom, report and socket tests) -----

@pytest.fixture
def other_teacher(make_teacher):
    return make_teacher(name="Mr Other", email="other@school.test")


@pytest.fixture
def other_classroom(make_classroom, other_teacher):
    return make_classroom(other_teacher, name="Other class", join_code="XYZ789")


@pytest.fixture
def other_student(make_student, other_classroom):
    return make_student(other_classroom, "Olga", ("moon", "star", "fish"))


@pytest.fixture
def co_teacher(make_teacher, classroom):
    co = make_teacher(name="Ms Co", email="co@school.test")
    classroom.teachers.add(co)
    return co


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A request leaves its language active in the thread that served it (LocaleMiddleware
    activates, nothing deactivates): the next test would read Spanish or Arabic. Each test
    starts and ends in the site's default language."""
    yield
    from django.utils import translation

    translation.deactivate()
