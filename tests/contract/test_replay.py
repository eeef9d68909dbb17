"""A game is its seed and its actions: the same seed and choices give the same game, replaying
the recorded actions from the seed gives the same states (and events), and a state saved as
JSON mid-game (as the database keeps it) plays on exactly as the original."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.contract.helpers import plain, random_play, shapes

CONTRACT = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@CONTRACT
@given(data=st.data())
def test_same_seed_same_game(spec, data):
    shape = data.draw(shapes(spec), label="shape")
    first, final = random_play(spec, shape)
    again, final_again = random_play(spec, shape)
    assert [(s.player, s.action) for s in first] == [(s.player, s.action) for s in again]
    assert final == final_again
    players = list(shape.players)
    assert spec.engine.new_game(players, shape.options, shape.seed) == \
        spec.engine.new_game(players, shape.options, shape.seed)


@CONTRACT
@given(data=st.data())
def test_replaying_the_recorded_actions_gives_the_same_states(spec, data):
    engine = spec.engine
    shape = data.draw(shapes(spec), label="shape")
    steps, final = random_play(spec, shape)
    record = plain([{"player": s.player, **s.action} for s in steps])  # as a replay file holds them
    state = engine.new_game(list(shape.players), plain(shape.options), shape.seed)
    for step, action in zip(steps, record, strict=True):
        move = {k: v for k, v in action.items() if k != "player"}
        state, events = engine.apply(state, action["player"], move)
        assert state == step.after and events == step.events
    assert state == final
    # saved mid-game and loaded again, the game goes on the same way
    cut = data.draw(st.integers(0, len(steps)), label="cut")
    state = plain(steps[cut - 1].after) if cut else engine.new_game(list(shape.players), shape.options,
                                                                     shape.seed)
    for step in steps[cut:]:
        state, events = engine.apply(plain(state), step.player, plain(step.action))
        assert state == step.after and events == step.events
