"""Higher Card's computer players, easiest first, and beside them their ratings."""

from games.engine.bots import Bot, BotRatings


class RandomBot(Bot):
    level = "beginner"

    def choose(self, view):
        return {"type": "play", "card": self.rng.choice(view["hand"])}


class HighestBot(Bot):
    level = "player"

    def choose(self, view):
        return {"type": "play", "card": max(view["hand"])}


BOTS = {"beginner": RandomBot, "player": HighestBot, "expert": HighestBot}

# As `python -m games.engine.calibrate` would print them for a game in games/engine/ (the
# toy's figures are made up: its engine package lives in tests/).
RATINGS = BotRatings(levels={"beginner": 1000, "player": 1180, "expert": 1180},
                     mix={0: 1000, 0.5: 1100, 1: 1180})
