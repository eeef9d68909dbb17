"""The live server the browser tests drive runs as production does: with Django's async-safety
check on (a consumer that touched the ORM from the event loop would fail there), although
this process, beside Playwright's event loop, has it off for the tests' own ORM calls."""

import os

import pytest

from tests.browser.conftest import ASYNC_SAFETY_PATH, ASYNC_UNSAFE, QUIET_PATH, server_says

pytestmark = pytest.mark.browser


def test_the_live_server_keeps_djangos_async_safety_check_on(live_daphne):
    assert os.environ.get(ASYNC_UNSAFE) == "true"  # here, beside Playwright, it is off
    assert server_says(live_daphne, ASYNC_SAFETY_PATH) == "on"


def test_the_live_server_is_quiet_when_no_page_is_open(live_daphne):
    assert server_says(live_daphne, QUIET_PATH) == "quiet"
