"""Higher Card at the table: its GameSpec (games/spec.py). Registering SPEC
(`games.registry.register`) is the one line that makes the game playable."""

from games.engine.bots import Bot
from games.spec import GameSpec, Preset

from .engine import ENGINE
from .skills import SKILLS


class RandomBot(Bot):
    level = "beginner"

    def choose(self, view):
        return {"type": "play", "card": self.rng.choice(view["hand"])}


class HighestBot(Bot):
    level = "player"

    def choose(self, view):
        return {"type": "play", "card": max(view["hand"])}


SPEC = GameSpec(
    key=ENGINE.key,
    name="Higher Card",
    pitch="Play the higher card to win the trick.",
    engine=ENGINE,
    bots={"beginner": RandomBot, "player": HighestBot, "expert": HighestBot},
    presets=(Preset("classic", "Five cards each", {}), Preset("short", "Three cards each", {"cards": 3})),
    free_play_bots=1,
    board_template="games/boards/toy.html",
    your_turn=lambda view: "Your turn: play a card. The higher card wins the trick.",
    skills=SKILLS,
)
