"""Who sits with whom in one pairing round of a class arena. Pure Python: no Django.

The approach follows Lichess's arena pairing (AntmaPairing in lila's
modules/tournament/src/main/arena/AntmaPairing.scala): every table gets a cost, the rating gap
between its players plus penalties for rematches, and the round seats the waiting students so
that as many as possible play and the total cost is the least.

- Two-player tables: a weighted matching (networkx.max_weight_matching with maxcardinality=True,
  the blossom algorithm). Edge weight = _WEIGHT_BASE - table cost, so the matching seats as
  many pairs as it can, then picks the cheapest way to do it. That algorithm is O(n^3) in pure
  Python, far too slow on a complete graph of a whole school (600 students). As Lichess does,
  students are sorted by rating and only near neighbours in rating order are considered: small
  arenas (at most FULL_GRAPH_MAX players) use the complete graph, so the result is optimal;
  larger ones cut the rating order into chunks of CHUNK players, each matched on its complete
  graph, a player a chunk cannot seat being handed on to the next chunk. A chunk whose rating
  neighbours pair off without a rematch skips the matching: pairing neighbours is optimal.
- Three- or four-player tables: sort by rating, cut into consecutive groups, then swap players
  between neighbouring groups (and with the players left over) while that lowers the total
  cost. table_cost is the same rule generalised: rating spread plus the penalties of every pair.

Same input, same output: players are ordered by (rating, player_id) before anything else, and
nothing is random.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from heapq import heapify, heappop, heappush
from itertools import combinations

import networkx as nx

__all__ = [
    "CHUNK",
    "FULL_GRAPH_MAX",
    "LAST_TABLE_PENALTY",
    "REPEAT_PENALTY",
    "SWAP_REACH",
    "Pairing",
    "Waiting",
    "pair",
    "table_cost",
]

# Ratings are Elo-like, 400..2000, so one table's rating gap is at most 1600. A repeat must cost
# more than the rating gaps it could save: 100_000 exceeds the total gap of any seating of up to
# 124 students (62 tables x 1600), so, among the players matched together, a seating with fewer
# repeats always wins, however much wider its gaps ("no repeat while another choice exists").
REPEAT_PENALTY = 100_000.0
# Seating the same two students together twice in a row is worse than an older rematch, but
# only a tie-breaker among repeats: it is added on top of REPEAT_PENALTY (a last-table pair has
# met, too). 2_000 is more than one table's widest gap, so a rematch of the last game gives way
# to an older rematch at a wider table; it is far lighter than REPEAT_PENALTY, so it never costs
# an extra repeat.
LAST_TABLE_PENALTY = 2_000.0
# Up to this many players, two-player tables use the complete graph: optimal (at most ~45 ms
# of CPU on the 2-core test machine). A larger arena is cut, in rating order, into chunks of
# CHUNK players, each matched on its complete graph: every student still has CHUNK - 1 nearest
# rivals to choose from, so a rematch is avoided unless all of them were met before. Chunks of
# 40 would cost ~450 ms for 600 students, chunks of 16 ~90 ms at worst (every chunk needing the
# matching), and a chunk without rematches among rating neighbours needs no matching at all.
FULL_GRAPH_MAX = 40
CHUNK = 16
# Three- or four-player tables swap players between groups at most this far apart in rating
# order. 1 (neighbours) undoes last round's tables for 600 students in ~90 ms, leaving 2 rematch
# pairs of 900; reach 2 costs ~330 ms and reach 3 ~1.8 s for hardly fewer.
SWAP_REACH = 1
# Larger than any table cost (gap <= 1600 plus both penalties), so every edge weight is
# positive and maximising weight minimises cost.
_WEIGHT_BASE = 1_000_000.0


@dataclass(frozen=True)
class Waiting:
    player_id: int
    rating: float
    met: frozenset[int] = frozenset()  # player ids met before in this arena (any earlier game)
    last_met: frozenset[int] = frozenset()  # player ids at the player's last table in this arena


@dataclass(frozen=True)
class Pairing:
    tables: tuple[tuple[int, ...], ...]  # groups of player ids to seat together, each of table_size
    left_over: tuple[int, ...]  # players not seated this round


def _pair_cost(a: Waiting, b: Waiting) -> float:
    """Penalties of seating a and b together. Either side's record counts (the histories
    should agree, but a missing entry on one side must not let a rematch through), and a
    last-table pair has met."""
    last = b.player_id in a.last_met or a.player_id in b.last_met
    met = last or b.player_id in a.met or a.player_id in b.met
    return (REPEAT_PENALTY if met else 0.0) + (LAST_TABLE_PENALTY if last else 0.0)


def table_cost(group: Sequence[Waiting]) -> float:
    """Rating spread of the table (max - min) plus the penalties of every pair in it."""
    if len(group) < 2:
        return 0.0
    ratings = [w.rating for w in group]
    return max(ratings) - min(ratings) + sum(_pair_cost(a, b) for a, b in combinations(group, 2))


def _order(players: Sequence[Waiting]) -> list[Waiting]:
    return sorted(players, key=lambda w: (w.rating, w.player_id))


def _match(players: list[Waiting]) -> tuple[list[tuple[Waiting, Waiting]], list[Waiting]]:
    """Optimal two-player tables on the complete graph of `players` (in rating order): the most
    tables, then the least total cost. Returns (tables, unmatched)."""
    graph = nx.Graph()
    graph.add_nodes_from(range(len(players)))  # indices, so insertion order fixes the outcome
    for i, j in combinations(range(len(players)), 2):
        graph.add_edge(i, j, weight=_WEIGHT_BASE - table_cost((players[i], players[j])))
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted(tuple(sorted(edge)) for edge in matched)
    seated = {i for edge in pairs for i in edge}
    unmatched = [p for i, p in enumerate(players) if i not in seated]
    return [(players[i], players[j]) for i, j in pairs], unmatched


def _consecutive(players: list[Waiting]) -> list[tuple[Waiting, Waiting]] | None:
    """Neighbours in rating order paired off, (0, 1), (2, 3), ..., if that pays no penalty: then
    it is optimal (on a line, pairing neighbours gives the least total gap) and the matching,
    the slow part, is not needed. None if the count is odd or a pair would be a rematch."""
    if len(players) % 2:
        return None
    pairs = list(zip(players[0::2], players[1::2]))
    return None if any(_pair_cost(a, b) for a, b in pairs) else pairs


def _pair_two(players: list[Waiting]) -> tuple[list[tuple[Waiting, ...]], list[Waiting]]:
    size = FULL_GRAPH_MAX if len(players) <= FULL_GRAPH_MAX else CHUNK
    tables: list[tuple[Waiting, ...]] = []
    carry: list[Waiting] = []  # the player a chunk could not seat tries again in the next chunk
    for start in range(0, len(players), size):
        chunk = carry + players[start : start + size]
        easy = _consecutive(chunk)
        found, carry = (easy, []) if easy is not None else _match(chunk)
        tables.extend(found)
    return tables, carry


def _improve(groups: list[list[Waiting]], spare: list[Waiting]) -> None:
    """Local search in place. The groups and, after the top group, the spare (left-over)
    players form a chain in rating order; swap one player between two groups at most
    SWAP_REACH apart in that chain while a swap lowers the total cost (the spare players cost
    nothing: they are not seated). Only the neighbourhood of a changed group is looked at
    again, which keeps 600 players fast. Each swap strictly lowers the cost, so this ends; the
    work list is taken in a fixed order, so it is deterministic."""
    chain = [*groups, spare]
    top = len(chain) - 1  # the spare players' place in the chain
    # table_cost, made fast for the thousands of swaps tried: each penalised pair priced once.
    by_id = {w.player_id: w for group in chain for w in group}
    penalty: dict[tuple[int, int], float] = {}
    for w in by_id.values():
        for other in (w.met | w.last_met) & by_id.keys():
            penalty[w.player_id, other] = penalty[other, w.player_id] = _pair_cost(w, by_id[other])

    def cost(k: int) -> float:
        if k == top:
            return 0.0
        group = chain[k]
        ratings = [w.rating for w in group]
        pairs = combinations([w.player_id for w in group], 2)
        return max(ratings) - min(ratings) + sum(penalty.get(pair, 0.0) for pair in pairs)

    todo = [(g, h) for g in range(top) for h in range(g + 1, min(top, g + SWAP_REACH) + 1)]
    queued = set(todo)
    heapify(todo)
    while todo:
        g, h = heappop(todo)
        queued.discard((g, h))
        if not _best_swap(chain[g], chain[h], lambda g=g, h=h: cost(g) + cost(h)):
            continue
        for k in (g, h):
            for other in range(max(0, k - SWAP_REACH), min(top, k + SWAP_REACH) + 1):
                task = (min(k, other), max(k, other))
                if other != k and task not in queued:
                    queued.add(task)
                    heappush(todo, task)


def _best_swap(first: list[Waiting], second: list[Waiting], cost: Callable[[], float]) -> bool:
    """Make the swap of one player of `first` with one of `second` that lowers `cost` (the two
    lists' cost, read after the lists change) most; False if none does."""
    before = cost()
    best: tuple[float, int, int] | None = None
    for i in range(len(first)):
        for j in range(len(second)):
            first[i], second[j] = second[j], first[i]
            gain = before - cost()
            first[i], second[j] = second[j], first[i]
            if gain > 1e-9 and (best is None or gain > best[0]):
                best = (gain, i, j)
    if best is None:
        return False
    _, i, j = best
    first[i], second[j] = second[j], first[i]
    return True


def _pair_groups(
    players: list[Waiting], table_size: int
) -> tuple[list[tuple[Waiting, ...]], list[Waiting]]:
    seated = len(players) - len(players) % table_size
    groups = [players[s : s + table_size] for s in range(0, seated, table_size)]
    spare = players[seated:]
    _improve(groups, spare)
    return [tuple(g) for g in groups], spare


def pair(waiting: Sequence[Waiting], *, table_size: int = 2) -> Pairing:
    """Seat the waiting players at tables of `table_size` (2, 3 or 4). As many players as
    possible are seated; fewer than table_size may be left over for the next round."""
    if table_size < 2:
        raise ValueError(f"table_size must be at least 2, not {table_size}")
    ids = [w.player_id for w in waiting]
    if len(set(ids)) != len(ids):
        raise ValueError("a player is waiting twice")
    players = _order(waiting)
    if table_size == 2:
        tables, spare = _pair_two(players)
    else:
        tables, spare = _pair_groups(players, table_size)
    # Report in rating order: each table from its lowest-rated player, tables by that player.
    ordered = sorted((_order(t) for t in tables), key=lambda t: (t[0].rating, t[0].player_id))
    return Pairing(
        tables=tuple(tuple(w.player_id for w in t) for t in ordered),
        left_over=tuple(w.player_id for w in _order(spare)),
    )
