"""`toy_game`: the toy game registered for one test, then gone again (it never leaks into
another test: the registry is the only list of games)."""

import pytest

from games import registry
from tests.toy.adapter import SPEC


@pytest.fixture
def toy_game():
    registry.register(SPEC)  # the one line a real game adds to games/registry.py GAMES
    try:
        yield SPEC
    finally:
        registry.unregister(SPEC.key)
    assert registry.get(SPEC.key) is None
