"""Setting up a game: the order-of-play draw, the three decks, the deal.

A scenario `setup` may fix the order, any hands and any deck (top card first); everything it
does not fix comes from the seed. Checks raise BadScenario (exit status 2 of the replay
command).
"""

from __future__ import annotations

from collections import Counter

from ..errors import BadScenario
from ..rng import shuffled
from ..validate import is_int
from . import rules


def draw_order(state: dict, players: list[str]) -> tuple[list[str], list[dict]]:
    """Play order by the low-deck draw, and the draws made ({name: card} per round).

    The draw uses a freshly shuffled full low deck (its cards go back before play, so it
    never touches the game's own low deck). Players draw in the listed order; players who
    tie draw again among themselves, from the same deck, as often as needed.
    """
    deck: list[int] = []
    rounds: list[dict] = []

    def draw() -> int:
        nonlocal deck
        if not deck:  # only after many ties in a row
            deck = shuffled(state, rules.low_components())
        return deck.pop(0)

    def rank(group: list[str]) -> list[str]:
        drawn = {p: draw() for p in group}
        rounds.append(drawn)
        ordered: list[str] = []
        for value in sorted(set(drawn.values()), reverse=True):
            tied = [p for p in group if drawn[p] == value]
            ordered.extend(tied if len(tied) == 1 else rank(tied))
        return ordered

    deck = shuffled(state, rules.low_components())
    return rank(list(players)), rounds


def _check_numbers(setup: dict, key: str, allowed: tuple[int, ...]) -> list[int] | None:
    if key not in setup:
        return None
    cards = setup[key]
    if type(cards) is not list or not all(is_int(c) and c in allowed for c in cards):
        raise BadScenario(f"The {key} must be a list of cards from {allowed[0]} to {allowed[-1]}.")
    if not cards:
        raise BadScenario(f"The {key} needs at least one card, or nothing could be turned over.")
    if any(n > rules.NUMBER_COPIES for n in Counter(cards).values()):
        raise BadScenario(f"The {key} uses a card more often than the deck holds it.")
    return list(cards)


def _is_operator_list(value) -> bool:
    return type(value) is list and all(type(c) is str and c in rules.CANONICAL for c in value)


def _check_setup(players: list[str], setup: dict, options: dict) -> tuple:
    order = setup.get("order")
    if order is not None and (type(order) is not list or sorted(order, key=str) != sorted(players)
                              or not all(type(p) is str for p in order)):
        raise BadScenario("The order must list every player exactly once.")
    hands = setup.get("hands", {})
    if type(hands) is not dict or not all(p in players for p in hands):
        raise BadScenario("The hands must be an object keyed by player names.")
    if not all(_is_operator_list(h) for h in hands.values()):
        raise BadScenario("Every hand must be a list of operator cards.")
    operator_deck = setup.get("operator_deck")
    if operator_deck is not None and not _is_operator_list(operator_deck):
        raise BadScenario("The operator_deck must be a list of operator cards.")
    used = Counter(operator_deck or [])
    for hand in hands.values():
        used.update(hand)
    copies = rules.operator_copies(options)
    if any(n > copies[code] for code, n in used.items()):
        raise BadScenario("The setup uses an operator card more often than the deck holds it.")
    high_deck = _check_numbers(setup, "high_deck", rules.high_values(options))
    low_deck = _check_numbers(setup, "low_deck", rules.low_values(options))
    return order, hands, high_deck, low_deck, operator_deck


def new_state(key: str, players: list[str], options: dict, seed: int,
              setup: dict) -> tuple[dict, list[str]]:
    """The state before the deal and the first flip, and the players still to be dealt
    three cards (those without a hand fixed by the setup), in play order."""
    order, hands, high_deck, low_deck, operator_deck = _check_setup(players, setup, options)
    state = {"game": key, "players": players, "options": options, "seed": seed,
             "shuffles": 0, "finished": False, "winners": []}
    order_draws: list[dict] = []
    if order is None:
        order, order_draws = draw_order(state, players)
    placed = [card for hand in hands.values() for card in hand]
    decks = {
        "high": high_deck if high_deck is not None
        else shuffled(state, rules.number_pack(rules.high_values(options))),
        "low": low_deck if low_deck is not None
        else shuffled(state, rules.number_pack(rules.low_values(options))),
        "operator": list(operator_deck) if operator_deck is not None
        else shuffled(state, rules.without(rules.operator_pack(options), placed)),
    }
    state.update({
        "order": list(order),
        "order_draws": order_draws,
        "hands": {p: list(hands.get(p, [])) for p in order},
        "decks": decks,
        "discards": {"high": [], "low": [], "operator": []},
        "high": None,
        "low": None,
        "scores": {p: 0 for p in order},
        "active": order[0],
        "phase": "respond",
        "pending": [],
        "turn_number": 0,
        "turn_awards": {},
        "turn_points": 0,
        "doubles": 0,
        "free_choice": None,
        "free_turns": 0,
        "responses": [],
        "specials": [],
        "last_turn": None,
    })
    return state, [p for p in order if p not in hands]
