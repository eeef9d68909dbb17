"""python manage.py just_right [--game multiplication ...] [--rates 0.12,0.2,0.3,0.4,0.5]
       [--games 200] [--seed 1] [--workers 2] [--without-starter] [--json]

How often "just right" lets planted students of several strengths win (docs/play.md,
"An opponent for every child: the starter"). Each strength is one simulated student planted
with a miss rate of the game's strength measure (devtools/just_right.py `STRENGTH_MEASURES`: 0.12 is near the expert, 0.5 misses half of
what they could play), who plays `--games` just-right games in a row from a new student's
rating, at the game's smallest table and first preset. Prints, per game and strength, the
share of games won with its 90 % Wilson interval, where the rating ended, and how many of
the games were against computer players easier than the beginner. `--without-starter` plays
"just right" as it was before the starter (never below the beginner), for comparison.
No database is used: the engines are driven directly, as the services would drive them.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ProcessPoolExecutor

from django.core.management.base import BaseCommand, CommandError

from devtools.just_right import RATES, STRENGTH_MEASURES, just_right_run
from games import registry


def _run(args: tuple) -> dict:
    key, plant, games, seed, floor = args
    started = time.perf_counter()
    figures = just_right_run(key=key, plant=plant, games=games, seed=seed, floor=floor).as_dict()
    figures["seconds"] = round(time.perf_counter() - started, 1)
    return figures


class Command(BaseCommand):
    help = "Win rates of planted students of several strengths in 'just right' games."

    def add_arguments(self, parser):
        parser.add_argument("--game", action="append", default=[], choices=sorted(STRENGTH_MEASURES),
                            help="a game to measure (give several; default: every rated game)")
        parser.add_argument("--rates", default=",".join(str(r) for r in RATES),
                            help="planted miss rates, strong to weak, comma-separated")
        parser.add_argument("--games", type=int, default=200, help="just-right games per student")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--workers", type=int, default=1, help="processes (one per core)")
        parser.add_argument("--without-starter", action="store_true",
                            help="never below the beginner (just right before the starter)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **opts):
        keys = opts["game"] or [k for k in STRENGTH_MEASURES if registry.get(k) is not None]
        try:
            rates = [float(r) for r in opts["rates"].split(",") if r.strip()]
        except ValueError:
            raise CommandError("--rates takes numbers from 0 to 1, e.g. 0.12,0.2,0.3") from None
        if not rates or any(not 0 <= r <= 1 for r in rates) or opts["games"] < 1:
            raise CommandError("Give rates from 0 to 1 and at least one game.")
        floor = 0.0 if opts["without_starter"] else None
        jobs = [(key, f"{STRENGTH_MEASURES[key]}={rate}", opts["games"], opts["seed"], floor)
                for key in keys for rate in rates]
        if opts["workers"] > 1:
            with ProcessPoolExecutor(opts["workers"]) as pool:
                results = list(pool.map(_run, jobs))
        else:
            results = [_run(job) for job in jobs]
        if opts["json"]:
            self.stdout.write(json.dumps(results, indent=1))
            return
        mode = "without the starter (never below the beginner)" if floor is not None else "with the starter"
        self.stdout.write(f"Just right, {opts['games']} games per student, {mode}; "
                          "win rate (90 % Wilson interval), rating at the end, games below the beginner")
        for key in keys:
            self.stdout.write(f"  {registry.spec_for(key).name}")
            for r in results:
                if r["game"] != key:
                    continue
                low, high = r["wilson_90"]
                inside = "inside" if 0.4 <= r["win_rate"] <= 0.6 else "OUTSIDE"
                self.stdout.write(
                    f"    {r['plant']:<26} {r['win_rate']:.0%} ({low:.0%}-{high:.0%})  "
                    f"rating {r['rating_end']}  below beginner {r['below_beginner']:.0%}  "
                    f"[{inside} 40-60 %]  {r['seconds']} s")

