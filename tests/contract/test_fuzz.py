"""Whatever a page (or a hand-written message) sends as a move, at any point of any game, the
engine either accepts it, and then it is one of the moves the game lists, or refuses it with
IllegalMove carrying a code the game knows and a sentence for the child; either way the state it was given is unchanged.
The analysis of the attempt never fails either (every attempt is recorded with it)."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove
from tests.contract.helpers import known_codes, listed, plain, random_play, shapes

FUZZ = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _scalars(data, out: dict):
    if isinstance(data, dict):
        for key, value in data.items():
            out.setdefault(json.dumps(key), key)
            _scalars(value, out)
    elif isinstance(data, list):
        for value in data:
            _scalars(value, out)
    else:
        out.setdefault(json.dumps(data), data)


def actions_for(engine, state: dict, players: list[str]) -> st.SearchStrategy:
    """Moves near the game's own: its action types with values taken from the state (card
    codes, names, numbers) or anything else, listed moves with a part changed, dropped or
    added, and plain junk."""
    seen: dict = {}
    _scalars(state, seen)
    known = [seen[k] for k in sorted(seen)]
    legal = [a for p in players for a in engine.legal_actions(state, p)][:200]
    for action in legal:
        _scalars(action, seen)
    scalar = (st.sampled_from(known) | st.none() | st.booleans() | st.integers(-5, 150)
              | st.floats(allow_nan=False) | st.text(max_size=4))
    value = st.recursive(scalar, lambda inner: st.lists(inner, max_size=3)
                         | st.dictionaries(st.sampled_from(players) | st.text(max_size=5), inner, max_size=3),
                         max_leaves=8)
    kinds = sorted(engine.ACTIONS)
    shaped = st.sampled_from(kinds).flatmap(lambda kind: st.fixed_dictionaries(
        {"type": st.just(kind), **{name: value for name in engine.ACTIONS[kind]}},
        optional={"answer": value, "player": value, "extra": value}))
    options = [value, shaped]
    if legal:
        options += [st.sampled_from(legal), st.builds(_changed, st.sampled_from(legal), st.sampled_from(legal),
                                                      value, st.integers(0, 3), st.integers(0, 10))]
    return st.one_of(options)


def _changed(action: dict, other: dict, value, how: int, pick: int) -> dict:
    """A listed move with one part taken from another listed move or replaced, dropped, added,
    or its type swapped."""
    action = plain(action)
    keys = sorted(k for k in action if k != "type") or ["type"]
    key = keys[pick % len(keys)]
    if how == 0:
        action[key] = plain(other.get(key, value))
    elif how == 1:
        action.pop(key, None)
    elif how == 2:
        action[["answer", "extra", "player"][pick % 3]] = value
    else:
        action["type"] = other["type"]
    return action


@FUZZ
@given(data=st.data())
def test_fuzzed_actions_are_listed_or_refused_with_a_known_code_and_change_nothing(spec, data):
    engine = spec.engine
    shape = data.draw(shapes(spec), label="shape")
    cut = data.draw(st.integers(0, 80), label="moves before")
    _, state = random_play(spec, shape, max_steps=cut)
    players = list(shape.players)
    who = data.draw(st.sampled_from(players + engine.waiting_for(state) * 2 + ["Zed", ""]), label="player")
    action = data.draw(actions_for(engine, state, players), label="action")
    before = plain(state)
    try:
        after, _events = engine.apply(state, who, action)
    except IllegalMove as exc:
        assert exc.code in known_codes(spec), f"unknown code {exc.code}"
        # Text (a `Words` is a str that also carries its message id: games/engine/words.py).
        assert isinstance(exc.message, str) and exc.message.endswith("."), "a refusal is a sentence"
    else:
        assert listed(action, engine.legal_actions(state, who)), f"accepted an unlisted move {action}"
        assert plain(after) == after
    assert state == before
    facts = engine.analyse(state, who, action)
    assert plain(facts) == facts and "kind" in facts
    assert state == before
