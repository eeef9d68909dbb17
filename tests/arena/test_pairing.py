"""Arena pairing as a teacher sees it: everybody seated once, close ratings, no rematches while
another choice exists, and a whole school paired quickly."""

import random
import time
from functools import cache
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.pairing import LAST_TABLE_PENALTY, REPEAT_PENALTY, Pairing, Waiting, pair, table_cost


def waiting(ratings: list[float], met=(), last=()) -> list[Waiting]:
    """Players 0..n-1 with these ratings; met and last are (a, b) pairs, recorded on both sides."""
    met_by = {i: set() for i in range(len(ratings))}
    last_by = {i: set() for i in range(len(ratings))}
    for a, b in met:
        met_by[a].add(b)
        met_by[b].add(a)
    for a, b in last:
        last_by[a].add(b)
        last_by[b].add(a)
        met_by[a].add(b)
        met_by[b].add(a)
    return [
        Waiting(i, r, frozenset(met_by[i]), frozenset(last_by[i])) for i, r in enumerate(ratings)
    ]


def total_cost(players: list[Waiting], result: Pairing) -> float:
    by_id = {w.player_id: w for w in players}
    return sum(table_cost([by_id[i] for i in table]) for table in result.tables)


def repeats(players: list[Waiting], result: Pairing) -> int:
    """Pairs seated together who met before."""
    by_id = {w.player_id: w for w in players}
    return sum(b in by_id[a].met for table in result.tables for a, b in combinations(table, 2))


def brute_force(players: list[Waiting]) -> tuple[float, int]:
    """(least total cost, fewest repeats) over every way of seating as many pairs as possible."""
    n = len(players)
    cost = {(i, j): table_cost([players[i], players[j]]) for i, j in combinations(range(n), 2)}
    met = {(i, j): players[j].player_id in players[i].met for i, j in combinations(range(n), 2)}

    @cache
    def best(free: frozenset[int], skips: int) -> tuple[float, int]:
        if not free:
            return (0.0, 0)
        first = min(free)
        rest = free - {first}
        options = []
        if skips:  # an odd count: somebody sits out
            options.append(best(rest, skips - 1))
        for other in rest:
            sub_cost, sub_repeats = best(rest - {other}, skips)
            options.append((sub_cost + cost[first, other], sub_repeats + met[first, other]))
        return (min(c for c, _ in options), min(r for _, r in options))

    return best(frozenset(range(n)), n % 2)


ratings = st.floats(min_value=400, max_value=2000, allow_nan=False)


@st.composite
def arenas(draw, max_size: int = 80) -> list[Waiting]:
    """Random ratings (ties included) and random earlier games, some of them the last."""
    values = draw(st.lists(st.sampled_from([800.0, 1200.0]) | ratings, max_size=max_size))
    pairs = list(combinations(range(len(values)), 2))
    met = draw(st.lists(st.sampled_from(pairs), max_size=3 * len(values))) if pairs else []
    last = draw(st.lists(st.sampled_from(met), max_size=len(values) // 2)) if met else []
    return waiting(values, met, last)


@settings(max_examples=80, deadline=None)
@given(players=arenas(), table_size=st.integers(2, 4))
def test_everybody_is_seated_once_or_left_over(players, table_size):
    result = pair(players, table_size=table_size)
    seated = [i for table in result.tables for i in table]
    assert all(len(table) == table_size for table in result.tables)
    assert sorted(seated + list(result.left_over)) == sorted(w.player_id for w in players)
    assert len(seated) == len(set(seated))
    assert len(result.left_over) == len(players) % table_size  # as many tables as possible


@settings(max_examples=150, deadline=None)
@given(players=arenas(max_size=11))
def test_small_arenas_get_the_best_pairing(players):
    """Fewest repeats, then the smallest rating gaps: the same as trying every pairing."""
    result = pair(players)
    least_cost, fewest_repeats = brute_force(players)
    assert repeats(players, result) == fewest_repeats
    assert abs(total_cost(players, result) - least_cost) < 1e-6


def test_players_who_met_are_not_paired_while_another_choice_exists():
    # Ann (0) and Ben (1) are the closest in rating but played each other before.
    players = waiting([1000, 1010, 1500, 1510], met=[(0, 1)])
    result = pair(players)
    assert len(result.tables) == 2 and (0, 1) not in result.tables


def test_a_repeat_is_accepted_when_there_is_no_other_choice():
    players = waiting([1000, 1010], met=[(0, 1)])
    assert pair(players) == Pairing(tables=((0, 1),), left_over=())


def test_the_repeat_penalty_outweighs_any_rating_gap():
    assert REPEAT_PENALTY > 2000 - 400
    # Rather two 1590-point gaps than rematches of the two close pairs.
    players = waiting([400, 1990, 2000, 410], met=[(0, 3), (1, 2)])
    result = pair(players)
    assert len(result.tables) == 2 and repeats(players, result) == 0


def test_the_last_table_is_avoided_among_repeats():
    # All four met before, so a repeat is certain; Ann and Ben just played each other.
    everyone = list(combinations(range(4), 2))
    before = waiting([1000, 1010, 1020, 1030], met=everyone)
    assert pair(before).tables == ((0, 1), (2, 3))  # closest ratings win while no last table
    just_played = waiting([1000, 1010, 1020, 1030], met=everyone, last=[(0, 1)])
    tables = pair(just_played).tables
    assert (0, 1) not in tables and len(tables) == 2


def test_the_last_table_decides_who_sits_out_among_three():
    everyone = list(combinations(range(3), 2))
    assert pair(waiting([1000, 1010, 1030], met=everyone)) == Pairing(((0, 1),), (2,))
    just_played = waiting([1000, 1010, 1030], met=everyone, last=[(0, 1)])
    assert pair(just_played) == Pairing(((1, 2),), (0,))
    assert 0 < LAST_TABLE_PENALTY < REPEAT_PENALTY


def test_last_rounds_table_of_three_is_not_seated_again():
    # Last round: (0, 1, 2) and (3, 4, 5). Cutting by rating alone would repeat both tables.
    last = [(0, 1), (0, 2), (1, 2), (3, 4), (3, 5), (4, 5)]
    players = waiting([1000, 1010, 1020, 1030, 1040, 1050], last=last)
    result = pair(players, table_size=3)
    assert len(result.tables) == 2 and result.left_over == ()
    # Three seats, two old tables: one old pair per table is unavoidable, but not three.
    assert repeats(players, result) == 2


def test_players_who_met_sit_at_different_tables_of_four():
    players = waiting([1000, 1010, 1020, 1030, 1040, 1050, 1060, 1070], met=[(0, 1)])
    result = pair(players, table_size=4)
    assert repeats(players, result) == 0
    assert len(result.tables) == 2


def test_tables_of_three_and_four_follow_rating_order_without_history():
    values = [1000.0 + 10 * i for i in range(11)]
    random.Random(3).shuffle(values)
    players = waiting(values)
    by_rating = sorted(range(11), key=lambda i: values[i])
    three = pair(players, table_size=3)
    assert three.tables == (tuple(by_rating[0:3]), tuple(by_rating[3:6]), tuple(by_rating[6:9]))
    assert three.left_over == tuple(by_rating[9:])
    four = pair(players, table_size=4)
    assert four.tables == (tuple(by_rating[0:4]), tuple(by_rating[4:8]))
    assert four.left_over == tuple(by_rating[8:])


@settings(max_examples=80, deadline=None)
@given(values=st.lists(ratings, max_size=60), table_size=st.integers(3, 4))
def test_without_history_each_table_is_a_run_of_neighbours_in_rating(values, table_size):
    players = waiting(values)
    result = pair(players, table_size=table_size)
    rating = {w.player_id: (w.rating, w.player_id) for w in players}
    seated = sorted((i for table in result.tables for i in table), key=rating.get)
    runs = [tuple(seated[s : s + table_size]) for s in range(0, len(seated), table_size)]
    assert result.tables == tuple(runs)


def test_a_far_outlier_waits_rather_than_stretching_a_table():
    players = waiting([1000, 1900, 1910, 1920])
    assert pair(players, table_size=3) == Pairing(tables=((1, 2, 3),), left_over=(0,))


def test_an_odd_player_is_left_over():
    players = waiting([1000, 1010, 1020, 1030, 1500])
    assert pair(players) == Pairing(tables=((0, 1), (2, 3)), left_over=(4,))
    assert pair(waiting([1200])) == Pairing(tables=(), left_over=(0,))
    assert pair([]) == Pairing(tables=(), left_over=())


def test_the_same_players_in_any_order_get_the_same_pairing():
    # Equal ratings on purpose: the tie is broken by player id, not by arrival order.
    values = [1200.0, 1200.0, 1200.0, 1300.0, 1300.0, 900.0, 1200.0, 1500.0, 1300.0]
    players = waiting(values, met=[(0, 1), (3, 4)], last=[(2, 6)])
    for table_size in (2, 3, 4):
        first = pair(players, table_size=table_size)
        for seed in range(5):
            shuffled = players[:]
            random.Random(seed).shuffle(shuffled)
            assert pair(shuffled, table_size=table_size) == first


def school(n: int, table_size: int) -> list[Waiting]:
    """n players whose last round sat them at consecutive tables in rating order (so rating
    order alone would repeat every table), plus some older random games."""
    rng = random.Random(600)
    values = sorted(rng.uniform(400, 2000) for _ in range(n))
    last = [
        (a, b)
        for start in range(0, n, table_size)
        for a, b in combinations(range(start, min(n, start + table_size)), 2)
    ]
    older = [tuple(rng.sample(range(n), 2)) for _ in range(3 * n)]
    return waiting(values, met=older, last=last)


def test_a_whole_school_is_paired_quickly_without_last_rounds_pairs():
    players = school(600, 2)
    start = time.process_time()
    result = pair(players)
    seconds = time.process_time() - start
    print(f"600 players, tables of 2: {seconds * 1000:.0f} ms CPU")
    assert len(result.tables) == 300
    assert repeats(players, result) == 0
    assert seconds < 1.0  # generous against a busy machine; about 0.1 s on the 2-core box


def test_a_whole_school_is_seated_quickly_at_tables_of_three_and_four():
    for table_size in (3, 4):
        players = school(600, table_size)
        start = time.process_time()
        result = pair(players, table_size=table_size)
        seconds = time.process_time() - start
        print(
            f"600 players, tables of {table_size}: {seconds * 1000:.0f} ms CPU, "
            f"{repeats(players, result)} pairs met before"
        )
        assert len(result.tables) == 600 // table_size
        assert seconds < 1.0
