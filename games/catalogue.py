"""The games as students and teachers see them in menus (names, ages, one-line pitch)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class GameInfo:
    key: str
    name: str
    players: str
    pitch: str
    # Whether the browser table for this game is built yet.
    playable: bool = True


GAMES = (
    GameInfo("smooth_operator", "Smooth Operator", "2-4 players",
             "Pick the operator that gives the fewest points."),
    GameInfo("add_or_multiply", "Add or Multiply?", "3 players",
             "Send numbers to your rivals and choose + or x for yourself."),
    GameInfo("numero", "Numero", "2-3 players",
             "Make sums from the centre cards, with wild cards that change them."),
    GameInfo("numero_solitaire", "Numero Solitaire", "1 player",
             "Clear the centre on your own."),
    GameInfo("multiplication", "The Multiplication Game", "2-6 players",
             "Get rid of your cards by naming times-table facts."),
)
GAMES_BY_KEY = {g.key: g for g in GAMES}
