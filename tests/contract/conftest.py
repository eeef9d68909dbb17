"""The contract suite runs every test that takes a `spec` once per game (tests/contract/helpers.py:
every registered game, and the toy game)."""

import pytest

from tests.contract.helpers import CONTRACT_GAMES, ids, registered


def pytest_generate_tests(metafunc):
    if "spec" in metafunc.fixturenames:
        metafunc.parametrize("spec", CONTRACT_GAMES, ids=ids)


@pytest.fixture
def in_registry(spec):
    """The game is registered while the test runs (the toy game only then)."""
    with registered(spec):
        yield spec
