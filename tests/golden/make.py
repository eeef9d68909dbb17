"""Regenerate the golden playthroughs in tests/golden/ (run explicitly, from the repo root):

    .venv/bin/python tests/golden/make.py                  # every game
    .venv/bin/python tests/golden/make.py numero multiplication

A golden is a whole seeded game played by the game's own bots, stored with the game's
omniscient summary after every action. tests/contract/test_goldens.py replays every file of
every game and compares every summary exactly, so any change of behaviour shows up as a diff.
Only regenerate on purpose (a rules change), then read the diff by hand; regenerating with no
rules change must leave `git diff --stat tests/golden/` empty.

Games are found through games/registry.py (the engine and the bots of the GameSpec); a new
game adds its rows to `GOLDENS` below and nothing else here.
"""

from __future__ import annotations

import copy
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:
    sys.path.insert(0, str(HERE.parents[1]))

from games import registry  # noqa: E402

MAX_ACTIONS = 5000


@dataclass(frozen=True)
class Golden:
    """One golden playthrough: the game, who plays it, how, and what it must show."""

    file: str                 # the file name in tests/golden/
    game: str                 # a registered game key
    players: tuple[str, ...]
    seed: int
    bots: tuple[str, ...]     # the bot level of each seat; seat i's bot is seeded seed * 10 + i
    options: dict = field(default_factory=dict)
    preset: str = ""          # or the options of one of the game's presets
    setup: dict | None = None  # a scenario setup (engine.new_game's `setup`)
    # Every third action carries a mental-maths answer (the analysis' `correct_answer`), one
    # in four of those a wrong guess, as a child's might be.
    answers: bool = False
    shows: str | int | None = None  # an action type the game must hold, or a least length
    # How the file is laid out (kept as each game's goldens were first written):
    # "record": game, players, options, seed, bots, initial, actions, summaries;
    # "record_no_initial": the same without the initial summary;
    # "scenario": {"scenario": a replay scenario, "initial", "summaries"}.
    layout: str = "record"

    def resolved_options(self) -> dict:
        if not self.preset:
            return copy.deepcopy(self.options)
        preset = registry.spec_for(self.game).preset(self.preset)
        if preset is None:
            raise KeyError(f"{self.game} has no preset {self.preset!r}")
        return copy.deepcopy(preset.options)


_SO_SETUP_4 = {"order": ["Cal", "Ann", "Ben"],
               "hands": {"Ann": ["/", "/", "/"], "Ben": ["double", "free_choice", "free_turn"]},
               "operator_deck": ["x", "x", "x", "-", "free_choice", "+", "/", "-", "double"]}
# short number decks: their discard piles are shuffled back in again and again
_SO_SETUP_5 = {"high_deck": [20, 11, 15], "low_deck": [1, 2, 5, 10]}
ABC = ("Ann", "Ben", "Cal")

GOLDENS: list[Golden] = [
    # Smooth Operator
    Golden("smooth_operator_1.json", "smooth_operator", ("Ann", "Ben"), 11, ("expert", "beginner"),
           {"target": 200}, layout="scenario"),
    Golden("smooth_operator_2.json", "smooth_operator", ABC, 23, ("player", "expert", "beginner"),
           {"target": 300}, answers=True, layout="scenario"),
    Golden("smooth_operator_3.json", "smooth_operator", ABC + ("Dan",), 5,
           ("beginner", "beginner", "player", "expert"), {}, layout="scenario"),
    Golden("smooth_operator_4.json", "smooth_operator", ABC, 7, ("expert", "player", "player"),
           {"target": 150}, setup=_SO_SETUP_4, layout="scenario"),
    Golden("smooth_operator_5.json", "smooth_operator", ("Ann", "Ben"), 3, ("player", "player"),
           {"target": 400}, setup=_SO_SETUP_5, answers=True, layout="scenario"),
    # Add or Multiply?
    Golden("add_or_multiply_1.json", "add_or_multiply", ("Brian", "Susie", "Ted"), 1,
           ("expert", "player", "beginner")),
    Golden("add_or_multiply_2.json", "add_or_multiply", ABC, 2, ("beginner", "beginner", "beginner")),
    Golden("add_or_multiply_3.json", "add_or_multiply", ABC, 3, ("player", "expert", "player"),
           {"rounds": 3}),
    Golden("add_or_multiply_4.json", "add_or_multiply", ("Zoe", "Yan", "Xia"), 4,
           ("expert", "expert", "beginner")),
    # Numero
    Golden("numero_1.json", "numero", ("Ann", "Ben"), 101, ("player", "beginner"), preset="level1",
           layout="record_no_initial"),
    Golden("numero_2.json", "numero", ABC, 202, ("expert", "player", "beginner"), preset="level4",
           layout="record_no_initial"),
    Golden("numero_3.json", "numero", ("Ann", "Ben"), 305, ("expert", "expert"), preset="level8",
           shows="challenge", layout="record_no_initial"),
    Golden("numero_4.json", "numero", ("Ann", "Ben"), 606, ("expert", "player"), preset="level6",
           shows="wild", layout="record_no_initial"),
    # Numero Solitaire
    Golden("numero_solitaire_1.json", "numero_solitaire", ("Sam",), 405, ("expert",), preset="level7",
           shows=8, layout="record_no_initial"),
    Golden("numero_solitaire_2.json", "numero_solitaire", ("Sam",), 505, ("beginner",), preset="level2",
           layout="record_no_initial"),
    # The Multiplication Game
    Golden("multiplication_1.json", "multiplication", ("Ann", "Ben"), 1, ("expert", "beginner")),
    Golden("multiplication_2.json", "multiplication", ABC, 2, ("player", "expert", "beginner"),
           {"free_cards": 2}),
    Golden("multiplication_3.json", "multiplication", ABC + ("Dan",), 3,
           ("beginner", "player", "beginner", "expert")),
    Golden("multiplication_4.json", "multiplication", ("Ann", "Ben"), 4, ("beginner", "beginner"),
           {"turn_limit": 50, "hand_size": 10}),
]


def _answer(engine, state: dict, player: str, action: dict) -> int | None:
    """The right mental-maths answer for the action, as the game's analysis works it out."""
    facts = engine.analyse(state, player, {**action, "answer": 0})
    return facts.get("correct_answer")


def play(golden: Golden) -> dict:
    """Play the golden's game with its bots; return the file's content."""
    spec = registry.spec_for(golden.game)
    engine = spec.engine
    players, options = list(golden.players), golden.resolved_options()

    def new_game() -> dict:
        return engine.new_game(list(players), copy.deepcopy(options), golden.seed,
                               copy.deepcopy(golden.setup))

    bots = {p: spec.make_bot(level, golden.seed * 10 + i)
            for i, (p, level) in enumerate(zip(players, golden.bots, strict=True))}
    state = new_game()
    actions, summaries = [], []
    while not state["finished"]:
        if len(actions) >= MAX_ACTIONS:
            raise RuntimeError(f"{golden.file}: the game did not end in {MAX_ACTIONS} actions")
        for player in engine.waiting_for(state):  # simultaneous choices: in seat order
            action = bots[player].choose(engine.view(state, player))
            if golden.answers and len(actions) % 3 == 0:
                answer = _answer(engine, state, player, action)
                if answer is not None:
                    action["answer"] = answer + (1 if len(actions) % 4 == 0 else 0)
            state, _events = engine.apply(state, player, action)
            actions.append({"player": player, **action})
            summaries.append(engine.summary(state))
    _check_shows(golden, actions)
    return _layout(golden, options, actions, engine.summary(new_game()), summaries)


def _check_shows(golden: Golden, actions: list[dict]) -> None:
    wanted = golden.shows
    if wanted is None:
        return
    shown = (len(actions) >= wanted if type(wanted) is int
             else any(a["type"] == wanted for a in actions))
    if not shown:
        raise RuntimeError(f"{golden.file}: the game no longer shows {wanted!r}; pick another seed")


def _layout(golden: Golden, options: dict, actions: list, initial: dict, summaries: list) -> dict:
    players = list(golden.players)
    if golden.layout == "scenario":
        scenario = {"game": golden.game, "players": players, "seed": golden.seed, "actions": actions}
        if golden.setup is not None:
            scenario["setup"] = copy.deepcopy(golden.setup)
        scenario["options"] = options
        return {"scenario": scenario, "initial": initial, "summaries": summaries}
    record = {"game": golden.game, "players": players, "options": options, "seed": golden.seed,
              "bots": list(golden.bots)}
    if golden.layout == "record":
        record["initial"] = initial
    elif golden.layout != "record_no_initial":
        raise ValueError(f"{golden.file}: unknown layout {golden.layout!r}")
    record["actions"], record["summaries"] = actions, summaries
    return record


def read(path: Path) -> dict:
    """A golden file as one shape, whatever its layout: game, players, options, seed, setup,
    actions (each with its "player"), summaries, and initial (None when not stored)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    source = data.get("scenario", data)
    return {"game": source["game"], "players": source["players"],
            "options": source.get("options") or {}, "seed": source.get("seed", 0),
            "setup": source.get("setup"), "actions": source["actions"],
            "summaries": data["summaries"], "initial": data.get("initial")}


def regenerate(keys: list[str] | None = None) -> list[Path]:
    known = {g.game for g in GOLDENS}
    unknown = set(keys or ()) - known
    if unknown:
        raise SystemExit(f"no goldens for {', '.join(sorted(unknown))} (games: {', '.join(sorted(known))})")
    written = []
    for golden in GOLDENS:
        if keys and golden.game not in keys:
            continue
        path = HERE / golden.file
        path.write_text(json.dumps(play(golden), indent=1) + "\n", encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in regenerate(sys.argv[1:]):
        print(path.relative_to(HERE.parents[1]))
