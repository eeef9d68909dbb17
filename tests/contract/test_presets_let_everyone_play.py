"""No teaching preset can end a game before everybody at the table has played (docs/play.md).

A "Quick" Smooth Operator game (first to 100) was won in its first turn by a child who had not
moved: the computer players' responses gave her 164 points and, holding no special card, she
was never asked anything. Here every preset (and the free-play options) of every game in
`games.registry.all_games()` (and the test-only toy game: tests/contract/conftest.py) is played
by bots from many seeds, with every player count, dealt as the app deals
(`games.services.moves.deal`: a deal that is over before anyone moved is dealt again), and the
game must not finish before every seat has made a decision (a move accepted from that seat).
A new game is covered without a line here.

Smooth Operator is also checked against the bound its presets are derived from (the comment
above PRESETS in games/engine/smooth_operator/__init__.py): a turn in which the active player
decides nothing gives at most (players - 1) * 20 * 10 points, and the worst such deal does not
end any preset's game.
"""

from __future__ import annotations

import random

import pytest

from games import registry
from games.services.moves import deal

SEEDS = 30  # seeded games per preset and player count (each with its own mix of bot levels)
MAX_DECISIONS = 5000

# Rules (not presets) that can keep a player from ever moving, with the event that says so.
# The Multiplication Game: a square number makes the next player draw and miss their turn, so a
# player who goes out discarding squares before their last card skips the next player every
# time. No option prevents it (10 squares and 2 free cards can be squares; a hand holds at most
# 10 cards); it is rare (about one game in a thousand with four- to seven-card hands) and a
# good play, and the skipped child sees each of their turns taken ("must draw a card and miss a
# turn because of the square number"). Only a seat the rules skipped may end the game undecided.
SKIPPED_BY_THE_RULES = {"multiplication": "skip"}


def _play(spec, options: dict, players: list[str], seed: int) -> tuple[dict, set[str], set[str]]:
    """One game from the app's deal until it ends or every seat has decided (what follows cannot
    matter here): the last state, the seats that decided and those the rules skipped
    (SKIPPED_BY_THE_RULES)."""
    engine = spec.engine
    rng = random.Random(seed)
    levels = sorted(spec.bots)
    bots = {p: spec.make_bot(rng.choice(levels), seed * 10 + i) for i, p in enumerate(players)}
    state, _ = deal(engine, players, dict(options), seed)
    decided: set[str] = set()
    skipped: set[str] = set()
    skip_event = SKIPPED_BY_THE_RULES.get(spec.key)
    for _ in range(MAX_DECISIONS):
        if state["finished"] or decided == set(players):
            return state, decided, skipped
        player = rng.choice(engine.waiting_for(state))
        state, events = engine.apply(state, player, bots[player].choose(engine.view(state, player)))
        decided.add(player)
        skipped |= {e.get("player") for e in events if e["type"] == skip_event}
    raise AssertionError(f"{spec.key}: nobody done after {MAX_DECISIONS} decisions")


def _option_sets(spec) -> list[tuple[str, dict]]:
    """Every preset, and the options of a game no assignment sets (free play, classmates)."""
    return [("free play", dict(spec.free_play_options))] + [(p.key, p.options) for p in spec.presets]


def test_every_preset_lets_every_seat_decide_before_the_game_ends(spec, in_registry):
    names = ["Ann", "Ben", "Cal", "Dan", "Eve", "Fay", "Gus", "Hal"]
    problems = []
    for label, options in _option_sets(spec):
        for count in range(spec.min_players, min(spec.max_players, len(names)) + 1):
            players = names[:count]
            for seed in range(SEEDS):
                state, decided, skipped = _play(spec, options, players, 1000 * count + seed)
                never = set(players) - decided - skipped
                if never:
                    problems.append(f"{label} ({count} players, seed {1000 * count + seed}): "
                                    f"over before {sorted(never)} moved; winners {state['winners']}")
    assert not problems, "\n".join(problems)


# ----- Smooth Operator: the bound its presets are derived from ------------------------------
# From the rules (docs/rules-smooth-operator.md): high cards 11-20, low cards 1-10, 2-4 players;
# an award is h+l, h-l, h*l or h/l (or 25 for a stuck responder); Double and Free Choice are
# played by the active player, who is asked whenever they hold a special.
HIGHEST, LOWEST_MAX, MOST_PLAYERS = 20, 10, 4
MOST_WITHOUT_A_DECISION = (MOST_PLAYERS - 1) * HIGHEST * LOWEST_MAX  # 600


def _smooth_operator():
    spec = registry.get("smooth_operator")
    if spec is None:
        pytest.skip("Smooth Operator is not registered")
    return spec


def test_smooth_operator_presets_are_above_the_most_a_turn_gives_without_a_decision():
    spec = _smooth_operator()
    assert spec.max_players == MOST_PLAYERS
    assert spec.presets
    for preset in spec.presets:
        assert preset.options["target"] > MOST_WITHOUT_A_DECISION, preset
    # Free play and tables of classmates too (the engine's default target is 500).
    assert spec.engine.resolve_options(dict(spec.free_play_options), MOST_PLAYERS)["target"] \
        > MOST_WITHOUT_A_DECISION


def test_the_worst_first_turn_reaches_the_bound_and_ends_no_preset():
    """4 players; the first flip is 20 and 10; the three responders hold only x; the active
    player holds no special, so is never asked: the turn gives 600 and ends by itself."""
    spec = _smooth_operator()
    engine = spec.engine
    players = ["Ann", "Ben", "Cal", "Dan"]
    setup = {"order": players, "high_deck": [20, 19, 18], "low_deck": [10, 9, 8],
             "hands": {"Ann": ["+", "-", "/"], "Ben": ["x", "x", "x"], "Cal": ["x", "x", "x"],
                       "Dan": ["x", "x", "x"]}}
    for preset in spec.presets:
        state = engine.new_game(players, dict(preset.options), 1, setup)
        for responder in ("Ben", "Cal", "Dan"):
            assert engine.waiting_for(state) == [responder]
            state, _ = engine.apply(state, responder, {"type": "play", "card": "x"})
        summary = engine.summary(state)
        assert summary["scores"]["Ann"] == MOST_WITHOUT_A_DECISION
        assert not state["finished"], f"{preset.key}: the game ended before Ann decided anything"
        assert summary["active"] == "Ben", "Ann's turn ended by itself: she had nothing to decide"
    # The old "Quick" target (100) ended this very game in its first turn.
    old = engine.new_game(players, {"target": 100}, 1, setup)
    for responder in ("Ben", "Cal", "Dan"):
        old, _ = engine.apply(old, responder, {"type": "play", "card": "x"})
    assert old["finished"] and old["winners"] == ["Ann"]
