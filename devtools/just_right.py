""""Just right" measured: planted students of several strengths play a run of just-right
games each, and their share of wins is counted (docs/play.md, "An opponent for every child:
the starter").

A run replays, with the engines alone (no database, so 200 games take seconds, not minutes),
exactly what a student's Play button does for a "just right" assignment
(games.services.game_start_for_assignment, then the move and rating services):
- the computer players' level is `games.ratings.just_right_level` of the rating of the moment
  (the student starts at `default_rating`, as a new student does);
- the deal is `games.services.moves.deal` with the seed a simulated assignment game gets
  (devtools/simulation.py `play_assignment_games`), each bot decision is the bot the move
  service makes (`games.services.bots.bot_action`: seeded from the game's seed, its version and
  the seat), and the planted student plays its planted player's legal move;
- after each game the rating moves by games/ratings.py's rule, as
  `games.services.ratings.ratings_update_for_game` moves it.
tests/games/test_starter.py checks that a run and the services give the same games.

The strengths are the rate of one planted miss (the game's `STRENGTH_MEASURES` below): the
one that makes a student lose most plainly (a play not seen, a take not seen, a worse card or
operation), every other decision being the expert's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games import ratings, registry
from games.engine.bots import mix_level, mix_share
from games.services.moves import BOT_NAMES, deal
from reports.uncertainty import wilson

from .planted import PlantedPlayer, parse_plant

# Per game, the planted measure whose rate sets how strong a simulated student is.
STRENGTH_MEASURES = {
    "multiplication": "mg.missed_play",
    "smooth_operator": "so.lowest_operator",
    "numero": "nu.missed_take",
    "add_or_multiply": "am.operation",
}
# From strong (near the expert) to the weakest: five strengths.
RATES = (0.12, 0.2, 0.3, 0.4, 0.5)
STUDENT = "Sim"


@dataclass
class Run:
    key: str
    plant: str
    games: int = 0
    wins: float = 0.0  # a win shared by n players counts 1/n, as the ratings count it
    levels: list[str] = field(default_factory=list)
    outcomes: list[float] = field(default_factory=list)  # the student's score in each game
    ratings: list[float] = field(default_factory=list)  # after each game

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 90 % Wilson interval of the win rate (reports.uncertainty.wilson)."""
        return wilson(round(self.wins), self.games)

    @property
    def below_beginner(self) -> float:
        """The share of games against computer players easier than the beginner."""
        low = sum(1 for level in self.levels if (mix_share(level) or 0.0) < 0)
        return low / len(self.levels) if self.levels else 0.0

    def as_dict(self) -> dict:
        low, high = self.interval
        half = self.ratings[len(self.ratings) // 2:]
        return {"game": self.key, "plant": self.plant, "games": self.games,
                "wins": round(self.wins, 2), "win_rate": round(self.rate, 3),
                "wilson_90": [round(low, 3), round(high, 3)],
                "rating_end": round(self.ratings[-1]) if self.ratings else None,
                "rating_second_half": round(sum(half) / len(half)) if half else None,
                "below_beginner": round(self.below_beginner, 3)}


def first_preset_options(key: str) -> dict:
    """The options a first assignment plays (the game's first preset), as the bots were
    calibrated on (games/engine/calibrate.py)."""
    spec = registry.spec_for(key)
    return dict(spec.presets[0].options) if spec.presets else {}


def just_right_run(*, key: str, plant: str, games: int = 200, seed: int = 1,
                   bots: int | None = None, floor: float | None = None,
                   name: str = STUDENT) -> Run:
    """`games` just-right games of one simulated student planted with `plant`
    ("mg.missed_play=0.4"), at the game's smallest table unless `bots` says how many computer
    players. `floor`: the lowest share the computer players may have; 0 is what "just right"
    did before the starter existed (a child weaker than the beginner met the beginner).
    `name`: the student's name at the table (the bots take the others, as `bot_seats` gives
    them)."""
    spec = registry.spec_for(key)
    engine = spec.engine
    bots = spec.min_players - 1 if bots is None else bots
    options = first_preset_options(key)
    player = PlantedPlayer([parse_plant(plant)], seed=f"just-right:{key}:{plant}:{seed}")
    names = [name] + [n for n in BOT_NAMES if n != name][:bots]
    rating, rated = ratings.default_rating(key), 0
    rng = random.Random(seed)
    run = Run(key, plant)
    for _ in range(games):
        share = ratings.just_right_share(key, rating, bots)
        if floor is not None:
            share = max(share, floor)
        level = mix_level(share)
        state, game_seed = deal(engine, names, options, rng.randrange(2**31))
        version = 0
        while not state["finished"]:
            seat = engine.waiting_for(state)[0]
            view = engine.view(state, seat)
            if seat == name:
                action = player.attempts(key, view)[-1]  # any before it is refused: no change
            else:
                bot = spec.make_bot(level, seed=game_seed * 1009 + version * 31 + names.index(seat))
                action = bot.choose(view)
            state, _ = engine.apply(state, seat, action)
            version += 1
        winners = set(engine.summary(state)["winners"])
        before = [rating] + [ratings.bot_rating(key, level)] * bots
        expected = ratings.expected_scores(before)
        scores = ratings.actual_scores([n in winners for n in names])
        rating, _ = ratings.updated(rating, expected=expected[0], score=scores[0], games=rated)
        rated += 1
        run.games += 1
        won = scores[0] if winners else 0.0
        run.wins += won
        run.outcomes.append(won)
        run.levels.append(level)
        run.ratings.append(rating)
    return run

