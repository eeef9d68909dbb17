"""Every test has a time limit (pytest.ini, tests/time_limits.py): a test that hangs fails by its
limit, naming itself, and the run goes on; nothing waits for CI's own limit."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.time_limits import BROWSER_TIMEOUT, SLOW_TIMEOUT

REPO = Path(__file__).resolve().parent.parent
STUCK_SECONDS = 900
# The child run's own limit: under this test's (pytest.ini), and far under STUCK_SECONDS, so a
# stuck test its 3 s limit did not end makes the child run time out here (TimeoutExpired). Two
# workers start in it (the first ends with the stuck test): slow on a busy machine.
CHILD_RUN_SECONDS = 240
STUCK = f'''
import time

def test_stuck_for_ever():
    time.sleep({STUCK_SECONDS})

def test_quick():
    assert True
'''


def run_pytest(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """pytest as `make test` runs it (the repository's pytest.ini, pytest-xdist), on a file of
    its own; the default limit is shortened to 3 s (-o) so that this test stays quick."""
    (folder / "test_stuck.py").write_text(STUCK)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(REPO / "pytest.ini"), "--rootdir", str(folder),
         "-o", "timeout=3", *args, str(folder / "test_stuck.py")],
        cwd=REPO, capture_output=True, text=True, timeout=CHILD_RUN_SECONDS)


def test_a_stuck_test_fails_by_its_limit_with_its_name_and_the_run_goes_on(tmp_path):
    done = run_pytest(tmp_path, "-n", "1")
    said = done.stdout + done.stderr
    assert done.returncode != 0, said
    assert "Timeout" in said, said  # the watchdog's banner, with the stuck thread's stack
    assert "test_stuck.py::test_stuck_for_ever" in said, said  # named where the run failed
    assert f"time.sleep({STUCK_SECONDS})" in said, said  # the line it was stuck on
    assert "1 passed" in said, said  # the other test still ran, in a fresh worker


def test_browser_and_slow_tests_get_their_longer_limits(request):
    """The limits given at collection: this test has pytest.ini's default; the longer ones are
    longer than it (a browser or slow test would not be cut short by the default)."""
    assert request.node.get_closest_marker("timeout") is None
    assert int(request.config.getini("timeout")) < BROWSER_TIMEOUT < SLOW_TIMEOUT


LIMITS_SEEN = """
def pytest_collection_finish(session):
    for item in session.items:
        marker = item.get_closest_marker("timeout")
        print("limit", item.nodeid, marker.args[0] if marker else "default")
"""
BROWSER = "tests/browser/test_arena_browser.py::test_a_class_arena_from_start_to_podium"
SLOW = "tests/reports/test_validity_detail_flags.py::test_students_at_the_top_of_strong_are_seldom_flagged_as_promised"
PLAIN = "tests/reports/test_validity_detail_flags.py::test_one_planted_operation_is_flagged_and_nothing_else"


def test_each_kind_of_test_is_collected_with_its_limit(tmp_path):
    """Collected as `make test` collects them, a browser test carries BROWSER_TIMEOUT, a slow
    test SLOW_TIMEOUT and any other test pytest.ini's default."""
    (tmp_path / "limits_seen.py").write_text(LIMITS_SEEN)
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "limits_seen",
                           BROWSER, SLOW, PLAIN],
                          cwd=REPO, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0, done.stdout + done.stderr
    # A browser test's id ends in its browser's name ("[chromium]", pytest-playwright).
    limits = {line.split()[1].split("[")[0]: line.split()[2]
              for line in done.stdout.splitlines() if line.startswith("limit ")}
    assert limits == {BROWSER: str(BROWSER_TIMEOUT), SLOW: str(SLOW_TIMEOUT), PLAIN: "default"}
