"""The first moves at a newly dealt arena table, in real browsers (Chromium) on the production
stack: how long a move made on one child's screen takes to show on the other child's screen,
for the first moves of each new table against the moves after them.

    .venv/bin/python devtools/bench/arena_first_moves.py                 # 4 children, 12 tables
    .venv/bin/python devtools/bench/arena_first_moves.py --students 2 --tables 6 --explain 1000

What it does (devtools/bench/README.md, "First moves at a new arena table", has the figures):
1. Migrates and **flushes** its own PostgreSQL database (`nd_first_moves`) and Redis db (13),
   collects the static files (the production settings serve them from STATIC_ROOT), and makes
   a class of --students children (arena_fixtures.py `prepare`: each with a session) in an
   arena of The Multiplication Game (four cards each: short games).
2. Starts --servers Daphne processes with the production settings (ARENA_TICKER=0) and one
   `manage.py arena_ticker` process, as the Procfile runs them. Each child's browser stays on
   one web process (a load balancer's sticky sessions), the children spread over them, so a
   move's push crosses processes through Redis.
3. Opens each child's arena page in Chromium (a browser context each, signed in by its session
   cookie), starts the arena and lets the ticker seat them; the pages go to their tables by
   themselves. At each table the child whose turn it is moves as the page's own form would send
   it (through the page's socket; htmx's ws extension keeps it until the socket is open):
   - the first --first moves as soon as their page shows the table (`--move-at load`: the
     quickest child), or once its socket is open (`open`);
   - later moves after thinking --think seconds (from their socket open and their turn shown).
   After --moves moves the server plays the game on (beginner bots through the move service)
   up to its last move, which the page of the child whose turn it is makes. Both pages show the
   result; every --hurry-every'th child presses "Back to the arena" at once, the others let the
   result page come back by itself (Game.SERIES_RESULT_SECONDS). The next round deals again.
4. Prints each move's "made on screen A -> shown on screen B": from the page's send (the move
   recorded in A's page) to the first moment B's page shows the new version (a push morphed
   into its board, or its table page loaded at that version). Then median, p95 and max for the
   first --first moves of every table against the rest, and (--explain MS) both pages'
   timelines around every move slower than MS: page loads, sockets, messages, syncs.

Times are read in the browsers (Date.now(), one machine's clock), so Playwright's own waits add
nothing to them. The machine's reference loop (10**7 squares) is timed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import arena_fixtures  # noqa: E402
import fixtures  # noqa: E402
from servers import Servers, machine_busy  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
GAME, OPTIONS = "multiplication", {"hand_size": 4}
GAME_PATH = re.compile(r"^/game/(\d+)/$")

# Recorded in every page before its own scripts and sent to the driver (an exposed binding):
# the page's start and load (at which board version), its socket's life, each message (the
# version it carries, where it sends the page), each message sent, each version the board shows.
PAGE_PROBE = r"""
(() => {
  const report = (kind, data) => {
    try { window.__ndReport({ t: Date.now(), kind: kind, data: data === undefined ? null : data,
                              path: location.pathname }); } catch (e) { /* not exposed yet */ }
  };
  const boardVersion = () => {
    const b = document.getElementById("table-board");
    return b ? parseInt(b.dataset.version, 10) : null;
  };
  let shown = null;
  const watch = () => {
    const v = boardVersion();
    if (v !== null && v !== shown) { shown = v; report("shows", v); }
  };
  report("navigated");
  document.addEventListener("DOMContentLoaded", () => {
    report("loaded", boardVersion());
    watch();
    new MutationObserver(watch).observe(document.body, { attributes: true, childList: true, subtree: true,
                                                         attributeFilter: ["data-version"] });
  });
  document.addEventListener("htmx:wsConnecting", () => report("ws-connecting"));
  document.addEventListener("htmx:wsOpen", () => report("ws-open"));
  document.addEventListener("htmx:wsClose", (e) => report("ws-close", e.detail && e.detail.event ? e.detail.event.code : null));
  document.addEventListener("htmx:wsAfterSend", (e) => {
    let kind = "message";
    try { const m = JSON.parse(e.detail.message); kind = m.sync !== undefined ? "sync " + m.sync : "move " + m.expected_version; } catch (x) {}
    report("sent", kind);
  });
  document.addEventListener("htmx:wsAfterMessage", (e) => {
    const text = e.detail.message || "";
    const version = /data-version="(\d+)"/.exec(text);
    const go = /data-go="([^"]+)"/.exec(text);
    const after = /data-go-after="([^"]+)"/.exec(text);
    report("message", { version: version ? parseInt(version[1], 10) : null, bytes: text.length,
                        go: go ? go[1] : null, after: after ? after[1] : null });
  });
})();
"""

# A move, sent through the page's own socket as its forms send one (queued by htmx's ws
# extension until the socket is open), and recorded as made in the page at that moment.
SEND_MOVE = """(message) => {
  const el = document.querySelector('[ws-connect]');
  const data = el && el['htmx-internal-data'];
  if (!data || !data.webSocket) return false;
  window.__ndReport({ t: Date.now(), kind: 'made', data: null, path: location.pathname });
  data.webSocket.publicInterface.send(message, el);
  return true;
}"""


# ----- the Django side: threads of their own (Playwright's loop runs in the main thread) -------
class Django:
    """The driver's Django (production settings, the bench's database): the class and arena,
    reading games, the server's moves. Calls run in worker threads, where no event loop runs
    (the ORM and async_to_sync both need that)."""

    def __init__(self):
        self.pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="django")
        self.call(fixtures.setup_django)

    def call(self, func, *args, **kwargs):
        return self.pool.submit(func, *args, **kwargs).result()

    def submit(self, func, *args, **kwargs):
        return self.pool.submit(func, *args, **kwargs)


def prepare(*, students: int, languages: list[str]) -> dict:
    from accounts.models import User

    data = arena_fixtures.prepare(players=students, classes=1, key=GAME, options=OPTIONS, minutes=40)
    for k, s in enumerate(data["students"]):
        if languages:
            User.objects.filter(pk=s["user_id"]).update(language=languages[k % len(languages)])
    return data


def start_arena(arena_id: int) -> None:
    from arena.services import arena_start
    arena_start(arena_id=arena_id)


def end_arena(arena_id: int) -> None:
    from arena.services import arena_end
    arena_end(arena_id=arena_id, stop_games=True)


def game_now(game_id: int) -> dict:
    from games.models import Game
    game = Game.objects.get(pk=game_id)
    return {"state": game.state, "version": game.version,
            "seats": {s.name: s.user_id for s in game.seats.all()}}


def play_up_to_the_last_move(game_id: int, delay: float) -> dict:
    """After `delay` s, the game played on by beginner bots through the move service (its
    pushes go out as any move's), up to the move that would end it: the game as it is then."""
    from games import engine as engines
    from games.models import Game
    from games.services import game_apply_move

    time.sleep(delay)
    engine = engines.get(GAME)
    for _ in range(2000):
        game = Game.objects.get(pk=game_id)
        name = engine.waiting_for(game.state)[0]
        action = choose_move(game.state, name, game.version)
        if engine.apply(game.state, name, action)[0].get("finished"):
            return game_now(game_id)
        game_apply_move(game_id=game.pk, seat=game.seats.get(name=name), action=action,
                        expected_version=game.version, schedule_bots=False)
    raise RuntimeError(f"game {game_id} did not come to its end")


def play_the_last_move(game_id: int) -> None:
    from games.models import Game
    from games.services import game_apply_move
    from games import engine as engines

    game = Game.objects.get(pk=game_id)
    name = engines.get(GAME).waiting_for(game.state)[0]
    game_apply_move(game_id=game.pk, seat=game.seats.get(name=name), expected_version=game.version,
                    action=choose_move(game.state, name, game.version), schedule_bots=False)


def choose_move(state: dict, name: str, version: int) -> dict:
    from games import engine as engines
    return engines.make_bot(GAME, "beginner", version).choose(engines.get(GAME).view(state, name))


# ----- the browsers -------------------------------------------------------------------------------
class Child:
    def __init__(self, *, name: str, user_id: int, page, base: str, hurries: bool):
        self.name, self.user_id, self.page, self.base, self.hurries = name, user_id, page, base, hurries
        self.events: list[dict] = []
        self.hurried: set[str] = set()

    def heard(self, event: dict) -> None:
        self.events.append(event)

    def first(self, kind: str, path: str, since: float = 0.0, at_least: int | None = None) -> float | None:
        """When this page first reported `kind` on `path` (since `since`; a version >= `at_least`)."""
        for e in self.events:
            if e["kind"] == kind and e["path"] == path and e["t"] >= since and \
                    (at_least is None or (e["data"] is not None and e["data"] >= at_least)):
                return e["t"]
        return None

    def last_path(self) -> str:
        return self.events[-1]["path"] if self.events else ""

    def send(self, game: dict, path: str, name: str) -> float | None:
        """Make `name`'s move on this page (a beginner's choice); when it was sent, or None."""
        action = choose_move(game["state"], name, game["version"])
        message = json.dumps({"action": json.dumps(action), "expected_version": str(game["version"]),
                              "idempotency_key": f"{secrets.token_hex(8)}-{action['type']}",
                              "HEADERS": {"HX-Request": "true", "HX-Current-URL": path}})
        sent_at = time.time() * 1000
        return sent_at if self.page.evaluate(SEND_MOVE, message) else None

    def hurry_back(self) -> None:
        """A child who does not wait for the result page to move on: as soon as their finished
        table says the next arena game is coming, they press "Back to the arena"."""
        if not self.hurries:
            return
        for e in self.events[-4:]:
            if e["kind"] == "message" and GAME_PATH.match(e["path"]) and e["data"] and \
                    (e["data"].get("go") or "").startswith("/arena/") and e["path"] not in self.hurried \
                    and self.last_path() == e["path"]:
                self.hurried.add(e["path"])
                try:
                    self.page.get_by_role("link", name="Back to the arena").first.click(timeout=2000)
                except Exception:  # noqa: BLE001 - the page moved on by itself first
                    pass
                return


class TableRun:
    """One newly dealt table: its moves one at a time, each measured on the other screens, then
    the server plays on to the last move, which a page makes."""

    def __init__(self, game_id: int, django: Django, children: dict[int, Child], args):
        self.game_id, self.django, self.args = game_id, django, args
        self.path = f"/game/{game_id}/"
        self.number = 0  # moves made here through the pages
        self.pending = None  # (number, version, mover, sent_at)
        self.finishing = None  # the server playing on
        self.last = None  # (version, sent_at): the last move, made by a page
        self.done = False
        self.game = django.call(game_now, game_id)
        self.humans = {uid: children[uid] for uid in self.game["seats"].values() if uid in children}
        self.rng = random.Random(game_id)
        # A child alone with computer players (the odd one out) has nobody to measure: the
        # server plays that game on at once.
        self.measured = len(self.humans) > 1
        if not self.measured:
            self.number = args.moves

    def step(self, results: list) -> None:
        if self.done:
            return
        if self.pending is not None:
            self._check(results)
        elif self.last is not None:
            version, _ = self.last
            self.done = all(c.first("shows", self.path, at_least=version) for c in self.humans.values())
        elif self.finishing is not None:
            if self.finishing.done():
                self.game = self.finishing.result()
                self._last_move()
        elif self.number >= self.args.moves:
            delay = self.args.stagger if self.game_id % 2 else 0.0
            self.finishing = self.django.submit(play_up_to_the_last_move, self.game_id, delay)
        else:
            self._move()

    def _mover(self) -> tuple[str, Child | None]:
        from games import engine as engines
        name = engines.get(GAME).waiting_for(self.game["state"])[0]
        return name, self.humans.get(self.game["seats"][name])

    def _move(self) -> None:
        name, mover = self._mover()
        if mover is None or not self._may_move(mover):
            return
        sent_at = mover.send(self.game, self.path, name)
        if sent_at is not None:
            self.number += 1
            self.pending = (self.number, self.game["version"] + 1, mover, sent_at)

    def _last_move(self) -> None:
        name, mover = self._mover()
        if mover is None:  # a computer player's: the server makes it
            self.django.call(play_the_last_move, self.game_id)
            self.last = (self.game["version"] + 1, time.time() * 1000)
            return
        if mover.first("shows", self.path, at_least=self.game["version"]):
            sent_at = mover.send(self.game, self.path, name)
            if sent_at is not None:
                self.last = (self.game["version"] + 1, sent_at)
                return
        self.finishing = self.django.submit(game_now, self.game_id)  # look again shortly

    def _may_move(self, mover: Child) -> bool:
        if mover.last_path() != self.path or mover.first("loaded", self.path) is None:
            return False
        shown = mover.first("shows", self.path, at_least=self.game["version"])
        if shown is None:
            return False
        first = self.number < self.args.first
        if first and self.args.move_at == "load":
            return True
        opened = mover.first("ws-open", self.path)
        if opened is None:
            return False
        think = 0.0 if first else self.rng.uniform(*self.args.think)
        return time.time() * 1000 >= max(opened, shown) + think * 1000

    def _check(self, results: list) -> None:
        number, version, mover, sent_at = self.pending
        made = mover.first("made", self.path, since=sent_at - 50)
        others = [c for c in self.humans.values() if c is not mover]
        seen = [c.first("shows", self.path, at_least=version) for c in others]
        own = mover.first("shows", self.path, at_least=version)
        late = time.time() * 1000 - sent_at > self.args.timeout * 1000
        if not (made and all(seen) and own) and not late:
            return
        if not (made and all(seen) and own):
            results.append({"game": self.game_id, "move": number, "lost": True})
            print(f"  game {self.game_id} move {number}: NOT SHOWN within {self.args.timeout:g} s", flush=True)
        else:
            for other, t in zip(others, seen):
                ms = max(0.0, t - made)
                loaded = other.first("loaded", self.path)
                results.append({"game": self.game_id, "move": number, "ms": ms, "own_ms": own - made,
                                "mover": mover.name, "watcher": other.name,
                                # the other child's page had the table when the move was made
                                "watcher_there": loaded is not None and loaded <= made})
                if self.args.verbose or (self.args.explain and ms >= self.args.explain):
                    print(f"  game {self.game_id} move {number}: {mover.name} -> {other.name} {ms:7.0f} ms "
                          f"(own screen {own - made:5.0f} ms)", flush=True)
                if self.args.explain and ms >= self.args.explain:
                    explain([mover, other], made - 8000, t + 50, made)
        self.pending = None
        self.game = self.django.call(game_now, self.game_id)


def explain(children: list[Child], since: float, until: float, zero: float) -> None:
    """Both pages' events around a slow move (ms from the move's send)."""
    rows = [(e["t"] - zero, c.name, e["path"], e["kind"], e["data"]) for c in children for e in c.events
            if since <= e["t"] <= until and not (e["kind"] == "shows" and e["data"] and e["data"] > 3)]
    for t, name, path, kind, data in sorted(rows, key=lambda r: r[0]):
        print(f"      {t:8.0f}  {name:9} {path:16} {kind:14} {json.dumps(data) if data is not None else ''}")


# ----- the report ---------------------------------------------------------------------------------
def figures(values: list[float]) -> dict:
    p95 = statistics.quantiles(values, n=20, method="inclusive")[18] if len(values) > 1 else values[0]
    return {"n": len(values), "median": statistics.median(values), "p95": p95, "max": max(values)}


def report(args, results: list[dict], children: list[Child]) -> dict:
    shown = [r for r in results if not r.get("lost")]
    events = [e for c in children for e in c.events]
    out = {"never_shown": len(results) - len(shown),
           # a table page that heard nothing for a while asks again (static/js/live.js): a push
           # that never came would show up here
           "syncs_sent": sum(e["kind"] == "sent" and str(e["data"]).startswith("sync") for e in events),
           "table_sockets_closed_by_the_server": sum(
               e["kind"] == "ws-close" and GAME_PATH.match(e["path"]) is not None and e["data"] not in (None, 1001)
               for e in events)}
    print(f"\nmove made on one screen -> shown on the other: {len(results)} moves at "
          f"{len({r['game'] for r in results})} tables, {out['never_shown']} never shown; the pages sent "
          f"{out['syncs_sent']} syncs, and had {out['table_sockets_closed_by_the_server']} table sockets closed")
    for number in range(1, args.moves + 1):
        values = [r["ms"] for r in shown if r["move"] == number]
        if values:
            f = figures(values)
            print(f"  move {number}: n {f['n']:3}  median {f['median']:7.0f} ms  max {f['max']:7.0f} ms")
    for label, keep in ((f"first {args.first} moves of a table", lambda r: r["move"] <= args.first),
                        ("the moves after them", lambda r: r["move"] > args.first)):
        values = [r["ms"] for r in shown if keep(r)]
        own = [r["own_ms"] for r in shown if keep(r)]
        if values:
            out[label] = f = figures(values)
            out[label]["own_median"] = statistics.median(own)
            print(f"{label:30} n {f['n']:3}  median {f['median']:6.0f} ms  p95 {f['p95']:6.0f} ms  "
                  f"max {f['max']:6.0f} ms  (own screen: median {f['own_median']:5.0f} ms)")
    away = [r for r in shown if r["move"] <= args.first and not r["watcher_there"]]
    out["first_moves_made_before_the_other_page_had_the_table"] = len(away)
    if away:
        f = figures([r["ms"] for r in away])
        print(f"  of the first moves, {f['n']} were made before the other child's page had the table: "
              f"median {f['median']:.0f} ms, max {f['max']:.0f} ms")
    return out


REFERENCE_LOOP = "import time\nt = time.process_time()\ns = 0\nfor i in range(10**7): s += i * i\nprint(time.process_time() - t)"


def reference_loop_cpu() -> float:
    """The machine's reference loop (devtools/bench/README.md compares machines with it): CPU
    seconds of 10**7 squares in the system's python3."""
    done = subprocess.run(["python3", "-c", REFERENCE_LOOP], capture_output=True, text=True, check=True)
    return float(done.stdout)


# ----- main ---------------------------------------------------------------------------------------
def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--students", type=int, default=4, help="children (their tables play side by side)")
    p.add_argument("--tables", type=int, default=12, help="newly dealt tables to measure")
    p.add_argument("--moves", type=int, default=4, help="moves made through the pages at each table")
    p.add_argument("--first", type=int, default=3, help="how many first moves of a table count as first")
    p.add_argument("--move-at", choices=["load", "open"], default="load",
                   help="a first move: as soon as the page shows the table, or once its socket is open")
    p.add_argument("--think", default="0.3-1.0", help="think time of the later moves, seconds MIN-MAX")
    p.add_argument("--hurry-every", type=int, default=2,
                   help="every Nth child (the 1st, the N+1th...) presses 'Back to the arena' as soon as "
                        "their game ends; the others let the result page come back by itself (0: none)")
    p.add_argument("--stagger", type=float, default=1.0,
                   help="odd-numbered games are played on to their end this many seconds later")
    p.add_argument("--languages", default="", help="the children's languages in turn, e.g. en,ar,es")
    p.add_argument("--servers", type=int, default=2, help="Daphne processes")
    p.add_argument("--port", type=int, default=8791, help="first port; the next ones follow")
    p.add_argument("--db", default="nd_first_moves", help="PostgreSQL database (created, FLUSHED)")
    p.add_argument("--redis-db", type=int, default=13, help="Redis db number (FLUSHED)")
    p.add_argument("--timeout", type=float, default=20, help="seconds to wait for a move to show")
    p.add_argument("--explain", type=float, default=0,
                   help="print both pages' events around every move slower than this many ms")
    p.add_argument("--verbose", action="store_true", help="print every move")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    p.add_argument("--log-dir", default=os.path.join(tempfile.gettempdir(), "numberdeck-first-moves"))
    args = p.parse_args(argv)
    args.think = tuple(float(x) for x in args.think.split("-"))
    return args


def open_pages(browser, data: dict, ports: list[int], args) -> dict[int, Child]:
    children = {}
    for k, s in enumerate(data["students"]):
        base = f"http://127.0.0.1:{ports[k % len(ports)]}"
        context = browser.new_context()
        context.add_cookies([{"name": "sessionid", "value": s["session_key"], "url": base}])
        child = Child(name=s["name"], user_id=s["user_id"], page=context.new_page(), base=base,
                      hurries=bool(args.hurry_every) and k % args.hurry_every == 0)
        context.expose_binding("__ndReport", lambda source, event, c=child: c.heard(event))
        context.add_init_script(PAGE_PROBE)
        child.page.goto(base + f"/arena/{data['arena_id']}/play/")
        child.page.locator("[data-connection][data-state=open]").wait_for(timeout=30_000)
        children[s["user_id"]] = child
    return children


def play(args, django: Django, browser, data: dict, ports: list[int]) -> tuple[list[dict], list[Child]]:
    children = open_pages(browser, data, ports, args)
    django.call(start_arena, data["arena_id"])
    results: list[dict] = []
    runs: dict[int, TableRun] = {}
    pager = next(iter(children.values())).page
    deadline = time.monotonic() + 60 * args.tables
    while time.monotonic() < deadline and sum(r.done and r.measured for r in runs.values()) < args.tables:
        pager.wait_for_timeout(5)  # Playwright delivers the pages' reports meanwhile
        for c in children.values():
            m = GAME_PATH.match(c.last_path())
            if m and int(m.group(1)) not in runs and sum(r.measured for r in runs.values()) < args.tables:
                runs[int(m.group(1))] = TableRun(int(m.group(1)), django, children, args)
            c.hurry_back()
        for run in list(runs.values()):
            run.step(results)
    django.call(end_arena, data["arena_id"])
    return results, list(children.values())


def main(argv=None) -> int:
    args = parse_args(argv)
    env = fixtures.server_env(db=args.db, redis_db=args.redis_db)
    os.environ.update(env)
    print(f"Reference loop: {reference_loop_cpu():.2f} s CPU; the machine {100 * machine_busy(2.0):.0f}% "
          "busy before the run.", flush=True)
    fixtures.ensure_database(env["DATABASE_URL"])
    fixtures.flush_redis(env["REDIS_URL"])
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                   cwd=fixtures.ROOT, env=env, check=True)
    django = Django()
    data = django.call(prepare, students=args.students,
                       languages=[x for x in args.languages.split(",") if x])
    ports = [args.port + i for i in range(args.servers)]
    servers = Servers(ports=ports, env={**env, "ARENA_TICKER": "0"}, log_dir=args.log_dir,
                      app="config.asgi:application")
    servers.start()
    ticker = subprocess.Popen([sys.executable, "manage.py", "arena_ticker"], cwd=fixtures.ROOT, env=env,
                              stdout=subprocess.DEVNULL,
                              stderr=open(os.path.join(args.log_dir, "arena-ticker.log"), "w"),
                              start_new_session=True)
    try:
        from playwright.sync_api import sync_playwright
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM,
                                         args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
            results, children = play(args, django, browser, data, ports)
            browser.close()
    finally:
        servers.stop()
        ticker.send_signal(signal.SIGINT)
        try:
            ticker.wait(timeout=10)
        except subprocess.TimeoutExpired:
            ticker.kill()
    out = report(args, results, children)
    print(f"Reference loop: {reference_loop_cpu():.2f} s CPU after the run.")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "results": results, "figures": out}, f, indent=2, default=str)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
