"""The arithmetic of Add or Multiply?: hands, legal plays, round scores.

Everything here is a pure function of plain data shared by the state and by a player's
view (every hand is public once a round is revealed), so the engine, the bots and the
skill analysis all use the same code.
"""

from __future__ import annotations

from collections import Counter

NUMBER_CARDS = (0, 0, 1, 1, 2, 2, 3, 4, 5, 6)
NUMBER_VALUES = tuple(sorted(set(NUMBER_CARDS)))
OPERATION_CARDS = ("+", "+", "+", "x", "x", "x")
OPERATIONS = ("+", "x")
MAX_ROUNDS = 5


def is_number_range(value) -> bool:
    """[a, b], whole numbers with 0 <= a < b <= 6 (house focus option `number_range`)."""
    return (type(value) is list and len(value) == 2 and all(type(v) is int for v in value)
            and NUMBER_VALUES[0] <= value[0] < value[1] <= NUMBER_VALUES[-1])


def number_cards(number_range=None) -> list[int]:
    """A hand's ten number cards: the values a..b of the range round and round, sorted. The
    whole range 0-6 gives exactly the standard 0 0 1 1 2 2 3 4 5 6."""
    if number_range is None:
        return list(NUMBER_CARDS)
    low, high = number_range
    width = high - low + 1
    return sorted(low + i % width for i in range(len(NUMBER_CARDS)))


def starting_hand(number_range=None) -> dict:
    return {"numbers": number_cards(number_range), "operations": list(OPERATION_CARDS)}


def combine(operation: str, a: int, b: int) -> int:
    return a + b if operation == "+" else a * b


def other_operation(operation: str) -> str:
    return "x" if operation == "+" else "+"


def opponents(players: list[str], player: str) -> list[str]:
    """The two other players, in seating order starting after `player`."""
    i = players.index(player)
    return [players[(i + 1) % 3], players[(i + 2) % 3]]


def missing_cards(hand: dict, on: dict, operation: str) -> bool:
    """True if the hand does not hold the numbers in `on` (with copies) and the operation."""
    held = Counter(hand["numbers"])
    for value, needed in Counter(on.values()).items():
        if held[value] < needed:
            return True
    return operation not in hand["operations"]


def legal_plays(hand: dict, targets: list[str]) -> list[dict]:
    """Every distinct play from `hand` on the two `targets` (one entry per outcome)."""
    held = Counter(hand["numbers"])
    values = sorted(held)
    first, second = targets
    plays = []
    for operation in sorted(set(hand["operations"])):
        for a in values:
            for b in values:
                if a == b and held[a] < 2:
                    continue
                plays.append({"type": "play", "on": {first: a, second: b}, "operation": operation})
    return plays


def remove_play(hand: dict, on: dict, operation: str) -> dict:
    """The hand left after playing `on` and `operation` (a new dict, sorted)."""
    numbers = list(hand["numbers"])
    for value in on.values():
        # The engine removes only plays it has checked; a model of a hand that may be wrong
        # (a bot replaying the rounds from the standard hand in a `number_range` game) just
        # keeps the cards it cannot find.
        if value in numbers:
            numbers.remove(value)
    operations = list(hand["operations"])
    operations.remove(operation)
    return {"numbers": numbers, "operations": operations}


def round_facts(players: list[str], plays: dict) -> dict:
    """Per player: what came from whom, the chosen operation's score and the other one's.

    `plays` is `{name: {"on": {opponent: value, ...}, "operation": op}}` for all three.
    `missed` marks a round where the other operation would have scored more (am.operation).
    """
    facts = {}
    for me in players:
        came = {sender: plays[sender]["on"][me] for sender in opponents(players, me)}
        a, b = sorted(came.values())
        operation = plays[me]["operation"]
        points = combine(operation, a, b)
        other = other_operation(operation)
        other_points = combine(other, a, b)
        facts[me] = {
            "on_me": [a, b],
            "from": came,
            "operation": operation,
            "points": points,
            "other_operation": other,
            "other_points": other_points,
            "missed": other_points > points,
        }
    return facts


def winners(scores: dict, players: list[str]) -> list[str]:
    best = max(scores.values())
    return [p for p in players if scores[p] == best]
