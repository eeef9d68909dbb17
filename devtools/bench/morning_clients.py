"""The morning bench's simulated people: children (assignment or arena), teachers, and what
they measured. Each does what its pages do, over HTTP (morning_http.py) and the pages' own
sockets (wsclient.py), and reads only what the server sends it.

How a child finds a legal move: from the move forms in its own table's HTML, as the child's
page shows them (the table page, then each push's board part): a form with `ws-send` whose
hidden `action` holds a whole move. The child sends one of them, chosen at random, exactly as
htmx's ws extension sends a form (its fields as JSON, with HEADERS). ws_latency.py instead keeps
a replica of each game with the pure engine from the seed the bench chose; here the server
deals the games (a child presses "Start the game"), so the bench does not know the seed, and
reading the state from the database would not be a black box. Boards whose moves are composed
in the page (data-compose, e.g. The Multiplication Game's discard) are not played: the default
game, Smooth Operator, has a form for every legal move.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import defaultdict
from dataclasses import dataclass, field

from morning_http import Browser, Response, form_with, forms, unescape
from morning_pages import (ARENA_CODE, DATA_GO, NOTICE, RESULTS, TODAY, socket_path, split_parts,
                           whole_moves)
from wsclient import Socket, now

from live.envelope import read as read_frame

SYNC_AFTER = 5.0  # static/js/live.js: a page waiting in silence asks for the table again


# ----- what was measured ----------------------------------------------------------------------
class Recorder:
    """Every timed request and push by kind: (seconds since the start, milliseconds), errors
    (HTTP >= 500 but the try-again page, a socket that failed), and try-again pages."""

    def __init__(self):
        self.t0 = now()
        self.samples: dict[str, list[tuple[float, float]]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.try_again: dict[str, int] = defaultdict(int)
        self.unexpected: dict[str, int] = defaultdict(int)  # a 4xx where a page was expected
        self.notes: dict[str, int] = defaultdict(int)
        self.finished_at: dict[tuple[int, int], float] = {}  # (student, k-th game) -> final push on the child's socket
        self.dashboard_at: dict[tuple[int, int], float] = {}  # the same game's finish on its teacher's push
        self.moves_sent = 0
        self.moves_lost = 0
        self.playing = True  # children start no move or game once play stops

    def push(self, push_type: str, text: str) -> tuple[int | None, str] | None:
        """(version, body) of a frame of this push type; None for another type, and for a frame
        without the live envelope (counted as an error)."""
        try:
            kind, version, _names, body = read_frame(text)
        except ValueError:
            self.error(f"{push_type} push without an envelope")
            return None
        return (version, body) if kind == push_type else None

    def add(self, kind: str, ms: float, at: float | None = None) -> None:
        self.samples[kind].append(((at if at is not None else now()) - self.t0, ms))

    async def page(self, kind: str, call, *, ok=(200, 302)) -> Response | None:
        """Time one browser step (a request and the redirects it follows); None when it failed."""
        t = now()
        try:
            response = await call
        except Exception as exc:  # noqa: BLE001 - every failure is counted
            self.errors[f"{kind}: {type(exc).__name__}"] += 1
            return None
        ms = (now() - t) * 1000
        if response.try_again:
            self.try_again[kind] += 1
            return None
        if response.status >= 500:
            self.errors[f"{kind}: HTTP {response.status}"] += 1
            return None
        if response.status not in ok:
            self.unexpected[f"{kind}: HTTP {response.status}"] += 1
            return None
        self.add(kind, ms, t)
        return response

    def error(self, kind: str) -> None:
        self.errors[kind] += 1


# ----- a table, as its page plays it ----------------------------------------------------------
class Table:
    """One game page: its HTML, its socket, its moves. `play()` returns True when the game
    finished (the results showed), False when the run ended or the page gave up."""

    def __init__(self, *, child: "Child", page: Response):
        self.child, self.rec = child, child.rec
        self.url = page.path
        self.board = split_parts("table", page.body).get("board", "")
        version = re.search(r'data-live-version="(\d+)"', page.body)
        self.version = int(version.group(1)) if version else 0
        self.path = socket_path(page.body)
        self.changed = asyncio.Event()
        self.last_frame = now()
        self.notices = 0
        self.finished_at: float | None = now() if RESULTS.search(self.board) else None

    def on_text(self, text: str, t: float) -> None:
        self.last_frame = t
        frame = self.rec.push("table", text)
        if frame is None:
            return
        version, body = frame
        parts = split_parts("table", body)
        if version is not None:
            self.version = max(self.version, version)
        if "board" in parts:
            self.board = parts["board"]
            if self.finished_at is None and RESULTS.search(self.board):
                self.finished_at = t
        if "notice" in parts and NOTICE.search(parts["notice"]):
            self.notices += 1
        self.changed.set()

    def moves(self) -> list[dict]:
        """The whole moves the board offers at the version it shows (none: not my turn)."""
        return whole_moves(self.board, self.version)

    async def _wait(self, done, timeout: float) -> bool:
        """Until done() or timeout; a page waiting in silence sends {"sync": version}."""
        deadline = now() + timeout
        while not done():
            left = deadline - now()
            if left <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), min(left, SYNC_AFTER))
            except asyncio.TimeoutError:
                if now() - self.last_frame >= SYNC_AFTER and not self.sock.closed.done():
                    self.sock.send(json.dumps({"sync": self.version}))
                    self.rec.notes["syncs sent after 5 s of silence"] += 1
                    self.last_frame = now()
            if self.sock.closed.done():
                return done()
        return True

    async def play(self) -> bool:
        if self.path is None:
            self.rec.error("table page without ws-connect")
            return False
        self.sock = Socket(host=self.child.browser.host, port=self.child.browser.port, path=self.path,
                           session_key=self.child.browser.cookies.get("sessionid", ""), on_text=self.on_text)
        t = now()
        try:
            await self.sock.connect(timeout=30)
        except Exception as exc:  # noqa: BLE001
            self.rec.error(f"table socket: {type(exc).__name__}")
            return False
        self.rec.add("table socket open", (now() - t) * 1000, t)
        args = self.child.args
        try:
            while self.rec.playing:
                if self.finished_at is not None:
                    return True
                if not await self._wait(lambda: self.finished_at is not None or bool(self.moves())
                                        or not self.rec.playing, args.timeout * 4):
                    self.rec.notes["tables that went quiet (nobody's move for 4x --timeout)"] += 1
                    return False
                if self.sock.closed.done():
                    self.rec.error(f"table socket closed by the server ({self.sock.closed_code})")
                    return False
                if self.finished_at is not None or not self.rec.playing:
                    continue
                await asyncio.sleep(self.child.rng.uniform(args.think_min, args.think_max))
                choices = self.moves()
                if not choices or not self.rec.playing:
                    continue
                await self._move(self.child.rng.choice(choices))
            return False
        finally:
            await self.sock.close()

    async def _move(self, move: dict) -> None:
        expected, notices = self.version, self.notices
        message = {**move["fields"], "HEADERS": {
            "HX-Request": "true", "HX-Trigger": move["button"], "HX-Trigger-Name": None,
            "HX-Target": "", "HX-Current-URL": self.child.browser.origin + self.url}}
        t = now()
        try:
            self.sock.send(json.dumps(message))
        except Exception:  # noqa: BLE001 - the socket closed under us
            self.rec.error("move: socket closed")
            return
        self.rec.moves_sent += 1
        answered = await self._wait(lambda: self.version > expected or self.notices > notices,
                                    self.child.args.timeout)
        if not answered:
            self.rec.moves_lost += 1
        elif self.notices > notices and self.version <= expected:
            self.rec.notes["moves answered by a notice"] += 1
        else:
            self.rec.add(f"{self.child.kind_prefix}move -> own update", (now() - t) * 1000, t)


# ----- a child --------------------------------------------------------------------------------
@dataclass
class Child:
    student: dict
    klass: dict
    browser: Browser
    rec: Recorder
    args: object
    rng: random.Random
    teacher: "Teacher"
    arena: "ArenaInfo | None" = None
    finished: int = 0

    @property
    def kind_prefix(self) -> str:
        return "arena: " if self.arena is not None else ""

    async def sign_in(self) -> bool:
        r, code = self.rec, self.klass["join_code"]
        page = await r.page("sign-in: code page", self.browser.get("/join/"))
        form = page and form_with(page.body, field_name="code")
        if not form:
            return self._gave_up("code page")
        names = await r.page("sign-in: class code", self.browser.submit(page, form, code=code))
        link = f"/join/{code}/{self.student['id']}/"
        if not names or f'href="{link}"' not in names.body:
            return self._gave_up("names page")
        pictures = await r.page("sign-in: name", self.browser.get(link))
        form = pictures and next((f for f in forms(pictures.body) if "picture-form" in f.attrs.get("class", "")), None)
        if not form:
            return self._gave_up("pictures page")
        done = await r.page("sign-in: pictures", self.browser.post(
            link, form.fields(picture=self.student["pictures"]), follow=False))
        if not done or done.status != 302 or "sessionid" not in self.browser.cookies:
            return self._gave_up("pictures")
        return bool(await r.page("home", self.browser.get(done.headers.get("location", "/play/"))))

    def _gave_up(self, where: str) -> bool:
        self.rec.notes[f"children stopped at: {where}"] += 1
        return False

    async def run(self) -> None:
        try:
            if not await self.sign_in():
                return
            if self.arena is not None:
                await self.arena_morning()
            else:
                await self.assignment_morning()
        finally:
            await self.browser.close()

    async def assignment_morning(self) -> None:
        r, first = self.rec, True
        start = f"/play/assignment/{self.klass['assignment']}/start/"
        while r.playing:
            if not first and not await r.page("home", self.browser.get("/play/")):
                return
            first = False
            page = await r.page("play page", self.browser.get(start, follow=False))
            if page is None:
                return
            if page.status == 200:  # the start page; 302: a game of this assignment is running
                form = form_with(page.body, action="")
                if form is None:
                    self._gave_up("play page without its Start form")
                    return
                page = await r.page("start", self.browser.post(start, form.fields(), follow=False))
                if page is None:
                    return
            location = page.headers.get("location", "")
            table = await r.page("table page", self.browser.get(location))
            if table is None:
                return
            if not await self._play(table):
                return

    async def _play(self, table_page: Response) -> bool:
        table = Table(child=self, page=table_page)
        if not await table.play():
            return False
        self.finished += 1
        self.rec.finished_at[(self.student["id"], self.finished)] = table.finished_at
        self.teacher.expect(self.student["name"])
        return True

    async def arena_morning(self) -> None:
        r, info = self.rec, self.arena
        code = await info.code()
        if code is None:
            return
        page = await r.page("arena: join page", self.browser.get("/arena/join/"))
        form = page and form_with(page.body, field_name="code")
        if not form:
            self._gave_up("arena join page")
            return
        page = await r.page("arena: join", self.browser.submit(page, form, code=code))
        while page is not None and r.playing:
            if page.path.startswith("/game/"):
                if not await self._play(page):
                    return
                await asyncio.sleep(3)  # the results' data-go-after (Game.SERIES_RESULT_SECONDS)
                page = await r.page("arena: arena page", self.browser.get(f"/arena/{info.arena_id}/play/"))
                continue
            go = await self._arena_wait_for_table(page)
            if go is None:
                return
            page = await r.page("table page", self.browser.get(go))

    async def _arena_wait_for_table(self, page: Response) -> str | None:
        """The arena page's socket until it says "go to your table" (after its data-go-after)."""
        found = DATA_GO.search(page.body)
        if found is None:
            path = socket_path(page.body)
            if path is None:
                self._gave_up("arena page without ws-connect")
                return None
            arrived = asyncio.get_running_loop().create_future()

            def on_text(text: str, t: float) -> None:
                go = DATA_GO.search(text)
                if go and not arrived.done():
                    arrived.set_result(go)

            sock = Socket(host=self.browser.host, port=self.browser.port, path=path,
                          session_key=self.browser.cookies.get("sessionid", ""), on_text=on_text)
            try:
                await sock.connect(timeout=30)
            except Exception as exc:  # noqa: BLE001
                self.rec.error(f"arena socket: {type(exc).__name__}")
                return None
            try:
                while not arrived.done() and self.rec.playing:
                    await asyncio.wait([arrived, sock.closed], timeout=1, return_when=asyncio.FIRST_COMPLETED)
                    if sock.closed.done() and not arrived.done():
                        self.rec.error(f"arena socket closed by the server ({sock.closed_code})")
                        return None
                if not arrived.done():
                    return None
                found = arrived.result()
            finally:
                await sock.close()
        if found.group(2):
            await asyncio.sleep(int(found.group(2)))
        return unescape(found.group(1))


# ----- a teacher ------------------------------------------------------------------------------
@dataclass
class ArenaInfo:
    """What a class's arena children need from their teacher: its id and code, once made."""

    ready: asyncio.Future
    arena_id: int = 0

    async def code(self) -> str | None:
        return await self.ready


@dataclass
class Teacher:
    klass: dict
    browser: Browser
    rec: Recorder
    args: object
    arena: ArenaInfo | None = None
    counts: dict[str, int] = field(default_factory=dict)  # "Finished today" as the dashboard shows it
    expected: dict[str, int] = field(default_factory=dict)
    student_ids: dict[str, int] = field(default_factory=dict)
    sock: Socket | None = None

    def expect(self, name: str) -> None:
        self.expected[name] = self.expected.get(name, 0) + 1

    def on_dashboard(self, text: str, t: float) -> None:
        frame = self.rec.push("dashboard", text)
        if frame is None:
            return
        _version, body = frame
        self.rec.notes["dashboard pushes"] += 1
        today = TODAY.search(body)
        if today is None:
            return
        for entry in unescape(re.sub(r"<[^>]+>", "", today.group(1))).split(" · "):
            name, _, n = entry.strip().rpartition(" ")
            if not n.isdigit() or name not in self.student_ids:
                continue
            for k in range(self.counts.get(name, 0) + 1, int(n) + 1):
                self.rec.dashboard_at[(self.student_ids[name], k)] = t
            self.counts[name] = max(self.counts.get(name, 0), int(n))

    async def sign_in(self) -> bool:
        r = self.rec
        page = await r.page("teacher: sign-in page", self.browser.get("/teacher/sign-in/"))
        form = page and form_with(page.body, field_name="email")
        if not form:
            return False
        t = self.klass["teacher"]
        home = await r.page("teacher: sign-in", self.browser.submit(page, form, email=t["email"], password=t["password"]))
        return bool(home and "sessionid" in self.browser.cookies and home.path.startswith("/teach"))

    async def open_dashboard(self) -> bool:
        self.student_ids = {s["name"]: s["id"] for s in self.klass["students"]}
        page = await self.rec.page("teacher: dashboard page",
                                   self.browser.get(f"/teach/classes/{self.klass['id']}/reports/"))
        path = page and socket_path(page.body)
        if not path:
            return False
        self.sock = Socket(host=self.browser.host, port=self.browser.port, path=path,
                           session_key=self.browser.cookies.get("sessionid", ""), on_text=self.on_dashboard)
        try:
            await self.sock.connect(timeout=30)
        except Exception as exc:  # noqa: BLE001
            self.rec.error(f"dashboard socket: {type(exc).__name__}")
            return False
        return True

    async def close(self) -> None:
        if self.sock is not None:
            if self.sock.closed.done():
                self.rec.error(f"dashboard socket closed by the server ({self.sock.closed_code})")
            await self.sock.close()
        await self.browser.close()

    async def export(self) -> None:
        """Downloads: POST an export, poll its job page as the page does (every 2 s, htmx),
        download the file. Timed as one step from the POST to the file."""
        r, base = self.rec, f"/teach/classes/{self.klass['id']}/reports"
        page = await r.page("teacher: exports page", self.browser.get(f"{base}/exports/"))
        form = page and form_with(page.body, field_name="format")
        if not form:
            r.error("export: no form")
            return
        t = now()
        job = await r.page("teacher: export asked", self.browser.submit(page, form))
        if job is None:
            return
        link = re.compile(re.escape(job.path) + r"download/")
        polls, body = 0, job.body
        while not link.search(body):
            if now() - t > 300:
                r.error("export: not ready within 300 s")
                return
            await asyncio.sleep(2)
            polled = await r.page("teacher: export job poll", self.browser.get(job.path, headers={"HX-Request": "true"}))
            if polled is None:
                return
            polls, body = polls + 1, polled.body
        got = await r.page("teacher: export download", self.browser.get(job.path + "download/"))
        if got is not None:
            r.add("teacher: export (ask -> file downloaded)", (now() - t) * 1000, t)
            r.notes[f"export: {len(got.body)} characters after {polls} polls"] += 1

    async def make_arena(self, *, game: str, preset: str, minutes: int) -> bool:
        """arena:new with the game and level, the form's other defaults; then its code."""
        r = self.rec
        page = await r.page("arena: teacher's new-arena page",
                            self.browser.get(f"/classes/{self.klass['id']}/arena/new/"))
        form = page and form_with(page.body, field_name="table_size")
        if not form:
            return False
        control = await r.page("arena: create", self.browser.submit(
            page, form, game=game, preset=preset, minutes=minutes, table_size=2))
        found = control and re.search(r"/arena/(\d+)/", control.path)
        code = control and ARENA_CODE.search(control.body)
        if not found or not code:
            said = control and re.findall(r'<p class="error" role="alert">(.*?)</p>|<div class="alert alert-error"[^>]*>(.*?)</div>',
                                          control.body, re.S)
            r.notes[f"arena not made: {said or 'no page'}"] += 1
            return False
        self.arena.arena_id = int(found.group(1))
        self.arena.ready.set_result("".join(re.findall(r"<span>(.)</span>", code.group(1))))
        return True

    async def start_arena(self) -> None:
        r, arena_id = self.rec, self.arena.arena_id
        page = await r.page("arena: control page", self.browser.get(f"/arena/{arena_id}/"))
        if page is None:
            return
        await r.page("arena: start", self.browser.post(f"/arena/{arena_id}/start/",
                                                      [("csrfmiddlewaretoken", self._csrf(page))]))

    async def let_in_late(self) -> None:
        """The control page's "let them in", when late students wait for it."""
        arena_id = self.arena.arena_id
        page = await self.rec.page("arena: control page", self.browser.get(f"/arena/{arena_id}/"))
        form = page and form_with(page.body, action=f"/arena/{arena_id}/let-in/")
        if form:
            await self.rec.page("arena: let in", self.browser.submit(page, form))

    def _csrf(self, page: Response) -> str:
        for form in forms(page.body):
            token = form.value("csrfmiddlewaretoken")
            if token:
                return token
        return ""
