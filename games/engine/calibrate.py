"""Bot ratings by self-play: `python -m games.engine.calibrate GAME --games N --seed S`.

Prints one JSON object: the Elo rating of each bot level of GAME and of the mixed bot
"mix:<p>" (games/engine/bots.py) at p = 0, 0.25, 0.5, 0.75 and 1 and, for a game with a
starter, at p = -1 (the starter), -0.75, -0.5 and -0.25, on a scale where the beginner is
1000. The game's bots.py keeps the figures it printed (`RATINGS`, a games/engine/bots.py
`BotRatings`; the Django side never plays self-play at run time). `--part low` measures only
the starter's side (the levels below the beginner), `--part high` only the rest: each side is
measured apart from the other, so one can be measured again without the other changing.

How: the bot under test sits at a table of the game's smallest size with every other seat a
beginner, then with every other seat an expert (seats rotate from game to game). Its share of
wins w against k equal opponents gives its distance from their level by the Luce (multi-player
Elo) model, P(win) = 10^(R/400) / (10^(R/400) + k * 10^(B/400)), so R - B = 400 log10(k w /
(1 - w)). The expert's distance from the beginner is the mean of "expert vs beginners" and
"beginner vs experts"; each other bot's rating is the mean of its two estimates (from the
beginner and from the expert). Below the beginner the two ends are the starter and the
beginner instead (an expert beats a starter nearly always, which measures nothing): the
starter's distance is the mean of "starter vs beginners" and "beginner vs starters", and each
mix between them is the mean of its estimates from the beginner and from the starter.
Options: the game's first preset (what a first assignment plays), or --options.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from . import _package, get, make_bot
from .bots import STARTER, mix_level

BEGINNER = 1000.0
MIX_POINTS = (0.0, 0.25, 0.5, 0.75, 1.0)
LOW_MIX_POINTS = (-1.0, -0.75, -0.5, -0.25)  # the starter's side (-1: the starter itself)


def win_share(game: str, level: str, against: str, games: int, seed: int, options: dict) -> float:
    """The share of games `level` wins (ties split) against a full table of `against`."""
    engine = get(game)
    seats = engine.min_players
    won = 0.0
    for g in range(games):
        players = [f"P{i + 1}" for i in range(seats)]
        me = players[g % seats]
        level_of = {p: (level if p == me else against) for p in players}
        state = engine.new_game(players, options, seed * 1_000_003 + g)
        step = 0
        while not state["finished"]:
            player = engine.waiting_for(state)[0]
            bot = make_bot(game, level_of[player], seed * 7_919 + g * 1_009 + step)
            state, _ = engine.apply(state, player, bot.choose(engine.view(state, player)))
            step += 1
        winners = engine.summary(state)["winners"]
        if me in winners:
            won += 1 / len(winners)
    return won / games


def elo_gap(share: float, opponents: int) -> float:
    """How far above its `opponents` equal rivals a player winning `share` of games is."""
    share = min(max(share, 0.005), 0.995)
    return 400 * math.log10(opponents * share / (1 - share))


def calibrate(game: str, games: int = 400, seed: int = 0, options: dict | None = None,
              part: str = "all") -> dict:
    """The ratings of GAME's bots (`part`: "all", "high" without the starter's side, "low"
    the starter's side only)."""
    if options is None:
        presets = _package(game).PRESETS_BY_GAME[game]
        options = dict(next(iter(presets.values()))["options"]) if presets else {}
    k = get(game).min_players - 1
    if k < 1:
        raise ValueError(f"{game} is played alone: its bots have no rating")

    def gap(level: str, against: str, n: int) -> float:
        return elo_gap(win_share(game, level, against, games, seed + n, options), k)

    levels = list(_package(game).BOTS_BY_GAME[game])
    ratings = {"beginner": BEGINNER}
    mix = {0.0: BEGINNER}
    if part in ("all", "high"):
        expert = BEGINNER + (gap("expert", "beginner", 1) - gap("beginner", "expert", 2)) / 2
        ratings["expert"] = expert
        # (The starter is left out of this count so that the other levels keep their seeds.)
        for n, level in enumerate(lv for lv in levels if lv not in ratings and lv != STARTER):
            ratings[level] = ((BEGINNER + gap(level, "beginner", 10 + 2 * n))
                              + (expert + gap(level, "expert", 11 + 2 * n))) / 2
        mix[1.0] = expert
        for n, p in enumerate(q for q in MIX_POINTS if q not in mix):
            level = mix_level(p)
            mix[p] = ((BEGINNER + gap(level, "beginner", 20 + 2 * n))
                      + (expert + gap(level, "expert", 21 + 2 * n))) / 2
    if part in ("all", "low") and STARTER in levels:
        starter = BEGINNER + (gap(STARTER, "beginner", 40) - gap("beginner", STARTER, 41)) / 2
        ratings[STARTER] = mix[-1.0] = starter
        for n, p in enumerate(q for q in LOW_MIX_POINTS if q not in mix):
            level = mix_level(p)
            mix[p] = ((BEGINNER + gap(level, "beginner", 50 + 2 * n))
                      + (starter + gap(level, STARTER, 51 + 2 * n))) / 2
    return {"game": game, "games": games, "seed": seed, "options": options, "part": part,
            "levels": {lv: round(r) for lv, r in ratings.items()},
            "mix": {f"{p:.2f}": round(mix[p]) for p in sorted(mix)}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.calibrate")
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--options", default=None, help="engine options as JSON")
    parser.add_argument("--part", choices=("all", "high", "low"), default="all",
                        help="low: only the starter's side (below the beginner); high: the rest")
    args = parser.parse_args(argv)
    options = json.loads(args.options) if args.options else None
    print(json.dumps(calibrate(args.game, args.games, args.seed, options, args.part), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
