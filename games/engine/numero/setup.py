"""Options, scenario setups and the automatic deal for Numero and Numero Solitaire."""

from __future__ import annotations

from ..errors import BadScenario
from ..rng import shuffled
from .cards import WILD_FAMILIES, in_pack, is_code, is_number, pack, value_of

HAND_SIZE = 5
SOLITAIRE_CENTRE = 5


def valid_wilds(value) -> bool:
    return (type(value) is list and all(type(f) is str and f in WILD_FAMILIES for f in value)
            and len(set(value)) == len(value))


def is_bool(value) -> bool:
    return type(value) is bool


_ALL_WILDS = ("subtract", "multiply", "divide", "fraction", "power")
# The spec's teaching levels as options (also the presets, games/engine/numero/__init__.py).
LEVELS = {
    1: {"max_number": 10, "wilds": [], "scoring": False, "challenges": False},
    2: {"max_number": 15, "wilds": [], "scoring": False, "challenges": False},
    3: {"max_number": 15, "wilds": ["subtract"], "scoring": False, "challenges": False},
    4: {"max_number": 15, "wilds": ["subtract", "multiply", "divide"], "scoring": False,
        "challenges": False},
    5: {"max_number": 15, "wilds": ["subtract", "multiply", "divide", "fraction"],
        "scoring": False, "challenges": False},
    6: {"max_number": 15, "wilds": list(_ALL_WILDS), "scoring": False, "challenges": False},
    7: {"max_number": 15, "wilds": list(_ALL_WILDS), "scoring": True, "challenges": False},
    8: {"max_number": 15, "wilds": list(_ALL_WILDS), "scoring": True, "challenges": True},
}


def is_level(value) -> bool:
    return type(value) is int and value in LEVELS


def options_spec():
    return {
        "max_number": (15, lambda v: type(v) is int and v in (10, 15)),
        "wilds": (lambda _n: [], valid_wilds),
        "scoring": (False, is_bool),
        "challenges": (False, is_bool),
        # House focus option (docs/rules-numero.md), off by default: a teaching level, whose
        # pack and scoring the other options given with it may change (e.g. chosen wilds).
        "level": (None, is_level),
    }


def with_level(options):
    """The options with a valid `level` expanded: the level's options first, the options
    given explicitly on top (`{"level": 4, "wilds": ["divide"]}`: level 4 with only the
    divide wild cards). Anything else is left for the ordinary checks."""
    if type(options) is not dict or not is_level(options.get("level")):
        return options
    level = {k: list(v) if type(v) is list else v for k, v in LEVELS[options["level"]].items()}
    return {**level, **options}


def check_options(options: dict, solitaire: bool) -> None:
    if options["challenges"] and not options["scoring"]:
        raise BadScenario("Challenges are only played with scoring (set scoring to true).")
    if solitaire and options["challenges"]:
        raise BadScenario("Numero Solitaire has no challenges.")


def read_setup(setup: dict, players: list[str], options: dict) -> tuple[dict, list | None, list | None]:
    """Check a scenario's setup; return (hands, centre, deck) with None for what is not fixed."""
    hands = setup.get("hands", {})
    if type(hands) is not dict:
        raise BadScenario("setup.hands must map player names to lists of cards.")
    for name, cards in hands.items():
        if name not in players:
            raise BadScenario(f"setup.hands names {name}, who is not playing.")
        _check_cards(cards, f"the hand of {name}", options)
    centre = setup.get("centre")
    if centre is not None:
        _check_cards(centre, "the centre", options)
        if not all(is_number(c) for c in centre):
            raise BadScenario("setup.centre may only hold number cards.")
    deck = setup.get("deck")
    if deck is not None:
        _check_cards(deck, "the deck", options)
    placed = [c for cards in hands.values() for c in cards] + list(centre or []) + list(deck or [])
    if len(set(placed)) != len(placed):
        repeated = next(c for c in placed if placed.count(c) > 1)
        raise BadScenario(f"The setup uses the card {repeated} more than once; each card exists once.")
    return {p: list(c) for p, c in hands.items()}, \
        (None if centre is None else list(centre)), (None if deck is None else list(deck))


def _check_cards(cards, where: str, options: dict) -> None:
    if type(cards) is not list:
        raise BadScenario(f"The setup for {where} must be a list of card codes.")
    for code in cards:
        if not is_code(code):
            raise BadScenario(f"The setup for {where} holds {code!r}, which is not a Numero card.")
        if not in_pack(code, options):
            raise BadScenario(f"The setup for {where} holds {code}, which these options leave out of the pack.")


def build_deck(state: dict, hands: dict, centre, deck) -> list[str]:
    """The given deck, or the rest of the pack shuffled by the state's seed."""
    if deck is not None:
        return deck
    placed = {c for cards in hands.values() for c in cards} | set(centre or [])
    return shuffled(state, [c for c in pack(state["options"]) if c not in placed])


def deal_hands(state: dict, fixed: dict) -> None:
    """Hands the setup does not fix get five cards, dealt one at a time in play order."""
    hands = {p: list(fixed.get(p, [])) for p in state["players"]}
    dealt = [p for p in state["players"] if p not in fixed]
    for _round in range(HAND_SIZE):
        for p in dealt:
            if state["deck"]:
                hands[p].append(state["deck"].pop(0))
    state["hands"] = hands


def turn_up(state: dict, count: int) -> list[str]:
    """Turn cards into the centre until it holds `count` items. A wild card turned up goes to
    the bottom of the deck and the next card is turned; it stops if no number card is left."""
    turned = []
    while len(state["centre"]) < count and any(is_number(c) for c in state["deck"]):
        card = state["deck"].pop(0)
        if not is_number(card):
            state["deck"].append(card)
            continue
        state["centre"].append(single(card))
        turned.append(card)
    return turned


def single(card: str) -> dict:
    return {"cards": [card], "value": value_of(card), "build": False, "builder": None}


def refill_hand(state: dict, player: str) -> int:
    hand = state["hands"][player]
    drawn = 0
    while len(hand) < HAND_SIZE and state["deck"]:
        hand.append(state["deck"].pop(0))
        drawn += 1
    return drawn
