"""Each game's live line for a whole class (`GameSkills.class_line`, the arena's projector):
its facts (data: arena/class_line.py words them in the reader's language) state a true fact of the moves it is given, counted here again from the same moves; it
reads only what was face up (a refused attempt's card never shows); it names nobody; and it
says nothing (None) when the moves hold nothing to say yet."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import get, make_bot
from games.engine.add_or_multiply.skills import SKILLS as AM_SKILLS
from games.engine.multiplication.skills import SKILLS as MG_SKILLS
from games.engine.numero.skills import SKILLS as NU_SKILLS
from games.engine.skills import ClassMove, longest_run
from games.engine.smooth_operator import rules as so_rules
from games.engine.smooth_operator.skills import SKILLS as SO_SKILLS

NAMES = ["Quentin", "Zelda", "Xavier"]


def bot_play(key: str, seed: int, players: int = 2, level: str = "player", options=None,
             limit: int = 400) -> list[ClassMove]:
    """A seeded game played by the game's bots, as the class's moves (oldest first)."""
    engine = get(key)
    names = NAMES[:players]
    bots = {p: make_bot(key, level, seed * 10 + i) for i, p in enumerate(names)}
    state = engine.new_game(names, options or {}, seed)
    moves = []
    while not state["finished"] and len(moves) < limit:
        player = engine.waiting_for(state)[0]
        action = bots[player].choose(engine.view(state, player))
        analysis = engine.analyse(state, player, action)
        state, events = engine.apply(state, player, action)
        moves.append(ClassMove(accepted=True, action=action, events=events, analysis=analysis))
    return moves


def names_in(line: dict) -> list[str]:
    return [n for n in NAMES if n in repr(line)]


# ----- longest_run ------------------------------------------------------------------------------

def test_longest_run_is_ended_by_a_wrong_outcome_of_its_own_key_only():
    outcomes = [("a", True), ("a", True), ("b", True), ("a", True), ("b", False), ("b", True)]
    assert longest_run(outcomes) == ("a", 3)
    assert longest_run(outcomes + [("a", False), ("b", True), ("b", True)]) == ("a", 3)
    assert longest_run(outcomes + [("b", True), ("b", True), ("b", True)]) == ("b", 4)
    assert longest_run([("a", False)]) is None and longest_run([]) is None


# ----- The Multiplication Game ------------------------------------------------------------------

def declaration(a: int, b: int, *, right: bool = True, accepted: bool = True, error: str | None = None,
                needed: str | None = None) -> ClassMove:
    low, high = min(a, b), max(a, b)
    fact = {"a": a, "b": b, "card": a * b if right else 99, "product": a * b, "correct": right,
            "needed": needed or f"{low}x{high}"}
    action = {"type": "discard", "card": a * b, "declare": [a, b]} if accepted else None
    return ClassMove(accepted=accepted, action=action, events=(),
                     analysis={"kind": "discard", "player": "Zelda", "fact": fact,
                               "error": error, "hand": [54, 63]})


def test_multiplication_names_the_fact_named_right_most_times_in_a_row():
    moves = ([declaration(7, 8)] * 2 + [declaration(3, 4)] + [declaration(8, 7)] * 2
             + [declaration(6, 6)] * 4 + [declaration(6, 9, right=False, accepted=False,
                                                      error="bad_declaration", needed="6x6")]
             + [declaration(6, 6)])
    # 7 x 8 and 8 x 7 are one fact; the wrong 6 x 6 attempt ended its run at 4.
    assert MG_SKILLS.class_line(moves) == {"line": "fact_run", "a": 7, "b": 8, "count": 4}


def test_multiplication_never_names_a_fact_whose_card_stayed_in_the_hand():
    # A true fact refused for sharing no multiplier with the open card: the card stays hidden.
    hidden = [declaration(9, 9, accepted=False, error="no_common_multiplier")] * 5
    moves = [declaration(2, 3)] * 3 + hidden
    assert MG_SKILLS.class_line(moves) == {"line": "fact_run", "a": 2, "b": 3, "count": 3}
    assert MG_SKILLS.class_line(hidden) is None  # nothing was face up: the arena says its own line


def test_multiplication_without_a_run_counts_the_facts_named_right():
    moves = [declaration(2, 3), declaration(4, 5), declaration(2, 3),
             declaration(7, 8, right=False, accepted=False, error="bad_declaration")]
    assert MG_SKILLS.class_line(moves) == {"line": "facts_right", "right": 3, "count": 4}


def test_multiplication_says_nothing_before_a_fact_is_named():
    draw = ClassMove(accepted=True, action={"type": "draw"}, events=(), analysis={"kind": "draw"})
    assert MG_SKILLS.class_line([draw]) is None and MG_SKILLS.class_line([]) is None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_multiplication_line_from_bot_play_is_true(seed):
    moves = bot_play("multiplication", seed) + bot_play("multiplication", seed + 50)
    line = MG_SKILLS.class_line(moves)
    said = Counter(tuple(sorted(m.action["declare"])) for m in moves
                   if m.action["type"] == "discard" and m.analysis["fact"]["needed"])
    if line["line"] == "fact_run":  # bots name every fact right: a run is every time the fact was named
        fact, n = (line["a"], line["b"]), line["count"]
        assert said[fact] == n == max(said.values())
    else:
        assert line == {"line": "facts_right", "right": sum(said.values()), "count": sum(said.values())}
        assert max(said.values()) < 3
    assert not names_in(line)


# ----- Numero -----------------------------------------------------------------------------------

@pytest.mark.parametrize("key, players", [("numero", 2), ("numero", 3), ("numero_solitaire", 1)])
def test_numero_names_the_most_taken_card(key, players):
    moves = [m for seed in (4, 5) for m in bot_play(key, seed, players=players)]
    takes = Counter(e["value"] for m in moves for e in m.events if e["type"] == "take")
    assert takes, "the bots took nothing: pick other seeds"
    line = NU_SKILLS.class_line(moves)
    assert line["line"] == "most_taken_card"
    value, count = line["card"], line["count"]
    assert takes[int(value)] == int(count) == max(takes.values())
    # Face up: a card of that value was laid down to take.
    assert any(e["type"] == "take" and e["value"] == int(value) for m in moves for e in m.events)
    assert not names_in(line)


def test_numero_ties_go_to_the_higher_card_and_nothing_taken_says_nothing():
    def take(value):
        return ClassMove(True, {"type": "take"}, [{"type": "take", "player": "Xavier", "value": value}], {})
    assert NU_SKILLS.class_line([take(5), take(12), take(12), take(5)]) == {"line": "most_taken_card", "card": 12, "count": 2}
    assert NU_SKILLS.class_line([take(7)]) == {"line": "most_taken_card", "card": 7, "count": 1}
    discard = ClassMove(True, {"type": "discard"}, [{"type": "discard", "player": "Xavier", "card": "7r"}], {})
    assert NU_SKILLS.class_line([discard]) is None


# ----- Smooth Operator --------------------------------------------------------------------------

def test_smooth_operator_names_the_most_played_operator_card_from_bot_play():
    moves = bot_play("smooth_operator", 6, players=3, limit=300)
    played = Counter(e["card"] for m in moves for e in m.events if e["type"] == "play")
    line = SO_SKILLS.class_line(moves)
    assert line["line"] == "most_played_operator"
    symbol, count = line["card"], line["count"]
    card = {"+": "+", "−": "-", "×": "x", "÷": "/"}[symbol]
    assert played[card] == int(count) == max(played.values())
    assert not names_in(line)


def test_smooth_operator_counts_answers_right_in_a_row_with_mental_maths():
    def answer(right, accepted=True):
        return ClassMove(accepted, {"type": "play", "card": "x"} if accepted else None, (),
                         {"answer_correct": right, "answer": 42 if right else 41}, 42 if right else 41)
    moves = [answer(True)] * 4 + [answer(False)] + [answer(True)] * 5 + [answer(False, accepted=False)]
    assert SO_SKILLS.class_line(moves) == {"line": "sums_run", "count": 5}


def test_smooth_operator_says_nothing_before_a_card_is_played():
    flip = ClassMove(True, {"type": "end_turn"}, [{"type": "flip", "player": "Zelda", "high": 9, "low": 3}], {})
    assert SO_SKILLS.class_line([flip]) is None


# ----- Add or Multiply? -------------------------------------------------------------------------

def test_add_or_multiply_names_the_best_round_from_bot_play():
    moves = bot_play("add_or_multiply", 7, players=3) + bot_play("add_or_multiply", 8, players=3)
    results = [f for m in moves for e in m.events if e["type"] == "round_resolved"
               for f in e["results"].values()]
    line = AM_SKILLS.class_line(moves)
    assert line["line"] == "best_round"
    a, sign, b, points = line["a"], line["operation"], line["b"], line["points"]
    assert int(points) == max(f["points"] for f in results)
    assert any(sorted(f["on_me"]) == sorted([int(a), int(b)]) and f["points"] == int(points)
               and {"+": "+", "x": "×"}[f["operation"]] == sign for f in results)
    assert not names_in(line)


def test_add_or_multiply_never_reads_a_choice_still_secret():
    engine = get("add_or_multiply")
    names = NAMES[:3]
    state = engine.new_game(names, {}, 9)
    moves = []
    for player in names[:2]:  # two of three have chosen: the round is not turned over yet
        action = make_bot("add_or_multiply", "player", 1).choose(engine.view(state, player))
        analysis = engine.analyse(state, player, action)
        state, events = engine.apply(state, player, action)
        moves.append(ClassMove(True, action, events, analysis))
    assert AM_SKILLS.class_line(moves) is None


def test_smooth_operator_answers_from_real_play_with_mental_maths():
    """Every played arithmetic card answered (as the page sends it: `answer` in the action),
    the 6th answer wrong: the line is the longest run of right answers, from the analysis."""
    engine = get("smooth_operator")
    names = NAMES[:3]
    bots = {p: make_bot("smooth_operator", "player", i) for i, p in enumerate(names)}
    state = engine.new_game(names, {}, 13)
    moves, answered = [], 0
    while not state["finished"] and len(moves) < 200:
        player = engine.waiting_for(state)[0]
        action = bots[player].choose(engine.view(state, player))
        if action["type"] == "play" and action["card"] in so_rules.ARITHMETIC:
            right = so_rules.result(action["card"], state["high"], state["low"])
            answered += 1
            action = {**action, "answer": right + 1 if answered == 6 else right}
        analysis = engine.analyse(state, player, action)
        state, events = engine.apply(state, player, action)
        moves.append(ClassMove(True, action, events, analysis, action.get("answer")))
    assert answered > 12
    assert SO_SKILLS.class_line(moves) == {"line": "sums_run", "count": answered - 6}
