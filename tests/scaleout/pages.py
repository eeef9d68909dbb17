"""Children's game pages over real sockets, as static/js/live.js and htmx's ws extension behave:

- a page connects to whichever web process takes the connection (a load balancer's choice:
  `ports` in order, the first that accepts), and after a dropped connection (1006) connects
  again, to any process that accepts, saying which version it shows (`?v=`);
- it keeps the move it sent until a newer table or a notice answers it, and sends it again
  after every reconnect (the move's idempotency key makes the server count it once);
- while it waits (its move unanswered, or the other player's turn) and has heard nothing for
  `sync_after` seconds, it asks for the table as it is now (`{"sync": version}`); live.js waits
  5 s, and a test that must see the push itself arrive passes None (never ask).

`Table` plays one two-player game through two such pages with a replica of the game (the pure
engine, from the dealt state) and a beginner bot choosing each move on the mover's own view,
so every move is legal without reading the database.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets

from games import registry

from .wire import ABNORMAL, Refused, WireSocket

VERSION = re.compile(r'data-version="(\d+)"')
NOTICE = re.compile(r'<p class="alert alert-error">(.*?)</p>', re.S)
RECONNECT_PAUSE = 0.05  # the ws extension waits a random share of a second: a test need not


class Page:
    def __init__(self, *, game_id: int, cookie: str, ports: list[int], sync_after: float | None):
        self.game_id, self.cookie, self.ports, self.sync_after = game_id, cookie, ports, sync_after
        self.version = -1  # what the board shows
        self.pending: tuple[str, int] | None = None  # the move sent and not yet answered
        self.notices: list[str] = []
        self.connected_to: list[int] = []  # the port of each connection, in order
        self.close_codes: list[int] = []
        self.socket: WireSocket | None = None
        self.changed = asyncio.Event()
        self.closing = False
        self.task: asyncio.Task | None = None

    async def open(self) -> None:
        self.socket = await self._connect()
        self.task = asyncio.create_task(self._read())

    async def _connect(self) -> WireSocket:
        path = f"/ws/game/{self.game_id}/" + (f"?v={self.version}" if self.version >= 0 else "")
        failures = []
        for port in self.ports:
            try:
                socket = await WireSocket.open(port=port, path=path, cookie=self.cookie)
            except (OSError, Refused, asyncio.TimeoutError) as exc:
                failures.append(f"{port}: {exc!r}")
                continue
            self.connected_to.append(port)
            return socket
        raise ConnectionError("no web process took the connection: " + "; ".join(failures))

    async def _read(self) -> None:
        while True:
            text = await self.socket.receive_text()
            if text is not None:
                self._heard(text)
                continue
            self.close_codes.append(self.socket.close_code)
            if self.closing or self.socket.close_code != ABNORMAL:
                self.changed.set()
                return  # closed by us, or by the server on purpose: not a dropped connection
            await asyncio.sleep(RECONNECT_PAUSE)
            self.socket = await self._connect()
            if self.pending is not None:  # live.js: after every reconnect
                await self.socket.send_text(self.pending[0])

    def _heard(self, text: str) -> None:
        match = VERSION.search(text)
        if match:
            self.version = max(self.version, int(match.group(1)))
        notice = NOTICE.search(text)
        if notice:
            self.notices.append(" ".join(notice.group(1).split()))
        if self.pending is not None and (notice or self.version > self.pending[1]):
            self.pending = None
        self.changed.set()

    async def send_move(self, text: str, expected_version: int) -> None:
        self.pending = (text, expected_version)
        await self.socket.send_text(text)

    async def shows(self, version: int, timeout: float) -> bool:
        """Wait until the board shows `version` (asking for the table after each silence of
        `sync_after` s, when set); False when it did not within `timeout`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.version < version and loop.time() < deadline:
            if self.task.done():
                self.task.result()  # a reconnect that failed raises here
                return False
            self.changed.clear()
            wait = deadline - loop.time()
            if self.sync_after is not None:
                wait = min(wait, self.sync_after)
            try:
                await asyncio.wait_for(self.changed.wait(), timeout=max(0.01, wait))
            except asyncio.TimeoutError:
                if self.sync_after is not None and self.version < version:
                    await self.socket.send_text(json.dumps({"sync": max(self.version, 0)}))
        return self.version >= version

    async def close(self) -> None:
        self.closing = True
        if self.socket is not None:
            await self.socket.close()
        if self.task is not None:
            self.task.cancel()


class Table:
    """One two-player game played through two pages, one per player."""

    def __init__(self, *, game, pages: list[Page], names: list[str], timeout: float = 15.0):
        self.game_id = game.pk
        spec = registry.spec_for(game.key)
        self.engine = spec.engine
        self.state = game.state
        self.pages = dict(zip(names, pages))
        self.names = names
        self.bots = {name: spec.make_bot("beginner", seed=game.seed * 2 + i) for i, name in enumerate(names)}
        self.version = game.version
        self.keys: list[str] = []  # the idempotency key of every move sent
        self.timeout = timeout

    def mover(self) -> str:
        return self.engine.waiting_for(self.state)[0]

    async def open(self) -> None:
        for page in self.pages.values():
            await page.open()
        await self.everyone_shows(self.version)

    async def everyone_shows(self, version: int) -> None:
        for name, page in self.pages.items():
            assert await page.shows(version, self.timeout), (
                f"{name}'s page (on port {page.connected_to[-1]}) never showed version {version} "
                f"of game {self.game_id}: it shows {page.version}, notices {page.notices}")

    async def send_next_move(self) -> str:
        """The mover's page sends a legal move; returns the mover's name. Not waited for."""
        name = self.mover()
        action = self.bots[name].choose(self.engine.view(self.state, name))
        key = f"scaleout-{secrets.token_hex(8)}"
        self.keys.append(key)
        text = json.dumps({"action": json.dumps(action), "expected_version": str(self.version),
                           "idempotency_key": key,
                           "HEADERS": {"HX-Request": "true", "HX-Current-URL": f"/play/{self.game_id}/"}})
        await self.pages[name].send_move(text, self.version)
        self.state, _ = self.engine.apply(self.state, name, action)
        self.version += 1
        return name

    async def play(self, moves: int) -> None:
        """`moves` moves, each seen by both players' pages before the next is made."""
        for _ in range(moves):
            if self.state.get("finished"):
                return
            await self.send_next_move()
            await self.everyone_shows(self.version)

    async def close(self) -> None:
        for page in self.pages.values():
            await page.close()
