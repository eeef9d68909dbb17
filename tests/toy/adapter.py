"""Higher Card at the table: its GameSpec (games/spec.py), with its bots and their ratings,
its board and its stylesheet (tests/static/css/games/toy.css). Registering SPEC
(`games.registry.register`) is the one line that makes the game playable."""

from django.utils.translation import gettext, gettext_lazy

from games.engine.bots import Bot, BotRatings
from games.engine.words import pgettext  # English, found by makemessages
from games.spec import GameSpec, presets_from
from games.words import Spoken

from .engine import ENGINE, PRESETS
from .skills import SKILLS


class RandomBot(Bot):
    level = "beginner"

    def choose(self, view):
        return {"type": "play", "card": self.rng.choice(view["hand"])}


class HighestBot(Bot):
    level = "player"

    def choose(self, view):
        return {"type": "play", "card": max(view["hand"])}


# As `python -m games.engine.calibrate` would print them for a game in games/engine/ (the
# toy's figures are made up: its engine package lives in tests/).
RATINGS = BotRatings(levels={"beginner": 1000, "player": 1180, "expert": 1180},
                     mix={0: 1000, 0.5: 1100, 1: 1180})

def board_context(view: dict) -> dict:
    """Each card of the hand with the move that plays it (the board's forms send it)."""
    return {"plays": [(card, {"type": "play", "card": card}) for card in view.get("hand") or ()]}


SPEC = GameSpec(
    key=ENGINE.key,
    name=Spoken(pgettext("game name", "Higher Card")),  # the engine's title, in the reader's language
    pitch=gettext_lazy("Play the higher card to win the trick."),
    engine=ENGINE,
    bots={"beginner": RandomBot, "player": HighestBot, "expert": HighestBot},
    presets=presets_from(PRESETS),
    free_play_bots=1,
    board_template="games/boards/toy.html",
    stylesheets=("css/games/toy.css",),
    ratings=RATINGS,
    board_context=board_context,
    your_turn=lambda view: gettext("Your turn: play a card. The higher card wins the trick."),
    skills=SKILLS,
)
