"""Add or Multiply? at the table: the status line and the board's values."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.engine import add_or_multiply as engine_package
from games.engine.add_or_multiply.skills import SKILLS
from games.engine.words import names_in_words
from games.engine.words import pgettext  # English, found by makemessages
from games.spec import GameSpec, presets_from
from games.words import Spoken, say


def your_turn(view: dict) -> str:
    return _("Choose a number card for each rival and + or × for yourself. "
             "Nobody sees your choice until everyone has chosen.")


SIGN = {"+": pgettext_lazy("Add or Multiply? operation card", "+ (add)"),
        "x": pgettext_lazy("Add or Multiply? operation card", "× (multiply)")}


def choice_words(name: str, choice: dict) -> str:
    """A secret choice in words: "Robo: sends 6 to Zip and 3 to Ann, keeps × (multiply)"."""
    sends = [_("%(number)s to %(name)s") % {"number": n, "name": to} for to, n in (choice.get("on") or {}).items()]
    keeps = SIGN.get(choice.get("operation")) or _("an operation")
    if sends:
        return _("%(name)s: sends %(sends)s, keeps %(keeps)s") % {
            "name": name, "sends": say(names_in_words(sends)), "keeps": keeps}
    return _("%(name)s: keeps %(keeps)s") % {"name": name, "keeps": keeps}


def board_context(view: dict) -> dict:
    me, hand = view.get("me"), view.get("hand") or {}
    pending = view.get("pending") or {}  # the coach view only: every choice made this round
    return {
        "am_opponents": [p for p in view.get("players", []) if p != me],
        "am_numbers": sorted(set(hand.get("numbers", []))),
        "am_operations": sorted(set(hand.get("operations", []))),
        "am_choices": [choice_words(name, choice) for name, choice in pending.items()],
        # The operation cards still in hand, as a child reads them: "+ (add), × (multiply)".
        "am_operations_left": ", ".join(str(SIGN.get(op, op)) for op in hand.get("operations", [])),
    }


KEY = "add_or_multiply"

SPEC = GameSpec(
    key=KEY,
    name=Spoken(pgettext("game name", "Add or Multiply?")),
    pitch=gettext_lazy("Send numbers to your rivals and choose + or x for yourself."),
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
