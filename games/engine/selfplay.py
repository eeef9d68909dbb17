"""Self-play benchmark: `python -m games.engine.selfplay GAME --games N --bots a,b[,c] --seed S`.

Prints one JSON object: games, finished, illegal (must be 0), decisions, seconds,
decisions_per_s, think-time p50/p99 per bot level (ms), wins and mean score per level.
Seats rotate from game to game so that seat advantage cancels out.

`python -m games.engine.selfplay --focus [--games N --seed S]` measures the focus options
(house options in docs/rules-*.md): for each case in FOCUS_CASES (every engine package's own,
games/engine/focus.py), the chances per game of the focused skill in expert self-play, focused
against unfocused, and their ratio.

`python -m games.engine.selfplay --measures [GAME] [--games N --seed S] [--json]` prints, for
every measure, the chances per player per game of the focus "Practise this" deals against the
plain game, and the ratio (games/engine/measure_focus.py).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from . import BOT_LEVELS, game_keys, get, make_bot, packages
from .errors import IllegalMove
from .focus import FocusCase, self_play
from .measure_focus import measure_report, table


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def run(game: str, games: int, levels: list[str], seed: int = 0, options: dict | None = None,
        max_decisions: int = 100_000) -> dict:
    engine = get(game)
    seats = len(levels)
    players = [f"P{i + 1}" for i in range(seats)]
    think: dict[str, list[float]] = {level: [] for level in levels}
    wins = {level: 0.0 for level in levels}
    score_sum = {level: 0 for level in levels}
    seat_games = {level: 0 for level in levels}
    finished = illegal = decisions = 0
    started = time.perf_counter()
    for g in range(games):
        # Rotate who sits where, so each level plays from every seat equally often.
        seat_levels = [levels[(i + g) % seats] for i in range(seats)]
        bots = {p: make_bot(game, lvl, seed * 100_003 + g * 31 + i)
                for i, (p, lvl) in enumerate(zip(players, seat_levels))}
        level_of = dict(zip(players, seat_levels))
        state = engine.new_game(players, options, seed * 1_000_003 + g)
        steps = 0
        while not state["finished"] and steps < max_decisions:
            waiting = engine.waiting_for(state)
            if not waiting:
                break
            player = waiting[0]
            view = engine.view(state, player)
            t0 = time.perf_counter()
            action = bots[player].choose(view)
            think[level_of[player]].append((time.perf_counter() - t0) * 1000)
            try:
                state, _ = engine.apply(state, player, action)
            except IllegalMove:
                illegal += 1
                break
            decisions += 1
            steps += 1
        if state["finished"]:
            finished += 1
            summary = engine.summary(state)
            winners = summary["winners"]
            for p in winners:
                wins[level_of[p]] += 1 / len(winners)
            for p, points in engine.scores(state).items():
                score_sum[level_of[p]] += points
                seat_games[level_of[p]] += 1
    seconds = time.perf_counter() - started
    return {
        "game": game,
        "bots": levels,
        "games": games,
        "finished": finished,
        "illegal": illegal,
        "decisions": decisions,
        "seconds": round(seconds, 3),
        "decisions_per_s": round(decisions / seconds, 1) if seconds else 0.0,
        "think_ms": {
            level: {"p50": round(percentile(v, 50), 4), "p99": round(percentile(v, 99), 4),
                    "mean": round(sum(v) / len(v), 4) if v else 0.0}
            for level, v in think.items()
        },
        "wins": {level: round(w, 2) for level, w in wins.items()},
        "win_rate": {level: round(w / finished, 3) if finished else 0.0
                     for level, w in wins.items()},
        "mean_score": {level: round(score_sum[level] / seat_games[level], 2) if seat_games[level] else 0.0
                       for level in levels},
    }


# ----- focus options: chances of the focused skill per game ---------------------------------
# Every engine package with focus options exports its cases (`FOCUS_CASES`, games/engine/focus.py);
# a package that plays two games (Numero's) is listed once.
FOCUS_CASES: tuple[FocusCase, ...] = tuple(
    case for package in dict.fromkeys(packages().values())
    for case in getattr(package, "FOCUS_CASES", ()))


def chances_per_game(case: FocusCase, options: dict, games: int, seed: int = 0,
                     level: str = "expert") -> float:
    """Mean chances of the case's skill per game, over `games` seeded self-play games."""
    total = 0
    for engine, state, player, action in self_play(case.game, options, case.players, games, seed, level):
        if player is not None and case.count is not None:
            total += case.count(engine, state, player, action)
        elif player is None and case.at_end is not None:
            total += case.at_end(engine, state)
    return total / games if games else 0.0


def focus_report(games: int = 20, seed: int = 0, cases=FOCUS_CASES) -> list[dict]:
    """For each case: chances per game focused and unfocused, and the ratio (None when the
    unfocused game never gives the skill a chance)."""
    rows = []
    for case in cases:
        focused = chances_per_game(case, case.focused, games, seed)
        unfocused = chances_per_game(case, case.unfocused, games, seed)
        rows.append({"game": case.game, "option": case.option, "skill": case.skill,
                     "focused_options": case.focused, "unfocused_options": case.unfocused,
                     "games": games, "focused": round(focused, 2), "unfocused": round(unfocused, 2),
                     "ratio": round(focused / unfocused, 2) if unfocused else None,
                     "asserted": case.asserted})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.selfplay")
    parser.add_argument("game", nargs="?", choices=game_keys())
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--bots", default="beginner,beginner",
                        help="comma-separated bot levels, one per seat")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--options", default="{}", help="engine options as JSON")
    parser.add_argument("--focus", action="store_true",
                        help="measure the focus options (FOCUS_CASES; with GAME, that game's only)")
    parser.add_argument("--measures", action="store_true",
                        help="for every measure: chances per game of its practice focus vs the plain game")
    parser.add_argument("--json", action="store_true", help="with --measures: JSON rather than a table")
    args = parser.parse_args(argv)
    if args.measures:
        rows = measure_report(args.games, args.seed, args.game)
        print(json.dumps(rows, indent=2, ensure_ascii=False) if args.json else table(rows))
        return 0
    if args.focus:
        cases = [c for c in FOCUS_CASES if args.game in (None, c.game)]
        print(json.dumps(focus_report(args.games, args.seed, cases), indent=2))
        return 0
    if args.game is None:
        parser.error("name a game (or use --focus)")
    levels = args.bots.split(",")
    bad = [lvl for lvl in levels if lvl not in BOT_LEVELS]
    if bad:
        parser.error(f"unknown bot level {bad[0]!r}; choose from {', '.join(BOT_LEVELS)}")
    result = run(args.game, args.games, levels, args.seed, json.loads(args.options))
    print(json.dumps(result, indent=2))
    return 0 if result["illegal"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
