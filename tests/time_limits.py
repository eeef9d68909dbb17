"""Every test's time limit (pytest-timeout; loaded by pytest.ini's `addopts`, so a pytest run
on any file of the repository has it): pytest.ini's `timeout` for most tests, longer ones for
browser tests and tests marked `slow`. Each limit is several times the longest run of its kind
on a busy 2-core machine, so only a stuck test meets it."""

import os
import threading

import pytest
import pytest_timeout

BROWSER_TIMEOUT = 450
SLOW_TIMEOUT = 900


@pytest.hookimpl(trylast=True)  # after tests/conftest.py has marked the browser tests
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("timeout") is not None:
            continue  # the test's own
        if item.get_closest_marker("slow") is not None:
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))
        elif item.get_closest_marker("browser") is not None or "/tests/browser/" in str(item.path):
            item.add_marker(pytest.mark.timeout(BROWSER_TIMEOUT))


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_set_timer(item, settings):
    """pytest-timeout's `thread` method in a pytest-xdist worker, with its report where it can
    be read: the worker's stdout goes nowhere (execnet), so the time-out's banner and every
    thread's stack, which pytest-timeout writes there, are sent to the worker's stderr, which
    is the run's own. The worker then ends; the run names the test it was running and goes on
    in a new worker."""
    if settings.method != "thread" or not hasattr(item.config, "workerinput"):
        return None  # pytest-timeout's own timer

    def stuck():
        capture = item.config.pluginmanager.getplugin("capturemanager")
        if capture is not None:
            capture.suspend_global_capture(item)  # the test's output is read once more below
        os.dup2(2, 1)
        print(f"\n{item.nodeid} still runs after its time limit ({settings.timeout:g} s)", flush=True)
        pytest_timeout.timeout_timer(item, settings)

    timer = threading.Timer(settings.timeout, stuck)
    timer.name = f"pytest_timeout {item.nodeid}"

    def cancel():
        timer.cancel()
        timer.join()

    item.cancel_timeout = cancel  # what pytest-timeout's own cancel hook calls
    timer.start()
    return True
