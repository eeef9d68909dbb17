"""No fragment sent to a player depends on what that player may not see: other players' hidden
cards, secret choices, or the deck order. For every registered game (and the toy game), two
states that differ only in such hidden things must render the same table, byte for byte, for
that player; the teacher's coach view (every hand shown) must tell them apart, which shows the
change was real.

The test is not told what a game hides: tests/contract/helpers.py `hidden_twins` finds states
that the player sees exactly alike (the same view) by swapping values of the state, and the
game's coach view says which of them differ in what the teacher may see. A game with more
than one player must hide something from its players that its coach view shows, or its
views show too much.
"""

import random
import re

import pytest

from games.models import Game
from games.rendering import PARTS, render_table, table_push
from games.services import SeatSpec, game_create
from tests.contract.helpers import CONTRACT_GAMES, NAMES, Shape, hidden_twins, ids, random_play, registered

pytestmark = pytest.mark.django_db

KEY_FIELD = re.compile(r'name="idempotency_key" value="[^"]+"|data-form-key="[^"]+"')
SEED = 11
ENOUGH = 6  # twins rendered per game


def strip_keys(html: str) -> str:
    return KEY_FIELD.sub("", html)  # a fresh key per render, by design


def render(game: Game, state: dict, seat) -> str:
    Game.objects.filter(pk=game.pk).update(state=state)
    return strip_keys(render_table(game_id=game.pk, seat=seat, coach=seat is None).html)


def pushed(game: Game, state: dict, seat) -> str:
    """What a push after a change carries for `seat` (rendered once by the mover, then sent
    on by the seat's sockets)."""
    Game.objects.filter(pk=game.pk).update(state=state)
    parts = table_push(game_id=game.pk).views[str(seat.pk)]
    return strip_keys("".join(parts[name] for name in PARTS))


@pytest.mark.parametrize("spec", CONTRACT_GAMES, ids=ids)
def test_a_players_table_never_shows_what_they_may_not_see(spec, classroom, student, make_student):
    engine = spec.engine
    names = list(NAMES[:min(max(engine.min_players, 2), engine.max_players)])
    users = {names[0]: student}
    for name in names[1:]:
        users[name] = make_student(classroom, name, ("boat", "star", "apple"))
    with registered(spec):
        game = game_create(key=spec.key, classroom=classroom, seed=SEED,
                           seats=[SeatSpec(n, user=users[n]) for n in names])
        me = game.seats.get(name=names[0])
        # states of one seeded game, from the deal on (the game in the database is its deal)
        steps, _ = random_play(spec, Shape(tuple(names), {}, SEED, 0.3))
        assert not steps or steps[0].before == game.state
        states = [game.state] + [s.after for s in steps if not s.after["finished"]]
        rng = random.Random(SEED)
        rendered = coach_told = 0
        for state in states[::max(1, len(states) // 12)]:
            twins = hidden_twins(spec, state, me.name, rng)
            if not twins:
                continue
            mine, coach = render(game, state, me), render(game, state, None)
            assert pushed(game, state, me) == mine, "a push shows the player another table"
            for twin in sorted(twins, key=lambda t: not t.coach_differs)[:3]:
                assert render(game, twin.state, me) == mine, "the player's table shows a hidden thing"
                assert pushed(game, twin.state, me) == mine, "a push shows a hidden thing"
                rendered += 1
                if twin.coach_differs:
                    assert render(game, twin.state, None) != coach, "the coach view did not change"
                    coach_told += 1
            if rendered >= ENOUGH and (coach_told or not spec.multiplayer):
                break
    assert rendered, "no two states look alike to the player: is nothing hidden?"
    if spec.multiplayer:
        assert coach_told, "the coach sees nothing the players don't: do the views show every hand?"
