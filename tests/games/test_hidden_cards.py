"""No fragment sent to a player depends on what that player may not see: other players' hidden
cards, secret choices, or the deck order. For every game, two states that differ only in
such hidden things must render the same table, byte for byte, for that player; the teacher's
coach view (every hand shown) must tell them apart, which shows the change was real."""

import re

import pytest

from games import engine as engines
from games.models import Game
from games.rendering import render_table
from games.services import SeatSpec, game_apply_move, game_create

pytestmark = pytest.mark.django_db

KEY_FIELD = re.compile(r'name="idempotency_key" value="[^"]+"|data-form-key="[^"]+"')


def strip_keys(html: str) -> str:
    return KEY_FIELD.sub("", html)  # a fresh key per render, by design


def swap_hand_with_deck(state: dict, other: str, deck_key: str) -> dict:
    """Give `other` the top cards of the deck instead of their hand (cards are conserved),
    and turn the rest of the deck upside down."""
    hand, deck = state["hands"][other], state[deck_key]
    n = len(hand)
    state["hands"][other], state[deck_key] = deck[:n], list(reversed(deck[n:] + hand))
    return state


def twin_so(game: Game, me: str, other: str) -> dict:
    state = game.state
    state["hands"][other] = ["free_turn", "double", "free_choice"]
    for deck in state["decks"].values():
        deck.reverse()
    return state


def twin_mg(game: Game, me: str, other: str) -> dict:
    return swap_hand_with_deck(game.state, other, "deck")


twin_numero = twin_mg


def twin_solitaire(game: Game, me: str, other: str) -> dict:
    game.state["deck"].reverse()
    return game.state


def twin_am(game: Game, me: str, other: str) -> dict:
    """Let `other` choose secretly, two different ways: only the choice differs."""
    engine = engines.get("add_or_multiply")
    choices = engine.legal_actions(game.state, other)
    first, second = choices[0], next(c for c in choices[1:] if c != choices[0])
    seat = game.seats.get(name=other)
    assert game_apply_move(game_id=game.pk, seat=seat, action=first, expected_version=game.version,
                           schedule_bots=False).applied
    game.refresh_from_db()
    twin, _ = engine.apply(game_state_before(game, other, second), other, second)
    return twin


def game_state_before(game: Game, player: str, _action) -> dict:
    from games.selectors import game_state_at

    return game_state_at(game=game, turn=game.version - 1)


CASES = {
    "smooth_operator": (["Ann", "Ben"], twin_so),
    "multiplication": (["Ann", "Ben"], twin_mg),
    "add_or_multiply": (["Ann", "Ben", "Cal"], twin_am),
    "numero": (["Ann", "Ben"], twin_numero),
    "numero_solitaire": (["Ann"], twin_solitaire),
}


@pytest.mark.parametrize("key", list(CASES))
def test_a_players_table_never_shows_what_they_may_not_see(key, classroom, student, make_student):
    names, make_twin = CASES[key]
    users = {"Ann": student}
    for name in names[1:]:
        users[name] = make_student(classroom, name, ("boat", "star", "apple"))
    game = game_create(key=key, classroom=classroom, seed=11,
                       seats=[SeatSpec(n, user=users[n]) for n in names])
    engine = engines.get(key)
    other = names[1] if len(names) > 1 else None
    ann = game.seats.get(name="Ann")
    before_view = engine.view(game.state, "Ann")
    before_html = strip_keys(render_table(game_id=game.pk, seat=ann, coach=False))
    before_coach = strip_keys(render_table(game_id=game.pk, seat=None, coach=True))

    twin = make_twin(game, "Ann", other)
    if key == "add_or_multiply":  # the real game now holds Ben's first secret choice
        before_view = engine.view(game.state, "Ann")
        before_html = strip_keys(render_table(game_id=game.pk, seat=ann, coach=False))
        before_coach = strip_keys(render_table(game_id=game.pk, seat=None, coach=True))
    Game.objects.filter(pk=game.pk).update(state=twin)

    assert engine.view(twin, "Ann") == before_view  # only hidden things changed
    assert strip_keys(render_table(game_id=game.pk, seat=ann, coach=False)) == before_html
    if other is not None:
        assert strip_keys(render_table(game_id=game.pk, seat=None, coach=True)) != before_coach
