"""Scaling out (docs/deploy.md): two web processes behind one address, the channel layer sharded over
two Redis servers (tests/scaleout/conftest.py starts both, and the processes).

- Two players of one game, on different web processes, play normally: each sees the other's
  moves, pushed from the process that applied the move, through the game's group on whichever
  shard its name hashes to (both shards carry a game here).
- A web process killed with SIGKILL while a move is on its way loses no move: its player's page
  reconnects to the other process and sends the move again, every move sent is stored once,
  and the game goes on.
"""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest
from redis import asyncio as aioredis
from channels_redis.utils import _consistent_hash

from games.models import Game, Move
from games.services import SeatSpec, game_create
from tests.sockets import session_cookie

from .conftest import layer_prefix
from .pages import Page, Table

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "multiplication"


def game_shard(game_id: int, shards: int) -> int:
    """The shard of a game's group, as channels-redis picks it (config/settings/base.py)."""
    return _consistent_hash(f"{layer_prefix()}__group__game.{game_id}", shards)


def two_player_game(classroom, make_student, n: int) -> tuple[Game, list[str], list[str]]:
    """A game of two students of the class: the game, their names, their session cookies."""
    names = [f"Kid {n}a", f"Kid {n}b"]
    students = [make_student(classroom, name) for name in names]
    game = game_create(key=GAME, classroom=classroom, seed=400 + n,
                       seats=[SeatSpec(name, user=s) for name, s in zip(names, students)])
    return game, names, [session_cookie(s).decode() for s in students]


def games_on_every_shard(classroom, make_student, shards: int) -> list[tuple]:
    """Games until their groups cover every shard (one game per shard)."""
    by_shard: dict[int, tuple] = {}
    for n in range(40):
        made = two_player_game(classroom, make_student, n)
        by_shard.setdefault(game_shard(made[0].pk, shards), made)
        if len(by_shard) == shards:
            return [by_shard[s] for s in range(shards)]
    raise AssertionError("40 games and still a shard with none: is the hash the layer's?")


async def subscribers(shard_url: str, game_id: int) -> int:
    """How many connections (one per web process with a page of the game) listen to the
    game's group on this shard."""
    client = aioredis.Redis.from_url(shard_url)
    try:
        channel = f"{layer_prefix()}__group__game.{game_id}"
        return dict(await client.pubsub_numsub(channel))[channel.encode()]
    finally:
        await client.aclose()


async def listened_by(shard_url: str, game_id: int, count: int) -> bool:
    return await subscribers(shard_url, game_id) == count


async def until(condition, timeout: float = 10.0) -> bool:
    """Wait until the coroutine function `condition` says True; False after `timeout`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await condition():
        if loop.time() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


def stored_once(table: Table) -> None:
    """Every move the pages sent is one accepted move in the database, and the game's version
    counts exactly those."""
    moves = list(Move.objects.filter(game_id=table.game_id).values_list("idempotency_key", "accepted"))
    counts = Counter(key for key, _ in moves)
    assert {key: counts[key] for key in table.keys} == {key: 1 for key in table.keys}
    assert all(accepted for _, accepted in moves), "a move was refused"
    assert len(moves) == len(table.keys)
    assert Game.objects.get(pk=table.game_id).version == table.version == len(table.keys)


def test_players_on_two_web_processes_and_two_redis_shards_see_each_others_moves(
        web_processes, redis_shards, classroom, make_student):
    first, second = (p.port for p in web_processes)
    made = games_on_every_shard(classroom, make_student, len(redis_shards))

    async def play() -> list[Table]:
        tables = []
        for n, (game, names, cookies) in enumerate(made):
            # Each game's players on different processes (the second game the other way round).
            ports = [[first], [second]] if n % 2 == 0 else [[second], [first]]
            pages = [Page(game_id=game.pk, cookie=c, ports=p, sync_after=None)
                     for c, p in zip(cookies, ports)]
            tables.append(Table(game=game, pages=pages, names=names))
        for table in tables:
            await table.open()
        for shard, table in enumerate(tables):
            # Both processes listen to the game's group, on the shard its name hashes to and
            # on no other.
            assert await until(lambda: listened_by(redis_shards[shard].url(), table.game_id, 2))
            assert await subscribers(redis_shards[1 - shard].url(), table.game_id) == 0
        # Pushes only (the pages never ask for the table): each move reaches the other
        # player's page on the other process.
        await asyncio.gather(*(table.play(8) for table in tables))
        for table in tables:
            await table.close()
        return tables

    tables = asyncio.run(play())
    for table in tables:
        pages = list(table.pages.values())
        assert {p.connected_to[0] for p in pages} == {first, second}
        assert all(p.version == 8 and p.notices == [] and len(p.connected_to) == 1 for p in pages)
        stored_once(table)


def test_a_web_process_killed_mid_game_loses_no_move(web_processes, classroom, make_student):
    doomed, survivor = web_processes
    game, names, cookies = two_player_game(classroom, make_student, 0)

    async def play() -> Table:
        # The first player's page is on the process that will be killed; the load balancer
        # sends its reconnect to the other one.
        pages = [Page(game_id=game.pk, cookie=cookies[0], ports=[doomed.port, survivor.port], sync_after=1.0),
                 Page(game_id=game.pk, cookie=cookies[1], ports=[survivor.port], sync_after=1.0)]
        table = Table(game=game, pages=pages, names=names)
        await table.open()
        await table.play(3)
        while table.mover() != names[0]:
            await table.play(1)
        # The first player moves, and their web process dies with the move on its way: taken
        # or not, committed or not, pushed or not.
        await table.send_next_move()
        doomed.kill()
        await table.everyone_shows(table.version)
        await table.play(6)
        await table.close()
        return table

    table = asyncio.run(play())
    assert doomed.proc.returncode == -9
    first = table.pages[names[0]]
    assert first.connected_to == [doomed.port, survivor.port] and first.close_codes[0] == 1006
    assert first.notices == [] and table.pages[names[1]].notices == []
    stored_once(table)
    assert table.version >= 10
