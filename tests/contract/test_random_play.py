"""Every game played at random to the end keeps the engine contract (games/engine/core.py):
someone is always waiting until the game ends, every listed action is allowed, bots choose
allowed actions from a plain view, states, views and analyses are plain JSON, and a move
never touches the state it was given, nor any earlier state."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove
from tests.contract.helpers import plain, random_play, listed, shapes

CONTRACT = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LISTED_TRIED = 12  # listed actions applied at each step (all of them when fewer)
VIEWED = 20  # steps whose views are checked (views are the slow part), and the end


def check_turn(engine, state, players) -> dict[str, list]:
    """Someone is waiting, each waiting player has a move, nobody else has; returns the moves."""
    waiting = engine.waiting_for(state)
    assert waiting and set(waiting) <= set(players), "nobody to wait for in an unfinished game"
    legal = {p: engine.legal_actions(state, p) for p in players}
    for p in players:
        assert bool(legal[p]) == (p in waiting), f"{p}: legal actions {legal[p][:3]} while waiting for {waiting}"
    return legal


def check_views(engine, state, players):
    waiting = engine.waiting_for(state)
    for viewer in [*players, None]:
        view = engine.view(state, viewer)
        assert plain(view) == view and view["me"] == viewer
        assert view["waiting_for"] == waiting and view["finished"] == state["finished"]
    coach = engine.coach_view(state)
    assert plain(coach) == coach and coach["waiting_for"] == waiting
    summary = engine.summary(state)
    assert plain(summary) == summary
    assert summary["finished"] == state["finished"] and summary["waiting_for"] == waiting
    assert summary["winners"] == state["winners"]


@CONTRACT
@given(data=st.data())
def test_random_games_end_keeping_the_contract(spec, data):
    engine = spec.engine
    shape = data.draw(shapes(spec), label="shape")
    steps, final = random_play(spec, shape)
    players = list(shape.players)
    rng = random.Random(shape.seed)
    assert steps or final["finished"]
    viewed = {id(s) for s in rng.sample(steps, min(VIEWED, len(steps)))}
    for step in steps:
        state = step.before
        snapshot = plain(state)
        legal = check_turn(engine, state, players)[step.player]
        assert listed(step.action, legal)  # a bot's choice too
        for action in rng.sample(legal, min(LISTED_TRIED, len(legal))):
            engine.apply(state, step.player, action)  # every listed action is allowed
        facts = engine.analyse(state, step.player, step.action)
        assert plain(facts) == facts and "kind" in facts
        assert state == snapshot, "apply or analyse changed the state it was given"
        assert plain(step.after) == step.after and engine.copy_state(step.after) == step.after
        for event in step.events:
            assert type(event["type"]) is str and plain(event) == event
            # Text (a `Words` is a str that also carries its message id: games/engine/words.py).
            assert isinstance(engine.describe_event(event), str)
        if id(step) in viewed:
            check_views(engine, step.after, players)
    # no later move changed an earlier state (a new state may share what is never changed)
    assert all(json.loads(step.after_text) == step.after for step in steps)
    assert not steps or steps[0].before == engine.new_game(players, dict(shape.options), shape.seed)
    # the end
    check_views(engine, final, players)
    assert final["finished"], f"not over after {len(steps)} moves"
    assert engine.waiting_for(final) == []
    assert all(engine.legal_actions(final, p) == [] for p in players)
    assert final["winners"] and set(final["winners"]) <= set(players)
    scores = engine.scores(final)
    assert set(scores) == set(players) and all(type(v) is int for v in scores.values())
    for p in players:
        try:
            engine.apply(final, p, steps[-1].action if steps else {"type": next(iter(engine.ACTIONS))})
        except IllegalMove as exc:
            assert exc.code in ("game_over", "bad_action")
        else:
            raise AssertionError("a move was accepted after the end")

