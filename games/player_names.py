"""Player names inside a game's JSON (the engine's state, a move's action, events and analysis,
a rating change's opponents): the engines write a player's name as a whole string (whose turn
it is, who won) or as a key (points per player, the card played on each opponent).
"""

from __future__ import annotations


def renamed(value, names: dict[str, str]):
    """JSON `value` with each player name of `names` replaced by its new name wherever it is a
    whole string or a key; every other value as it was. Used when an erased student's seat
    becomes "a former student" (games/services/former_student.py), and for how a student's
    data export names the other players of their games (privacy/export.py)."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): renamed(v, names) for k, v in value.items()}
    return value


def unique_name(name: str, taken) -> str:
    """`name`, or "name (2)", "name (3)" ...: the first not in `taken` (seat names are unique
    in a game, and a key per player must stay one key per player)."""
    found, n = name, 1
    while found in taken:
        n += 1
        found = f"{name} ({n})"
    return found
