"""Fixtures several report test files ask for by name (`pytest.mark.usefixtures`): none is
autouse here, so a report test sets up only what it says."""

import pytest


@pytest.fixture
def media(settings, tmp_path):
    """Files the test makes (exports) go to a folder of its own, returned to read them back."""
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def no_debounce(settings):
    """The live dashboard pushes at once and its refresh never waits, so a test sees the push
    its change set off."""
    settings.REPORTS_DASHBOARD_DEBOUNCE_SECONDS = 0
    settings.REPORTS_DASHBOARD_REFRESH_SECONDS = 0
