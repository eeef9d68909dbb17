"""The projector's live line for the whole class (arena/class_line.py): the arena's own game
says it from the students' recent moves at the arena's tables, played here by the game's bots
through the real move service. The line states a fact counted again here from the recorded
moves; it names nobody; the values it names were face up (in an accepted move); a computer
player's moves and another arena's are not the class's; a game with nothing to say gets the
counts of moves and finished games; and it stays cheap at 500 moves."""

from __future__ import annotations

import dataclasses
import re
import time
from collections import Counter

import pytest
from django.utils import timezone

from arena import class_line
from arena.models import Arena, ArenaGame
from arena.services.lifecycle import arena_create
from games import registry
from games.models import Game, Move
from games.services.moves import SeatSpec, game_apply_move, game_create

pytestmark = pytest.mark.django_db

NAMES = ["Quentin", "Zelda", "Xavier"]
ARENA_GAMES = [spec for spec in registry.all_games() if spec.multiplayer]


@pytest.fixture
def students(make_student, classroom):
    return [make_student(classroom, name, ("cat", "sun", "tree")) for name in NAMES]


def new_arena(teacher, classroom, key: str, options: dict | None = None) -> Arena:
    return arena_create(teacher=teacher, classroom=classroom, title="", key=key, options=options or {},
                        minutes=10, mode=Arena.Mode.POINTS)


def play(arena: Arena, seats: list[SeatSpec], *, seed: int, limit: int = 150) -> Game:
    """One seeded arena table, every seat's decisions chosen by the game's bot from its own
    view and sent through the move service (as a student's page sends them)."""
    spec = registry.spec_for(arena.key)
    game = game_create(key=arena.key, classroom=arena.classroom, seats=seats, seed=seed,
                       options=arena.options or dict(spec.free_play_options), announce=False)
    ArenaGame.objects.create(arena=arena, game=game, round=1, with_bots=any(s.bot_level for s in seats))
    by_name = {s.name: s for s in game.seats.all()}
    bots = {name: spec.make_bot("player", seed + i) for i, name in enumerate(by_name)}
    for _ in range(limit):
        game.refresh_from_db()
        waiting = spec.engine.waiting_for(game.state)
        if game.state.get("finished") or not waiting:
            break
        player = waiting[0]
        action = bots[player].choose(spec.engine.view(game.state, player))
        result = game_apply_move(game_id=game.pk, seat=by_name[player], action=action,
                                 expected_version=game.version, schedule_bots=False)
        assert result.status == "applied", result
    return game


def students_at(table_size: int, students) -> list[SeatSpec]:
    return [SeatSpec(s.display_name, user=s) for s in students[:table_size]]


def class_moves(arena: Arena) -> list[Move]:
    return list(Move.objects.filter(game__arena_table__arena=arena, accepted=True, seat__bot_level="")
                .order_by("id"))


def face_up_numbers(moves: list[Move]) -> set[int]:
    """Every whole number in the accepted moves' actions and events (what was played or
    turned over for the table to see)."""
    found: set[int] = set()

    def walk(value):
        if isinstance(value, bool):
            return
        if isinstance(value, int):
            found.add(value)
        elif isinstance(value, str):
            found.update(int(n) for n in re.findall(r"\d+", value))
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
    for move in moves:
        walk(move.action)
        walk(move.events)
    return found


# What each game's line says, checked against the recorded moves: (a regular expression of the
# line, a check of its groups against the students' accepted moves, the card values it names).
def check_multiplication(groups, moves):
    said = Counter(tuple(sorted(m.action["declare"])) for m in moves
                   if m.action["type"] == "discard" and m.analysis["fact"]["needed"])
    if groups[0] is None:  # no fact named 3 times yet: how many were named right
        right, tries = int(groups[3]), int(groups[4])
        assert right == tries == sum(said.values()) and max(said.values()) < 3
        return []
    a, b, n = (int(g) for g in groups[:3])
    assert said[(a, b)] == n == max(said.values())  # bots name every fact right: a run is all
    return [a, b, a * b]


def check_numero(groups, moves):
    value, count = (int(g) for g in groups)
    takes = Counter(e["value"] for m in moves for e in m.events if e["type"] == "take")
    assert takes[value] == count == max(takes.values())
    return [value]


def check_smooth_operator(groups, moves):
    symbol, count = groups
    card = {"+": "+", "−": "-", "×": "x", "÷": "/"}[symbol]
    played = Counter(e["card"] for m in moves for e in m.events if e["type"] == "play")
    assert played[card] == int(count) == max(played.values())
    return []


def check_add_or_multiply(groups, moves):
    a, sign, b, points = groups
    results = [f for m in moves for e in m.events if e["type"] == "round_resolved"
               for f in e["results"].values()]
    assert int(points) == max(f["points"] for f in results)
    assert any(sorted(f["on_me"]) == sorted([int(a), int(b)]) and f["points"] == int(points)
               and {"+": "+", "x": "×"}[f["operation"]] == sign for f in results)
    return [int(a), int(b)]


LINES = {
    "multiplication": (r"(?:(\d+) × (\d+) named right (\d+) times in a row"
                       r"|Times-table facts: (\d+) of the last (\d+) named right)\.", check_multiplication),
    "numero": (r"Most taken card: (\d+) \((\d+) takes?\)\.", check_numero),
    "smooth_operator": (r"Most played operator card: (.) \((\d+) times?\)\.", check_smooth_operator),
    "add_or_multiply": (r"Best round: (\d+) ([+×]) (\d+) = (\d+) points\.", check_add_or_multiply),
}


def check_moves_and_games(groups, moves):
    """A game without a line of its own: the class's accepted moves, and its finished games
    (of the two tables played)."""
    assert int(groups[0]) == len(moves) and 0 <= int(groups[1]) <= 2
    return []


# The generic line, said for a game whose skills give no `class_line` of their own.
MOVES_AND_GAMES = (r"The class has made (\d+) moves?\. (\d+) games? finished\.", check_moves_and_games)


def own_line(spec) -> bool:
    return spec.skills is not None and spec.skills.class_line is not None


def test_every_arena_game_with_a_line_of_its_own_has_it_checked_here():
    assert {spec.key for spec in ARENA_GAMES if own_line(spec)} <= set(LINES)


@pytest.mark.parametrize("spec", ARENA_GAMES, ids=lambda s: s.key)
def test_the_line_states_a_true_fact_of_the_class_s_moves(spec, teacher, classroom, students):
    arena = new_arena(teacher, classroom, spec.key)
    for seed in (11, 12):
        play(arena, students_at(arena.table_size, students), seed=seed)
    line = str(class_line.for_arena(arena=arena))
    print(spec.key, line)
    pattern, check = LINES[spec.key] if own_line(spec) else MOVES_AND_GAMES
    match = re.fullmatch(pattern, line)
    assert match, f"{spec.key}: {line!r} is not the game's own line"
    moves = class_moves(arena)
    named_values = check(match.groups(), moves)
    assert set(named_values) <= face_up_numbers(moves)
    assert not [name for name in NAMES if name.lower() in line.lower()]


def test_a_fact_named_right_again_and_again_across_tables(teacher, classroom, students):
    """An arena whose options deal the 7 times table thrice: a fact comes back across the
    class's tables, and the line counts its run over all of them."""
    arena = new_arena(teacher, classroom, registry.spec_for("multiplication").key, {"focus_tables": [7]})
    for seed in (61, 62, 63):
        play(arena, students_at(2, students), seed=seed)
    line = str(class_line.for_arena(arena=arena))
    match = re.fullmatch(r"(\d+) × (\d+) named right (\d+) times in a row\.", line)
    assert match, line
    check_multiplication(match.groups() + (None, None), class_moves(arena))
    assert 7 in (int(match[1]), int(match[2]))


def test_a_refused_attempt_shows_neither_its_card_nor_its_fact(teacher, classroom, students):
    """A false declaration is refused and its card stays in the hand: the arena hands the
    game no action for it, and the line never names a fact that was never put down."""
    arena = new_arena(teacher, classroom, registry.spec_for("multiplication").key)
    game = play(arena, students_at(2, students), seed=21, limit=6)
    game.refresh_from_db()
    player = registry.spec_for(arena.key).engine.waiting_for(game.state)[0]
    seat = game.seats.get(name=player)
    card = next(c for c in game.state["hands"][player] if isinstance(c, int))
    wrong = {"type": "discard", "card": card, "declare": [1, card + 1]}  # 1 × (card + 1) is not card
    for _ in range(4):
        game.refresh_from_db()
        result = game_apply_move(game_id=game.pk, seat=seat, action=wrong,
                                 expected_version=game.version, schedule_bots=False)
        assert result.status == "rejected" and result.code == "bad_declaration"
    recent = class_line.recent_moves(arena=arena)
    refused = [m for m in recent if not m.accepted]
    assert len(refused) == 4 and all(m.action is None and not m.events for m in refused)
    line = str(class_line.for_arena(arena=arena))
    put_down = [tuple(sorted(m.action["declare"])) for m in class_moves(arena) if m.action["type"] == "discard"]
    fact = re.fullmatch(r"(\d+) × (\d+) named right \d+ times in a row\.", line)
    if fact:  # only a fact put down face up is named
        assert (int(fact[1]), int(fact[2])) in put_down
    else:  # the four wrong attempts are counted, naming nothing
        counts = re.fullmatch(r"Times-table facts: (\d+) of the last (\d+) named right\.", line)
        assert counts, line
        assert (int(counts[1]), int(counts[2])) == (len(put_down), len(put_down) + 4)


def test_computer_players_and_other_arenas_are_not_the_class(teacher, classroom, students):
    key = registry.spec_for("multiplication").key
    arena, other = new_arena(teacher, classroom, key), new_arena(teacher, classroom, key)
    play(arena, [SeatSpec("Robo", bot_level="player"), SeatSpec("Tin", bot_level="player")], seed=31, limit=30)
    play(other, students_at(2, students), seed=32, limit=30)
    assert Move.objects.filter(game__arena_table__arena=arena).exists()
    assert class_line.recent_moves(arena=arena) == []
    assert str(class_line.for_arena(arena=arena)) == "The first moves are coming…"

    play(arena, [SeatSpec("Robo", bot_level="player"), *students_at(1, students)], seed=33, limit=40)
    mine = Move.objects.filter(game__arena_table__arena=arena, seat__bot_level="").count()
    assert 0 < len(class_line.recent_moves(arena=arena)) == mine < 40


def test_a_game_without_a_line_gets_the_counts(teacher, classroom, students, monkeypatch):
    spec = registry.spec_for("numero")
    silent = dataclasses.replace(spec, skills=dataclasses.replace(spec.skills, class_line=None))
    monkeypatch.setattr(registry, "GAMES", [silent if g is spec else g for g in registry.GAMES])
    arena = new_arena(teacher, classroom, spec.key)
    play(arena, students_at(2, students), seed=41, limit=9)
    finished = play(arena, students_at(2, students), seed=42, limit=8)
    ArenaGame.objects.filter(game=finished).update(counted_at=timezone.now())
    assert str(class_line.for_arena(arena=arena)) == "The class has made 17 moves. 1 game finished."


def test_the_line_is_cheap_at_500_moves(teacher, classroom, students):
    """It runs every pairing round for every live arena: 500 recent moves of the heaviest
    analyses (real moves of each game, copied) in well under the round's two seconds."""
    timings = {}
    for spec in ARENA_GAMES:
        arena = new_arena(teacher, classroom, spec.key)
        game = play(arena, students_at(arena.table_size, students), seed=51, limit=60)
        real = list(Move.objects.filter(game=game))
        last = max(m.sequence for m in real)
        clones = []
        for i in range(600):
            m = real[i % len(real)]
            clones.append(Move(game=game, seat_id=m.seat_id, sequence=last + 1 + i, version_before=m.version_before,
                               action=m.action, accepted=m.accepted, error_code=m.error_code, events=m.events,
                               analysis=m.analysis, answer=m.answer))
        Move.objects.bulk_create(clones)
        started = time.perf_counter()
        line = class_line.for_arena(arena=arena)
        timings[spec.key] = time.perf_counter() - started
        assert line and len(class_line.recent_moves(arena=arena)) == class_line.RECENT
    print("class line, 500 moves:", {k: f"{v * 1000:.0f} ms" for k, v in timings.items()})
    assert max(timings.values()) < 1.0
