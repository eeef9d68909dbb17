"""`make test`: every test, with the browser tests in a pytest run of their own beside the rest.

    python -m devtools.test_suite            # TEST_WORKERS processes for each of the two runs (2)
    TEST_WORKERS=0 python -m devtools.test_suite   # one process, browser tests last

Why two runs side by side: the browser tests mostly wait (on pages, sockets, the arena's
rounds), the rest (the validity simulations above all) are pure CPU. In one pytest-xdist run
every worker must run its browser tests last (tests/conftest.py: Playwright's sync API leaves
an event loop in the process), so both workers first shared the CPU-bound tests and then both
waited on browsers, with a core idle for minutes. Run side by side, the browser tests' waits
overlap the CPU-bound tests. Each run has its own test databases and Redis key prefix (per
process: config/settings/test.py), so they share nothing.

The other run's output is streamed; the browser run's is kept in a file and printed when it
ends, so the two never interleave. The exit status is the worse of the two.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

BROWSER_TESTS = "tests/browser"


def pytest_command(workers: int, *args: str) -> list[str]:
    parallel = ["-n", str(workers), "--dist", "load"] if workers > 0 else []
    return [sys.executable, "-m", "pytest", *parallel, "--durations=15", *args]


def main(argv: list[str]) -> int:
    workers = int(os.environ.get("TEST_WORKERS", "2"))
    if workers <= 0:
        return subprocess.call(pytest_command(0, *argv))
    with tempfile.TemporaryFile("w+", encoding="utf-8") as browser_log:
        print(f"Browser tests ({BROWSER_TESTS}) run beside the others; their output follows theirs.",
              flush=True)
        browsers = subprocess.Popen(pytest_command(workers, BROWSER_TESTS, *argv),
                                    stdout=browser_log, stderr=subprocess.STDOUT)
        try:
            others = subprocess.call(pytest_command(workers, f"--ignore={BROWSER_TESTS}", *argv))
            browser_status = browsers.wait()
        except BaseException:
            browsers.terminate()
            browsers.wait()
            raise
        browser_log.seek(0)
        print(f"\n===== the browser tests ({BROWSER_TESTS}) =====", flush=True)
        sys.stdout.write(browser_log.read())
    # pytest's 5 (no tests collected: arguments that pick tests of one run only) fails nothing.
    ran = [status for status in (others, browser_status) if status != 5]
    return max(ran) if ran else 5


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
