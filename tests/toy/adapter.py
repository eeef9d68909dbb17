"""Higher Card at the table: its GameSpec (games/spec.py), built from its engine package's
exports (tests/toy/__init__.py), with its board (tests/templates/games/boards/toy.html) and its
stylesheet (tests/static/css/games/toy.css). Registering SPEC (`games.registry.register`) is the
one line that makes the game playable. A real game's adapter is games/adapters/<game>.py and
imports its package from games/engine/<game>/."""

from django.utils.translation import gettext, gettext_lazy

from games.engine.words import pgettext  # English, found by makemessages
from games.spec import GameSpec, presets_from
from games.words import Spoken
from tests import toy as engine_package

KEY = "toy"
ENGINE = engine_package.ENGINES[KEY]
RATINGS = engine_package.RATINGS_BY_GAME[KEY]


def board_context(view: dict) -> dict:
    """Each card of the hand with the move that plays it (the board's forms send it)."""
    return {"plays": [(card, {"type": "play", "card": card}) for card in view.get("hand") or ()]}


SPEC = GameSpec(
    key=KEY,
    name=Spoken(pgettext("game name", "Higher Card")),  # the engine's title, in the reader's language
    pitch=gettext_lazy("Play the higher card to win the trick."),
    engine=ENGINE,
    bots=engine_package.BOTS_BY_GAME[KEY],
    presets=presets_from(engine_package.PRESETS_BY_GAME[KEY]),
    free_play_bots=1,
    board_template="games/boards/toy.html",
    stylesheets=("css/games/toy.css",),
    ratings=RATINGS,
    board_context=board_context,
    your_turn=lambda view: gettext("Your turn: play a card. The higher card wins the trick."),
    skills=engine_package.SKILLS,
)
