"""Add or Multiply? at the table: the status line and the board's values."""

from __future__ import annotations

from games.engine import add_or_multiply as engine_package
from games.engine.add_or_multiply.skills import SKILLS
from games.spec import GameSpec, presets_from


def your_turn(view: dict) -> str:
    return ("Choose a number card for each rival and + or × for yourself. "
            "Nobody sees your choice until everyone has chosen.")


SIGN = {"+": "+ (add)", "x": "× (multiply)"}


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def choice_words(name: str, choice: dict) -> str:
    """A secret choice in words: "Robo: sends 6 to Zip and 3 to Ann, keeps × (multiply)"."""
    sends = [f"{n} to {to}" for to, n in (choice.get("on") or {}).items()]
    keeps = SIGN.get(choice.get("operation"), "an operation")
    return f"{name}: sends {_and(sends)}, keeps {keeps}" if sends else f"{name}: keeps {keeps}"


def board_context(view: dict) -> dict:
    me, hand = view.get("me"), view.get("hand") or {}
    pending = view.get("pending") or {}  # the coach view only: every choice made this round
    return {
        "am_opponents": [p for p in view.get("players", []) if p != me],
        "am_numbers": sorted(set(hand.get("numbers", []))),
        "am_operations": sorted(set(hand.get("operations", []))),
        "am_choices": [choice_words(name, choice) for name, choice in pending.items()],
        # The operation cards still in hand, as a child reads them: "+ (add), × (multiply)".
        "am_operations_left": ", ".join(SIGN.get(op, op) for op in hand.get("operations", [])),
    }


KEY = "add_or_multiply"

SPEC = GameSpec(
    key=KEY,
    pitch="Send numbers to your rivals and choose + or x for yourself.",
    engine=engine_package.ENGINES[KEY],
    bots=engine_package.BOTS_BY_GAME[KEY],
    presets=presets_from(engine_package.PRESETS_BY_GAME[KEY]),
    free_play_bots=2,
    board_template="games/boards/add_or_multiply.html",
    stylesheets=("css/games/add_or_multiply.css",),
    ratings=engine_package.RATINGS_BY_GAME[KEY],
    your_turn=your_turn,
    board_context=board_context,
    skills=SKILLS,
)
