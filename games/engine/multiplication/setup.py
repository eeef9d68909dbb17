"""Dealing a new game of the Multiplication Game, with or without a scenario `setup`."""

from __future__ import annotations

from collections import Counter

from ..errors import BadScenario
from ..rng import shuffled
from . import rules


def _check_cards(cards, where: str) -> list:
    if type(cards) is not list or not all(rules.is_card(c) for c in cards):
        raise BadScenario(f"The setup's {where} must be a list of cards of this game.")
    return list(cards)


def read_setup(players: list[str], options: dict, setup: dict) -> tuple[dict, object, object]:
    """(hands, open card or None, deck top first or None) fixed by the setup, checked."""
    hands = setup.get("hands", {})
    if type(hands) is not dict or not set(hands) <= set(players):
        raise BadScenario("The setup's hands must be an object keyed by the players' names.")
    hands = {p: _check_cards(cards, f"hand of {p}") for p, cards in hands.items()}
    open_card = setup.get("open")
    if open_card is not None and not (rules.is_card(open_card) and open_card != rules.FREE):
        raise BadScenario("The setup's open card must be a product card.")
    deck = _check_cards(setup["deck"], "deck") if "deck" in setup else None
    placed = Counter(c for cards in hands.values() for c in cards)
    placed.update(deck or [])
    if open_card is not None:
        placed[open_card] += 1
    available = Counter(rules.pack(options))
    for card, count in placed.items():
        if count > available[card]:
            raise BadScenario(f"The setup uses the card {card} more often than the pack holds it.")
    return hands, open_card, deck


def deal(state: dict, setup: dict) -> None:
    """Fill hands, deck, open card of a fresh state (the deck is stored top card LAST)."""
    players, options = state["players"], state["options"]
    hands, open_card, deck = read_setup(players, options, setup)
    if deck is None:
        rest = Counter(rules.pack(options))
        rest.subtract(c for cards in hands.values() for c in cards)
        if open_card is not None:
            rest[open_card] -= 1
        focus = rules.focus_cards(options)
        if focus:
            # A focused pack: the focused cards are shuffled and dealt first, then the rest.
            first = Counter({c: rest[c] for c in focus})
            rest.subtract(first)
            deck = shuffled(state, rules.sorted_cards(list(first.elements()))) + \
                shuffled(state, rules.sorted_cards(list(rest.elements())))
        else:
            deck = shuffled(state, rules.sorted_cards(list(rest.elements())))
    pile = list(reversed(deck))  # top card last, so drawing is a cheap pop()
    unlisted = [p for p in players if p not in hands]
    dealt = {p: [] for p in unlisted}
    for _ in range(options["hand_size"]):
        for p in unlisted:
            if not pile:
                raise BadScenario("There are not enough cards to deal every hand.")
            dealt[p].append(pile.pop())
    if open_card is None:
        open_card = _turn_open_card(pile)
    state["hands"] = {p: hands[p] if p in hands else dealt[p] for p in players}
    state["deck"] = pile
    state["open"] = {"card": open_card, "value": open_card,
                     "multipliers": rules.opening_multipliers(open_card)}


def _turn_open_card(pile: list):
    # A free card turned up goes to the bottom of the deck and the next card is turned.
    for _ in range(len(pile)):
        card = pile.pop()
        if card != rules.FREE:
            return card
        pile.insert(0, card)
    raise BadScenario("There is no product card left to turn up as the open card.")
