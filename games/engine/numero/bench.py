"""Benchmark of the largest-take search on crowded positions.

    python -m games.engine.numero.bench [--positions 500] [--seed 1] [--numbers 1]
        [--items 12] [--wilds 5] [--objective cards]

Each position (seeded): `--items` single number cards in the centre, a hand of `--wilds`
wild cards drawn from every family plus `--numbers` number cards. It times
`search.best_take` (the largest take over every taking card in hand, wild cards applied in
any order) with a cold per-item cache, and prints one JSON object with p50/p99/max in ms.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from ..selfplay import percentile
from .cards import NUMBER_CODES, WILD_CODES, value_of
from .scoring import item_facts
from .search import best_take, item_options


def crowded_positions(count: int, seed: int, items: int, wilds: int, numbers: int):
    rng = random.Random(seed)
    for _ in range(count):
        cards = list(NUMBER_CODES)
        rng.shuffle(cards)
        centre = cards[:items]
        hand = cards[items:items + numbers] + rng.sample(WILD_CODES, wilds)
        yield [(value_of(c), item_facts([c], False)) for c in centre], hand


def run(count=500, seed=1, items=12, wilds=5, numbers=1, objective="cards") -> dict:
    times, sizes = [], []
    for centre, hand in crowded_positions(count, seed, items, wilds, numbers):
        item_options.cache_clear()  # every position pays for its own wild-card options
        started = time.perf_counter()
        plan = best_take(centre, hand, objective)
        times.append((time.perf_counter() - started) * 1000)
        sizes.append(plan.cards if plan else 0)
    return {
        "positions": count, "seed": seed, "centre_items": items, "wild_cards": wilds,
        "number_cards": numbers, "objective": objective,
        "ms": {"p50": round(percentile(times, 50), 3), "p99": round(percentile(times, 99), 3),
               "max": round(max(times), 3), "mean": round(sum(times) / len(times), 3)},
        "largest_take_cards": {"mean": round(sum(sizes) / len(sizes), 2), "max": max(sizes)},
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.numero.bench")
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--items", type=int, default=12)
    parser.add_argument("--wilds", type=int, default=5)
    parser.add_argument("--numbers", type=int, default=1)
    parser.add_argument("--objective", choices=("cards", "points"), default="cards")
    args = parser.parse_args(argv)
    print(json.dumps(run(args.positions, args.seed, args.items, args.wilds, args.numbers,
                         args.objective), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
