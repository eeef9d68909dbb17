"""The Multiplication Game at the table: the status line, the board's values and the results
screen."""

from __future__ import annotations

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.engine import multiplication as engine_package
from games.engine.multiplication.skills import SKILLS
from games.engine.words import names_in_words
from games.engine.words import pgettext  # English, found by makemessages
from games.spec import GameSpec, presets_from
from games.words import Spoken, say


def your_turn(view: dict) -> str:
    multipliers = [str(m) for m in view.get("open", {}).get("multipliers", [])]
    return _("Your turn: put down a card that has %(multipliers)s as a multiplier and say its two "
             "multipliers, or draw a card.") % {"multipliers": say(names_in_words(multipliers))}


def score_words(view: dict) -> dict[str, str]:
    """The score is minus the cards still held (the engine's `scores`): say so. While the game
    is on, the side panel counts each player's cards in hand (public)."""
    left = view.get("cards_left") or {}
    if view.get("finished"):
        return {p: (ngettext("−%(n)s: %(n)s card left in hand", "−%(n)s: %(n)s cards left in hand", n)
                    % {"n": n} if n else _("0: no cards left in hand")) for p, n in left.items()}
    return {p: (ngettext("%(n)s card in hand", "%(n)s cards in hand", n) % {"n": n} if n
                else _("no cards in hand")) for p, n in left.items()}


# The multiplier choices, the same on every board: built once, not 40 template lookups a push.
MULTIPLIER_OPTIONS = mark_safe("".join(f'<option value="{n}">{n}</option>' for n in range(1, 11)))  # noqa: S308


DRAW = {"type": "draw"}


def board_context(view: dict) -> dict:
    return {"multiplier_options": MULTIPLIER_OPTIONS, "score_words": score_words(view), "mg_draw": DRAW,
            "score_note": _("Each card left in your hand counts −1, so the best score is 0: "
                            "fewer cards left is better.")}


KEY = "multiplication"

SPEC = GameSpec(
    key=KEY,
    name=Spoken(pgettext("game name", "The Multiplication Game")),
    pitch=gettext_lazy("Get rid of your cards by naming times-table facts."),
    engine=engine_package.ENGINES[KEY],
    bots=engine_package.BOTS_BY_GAME[KEY],
    presets=presets_from(engine_package.PRESETS_BY_GAME[KEY]),
    free_play_bots=1,
    board_template="games/boards/multiplication.html",
    stylesheets=("css/games/multiplication.css",),
    ratings=engine_package.RATINGS_BY_GAME[KEY],
    your_turn=your_turn,
    board_context=board_context,
    skills=SKILLS,
)
