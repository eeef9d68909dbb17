"""Every page of a class's journey, at three widths: the checks a machine can make, and a
full-page screenshot of each for a person to review.

The journey: a teacher's classes, the class page with its roster and assignments' progress, a
student's page, the sign-in cards, an assignment's form (new and edited), the tables opened for
the class, the skill dashboard and the moves behind a number, a student's report, the heat
map, downloads (the page and a finished file), each game watched in play (the read-only coach
view), a replay; a student's sign-in (class code, names, pictures), their home, every
registered game's table in play and finished, a replay, a table being gathered (the lobby), the
class arena's page, an assignment's start page, and My progress.

Each page is opened 1440 pixels wide, then narrowed to 1024 and 390 (no script reads the
width: the CSS alone responds to it). At each width:
  (a) the page is no wider than its viewport (no sideways scrolling): the failure names the
      outermost elements that stick out;
  (b) no visible text shows "None", "{'" (a Python value) or a card code such as "10o" or "3g"
      (text nodes that are rendered, screen-reader-only text included; attributes are not
      read);
  (c) axe-core (vendored in tests/browser/vendor/, see its README) finds no violation of any
      impact: the failure lists each rule, its impact, the elements and what to do;
  (e) at 390 px, on a child's page (a student's, or the sign-in a child goes through): every
      control a child can tap (a link, a button, a text box, a menu, a summary, a control
      wrapped in its label: the label is what a finger taps) is at least 44 × 44 px;
and once per page:
  (d) nothing failed while it loaded and ran: no response of 400 or more (the page or a file
      it uses), no console error, no script error.
Every page is also watched for Content-Security-Policy violations, as in every browser test
(tests/browser/conftest.py, docs/csp.md): one fails its test, naming the page and directive.

The screenshots, <page>-<width>.png, are kept as tests/browser/screenshots.py says: every one in
SCREENSHOT_DIR when it is set, otherwise only those of a width with problems, which the failure
message names.

The class, its games and reports are made once for the module and committed (the live server
reads them); the module's own `transactional_db` empties the database at its end. The pages
only read, so nothing is made again between them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.services import student_create, teacher_sign_up
from arena.services import arena_create, arena_join
from classroom.models import Assignment, Classroom
from devtools.planted import PlantedPlayer, parse_plant, plantable
from games import registry
from games.models import Game
from games.services import SeatSpec, bot_seats, game_apply_move, game_create
from games.services.bots import bot_action
from games.services.tables import table_open
from reports import services as report_services
from reports.exports.jobs import export_run_job
from reports.models import RecomputeJob
from tests.browser.conftest import off_the_loop
from tests.browser.screenshots import keep_screenshot, naming
from tests.browser.test_reports_browser import eager_here

pytestmark = [pytest.mark.browser]

WIDTHS = {1440: 900, 1024: 768, 390: 844}  # width: height of the viewport
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
TIMEOUT = 15_000
MAX_ATTEMPTS = 20_000
IN_PLAY_MOVES = 3  # the student's own moves before the in-play snapshot (a log, a feedback line)
ANN_PLANTS = ["all.rule_errors=0.1", "so.lowest_operator=0.3", "so.mental_math=0.3", "mg.facts=0.3",
              "nu.missed_take=0.3"]
CLASSMATES = {  # name: (pictures, plants, the games they finished)
    "Ben": (("boat", "star", "apple"), ["mg.facts:7x8=0.6", "mg.facts=0.15"], ["multiplication"]),
    "Cal": (("moon", "fish", "tree"), ["all.rule_errors=0.25"], ["smooth_operator", "multiplication"]),
    "Maximilian-Alexandra Okonkwo-Smith": (("sun", "cat", "star"), ["so.lowest_operator=0.5"],
                                           ["smooth_operator"]),
}


# ----- The class, built once ---------------------------------------------------------------

@dataclass
class World:
    classroom: Classroom
    teacher_cookie: str
    student_cookie: str
    ann_id: int
    assignments: dict[str, int]  # game key -> assignment id
    in_play: dict[str, int]       # game key -> Ann's game in progress
    finished: dict[str, int]      # game key -> Ann's finished game
    replay_turn: dict[str, int]   # game key -> a turn in the middle of the finished game
    job_id: int
    lobby_id: int = 0             # a table Ann opened, gathering players
    arena_id: int = 0             # the class arena Ann joined, not started yet
    fresh_assignment_id: int = 0  # an assignment nobody has started: its start page


def middle_preset(spec):
    return spec.presets[len(spec.presets) // 2] if spec.presets else None


def plants(texts: list[str]):
    """The plants the registry can plant now (a game removed takes its measures with it)."""
    known = plantable()
    return [parse_plant(t) for t in texts if t.split("=")[0].split(":")[0] in known]


def student_moves(spec, game: Game, name: str, player: PlantedPlayer) -> list[dict]:
    """The student's attempts at one decision: the planted player's (refused ones first), or an
    expert bot's move in a game without a planted player."""
    view = spec.engine.view(game.state, name)
    if spec.skills and spec.skills.planted:
        return player.attempts(spec.key, view)
    return [spec.make_bot("expert", seed=game.version).choose(view)]


def drive(game: Game, student, player: PlantedPlayer, *, stop_after: int | None = None) -> Game:
    """Play `game` through the move service, bots by their bots and the student by `player`: to
    the end, or (stop_after) until the student is to move after that many moves of their own.
    The student's mental-maths answers go with their moves, as the page sends them."""
    spec = registry.spec_for(game.key)
    engine = spec.engine
    seats = {s.name: s for s in game.seats.all()}
    me = student.display_name
    mental = bool(game.assignment and game.assignment.mental_math)
    made = 0
    for _ in range(MAX_ATTEMPTS):
        if game.status != Game.Status.ACTIVE:
            break
        waiting = engine.waiting_for(game.state)
        others = [name for name in waiting if name != me]
        if stop_after is not None and me in waiting and made >= stop_after:
            if not others:
                break
            # Choices made at the same time: the bots' go in first (their table would make them
            # as soon as a page connects), so the game waits for the student alone.
            seat = seats[others[0]]
        else:
            seat = seats[me if me in waiting else waiting[0]]
        if seat.user_id == student.pk:
            actions, made = student_moves(spec, game, me, player), made + 1
        else:
            actions = [bot_action(game, seat)]
        for action in actions:
            answer = action.get("answer") if mental else None
            if not mental:
                action = {k: v for k, v in action.items() if k != "answer"}
            result = game_apply_move(game_id=game.pk, seat=seat, action=action, answer=answer,
                                     expected_version=game.version, schedule_bots=False)
            game = result.game
    else:
        raise AssertionError(f"{game.key} #{game.pk} did not get where it should")
    return game


def assignment_game(assignment: Assignment, student, seed: int) -> Game:
    me = SeatSpec(student.display_name, user=student)
    seats = [me] + bot_seats(count=assignment.bot_count, level=assignment.bot_level, avoid={me.name})
    return game_create(key=assignment.game, classroom=assignment.classroom, seats=seats, seed=seed,
                       options=assignment.options, assignment=assignment, created_by=student)


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def ann_player() -> PlantedPlayer:
    """Ann's player, new for each game: the same deal is then played the same way twice."""
    return PlantedPlayer(plants(ANN_PLANTS), seed=1)


def build_world() -> World:
    teacher = teacher_sign_up(name="Ms Rivera", email="rivera@school.test", password="correct-horse-42")
    classroom = Classroom.objects.create(name="Class 5B", owner=teacher, join_code="ABC234", free_play=True)
    classroom.teachers.add(teacher)
    ann = student_create(classroom=classroom, display_name="Ann", picture_password=["cat", "sun", "tree"])
    classmates = {name: student_create(classroom=classroom, display_name=name, picture_password=list(pics))
                  for name, (pics, _, _) in CLASSMATES.items()}

    assignments, in_play, finished, replay_turn = {}, {}, {}, {}
    for n, spec in enumerate(registry.all_games()):
        preset = middle_preset(spec)
        low, high = spec.bot_count_range
        assignment = Assignment.objects.create(
            classroom=classroom, title=f"{spec.name} practice", game=spec.key,
            preset=preset.key if preset else "", options=dict(preset.options) if preset else {},
            opponents="bots", bot_level="player", bot_count=max(low, min(2, high)),
            mental_math=spec.mental_math is not None, goal_count=3, created_by=teacher)
        assignments[spec.key] = assignment.pk
        with eager_here():
            with transaction.atomic():
                done = drive(assignment_game(assignment, ann, seed=100 + n), ann, ann_player())
            report_services.game_finished(game_id=done.pk)
            # The same deal played the same way, stopped part-way: still Ann's to play.
            decisions = done.moves.filter(accepted=True, seat__user=ann).count()
            with transaction.atomic():
                playing = drive(assignment_game(assignment, ann, seed=100 + n), ann, ann_player(),
                                stop_after=min(IN_PLAY_MOVES, decisions // 2))
        assert done.status == Game.Status.FINISHED, spec.key
        assert playing.status == Game.Status.ACTIVE, spec.key
        finished[spec.key], in_play[spec.key] = done.pk, playing.pk
        replay_turn[spec.key] = max(1, done.moves.filter(accepted=True).count() // 2)

    # Last week's work, closed: it shows as closed on the class page.
    first = registry.all_games()[0]
    Assignment.objects.create(classroom=classroom, title="Last week's warm-up", game=first.key,
                              options=dict(first.presets[0].options) if first.presets else {},
                              opponents="bots", bot_count=max(1, first.bot_count_range[0]), created_by=teacher,
                              closed_at=timezone.now())

    keys = {spec.key for spec in registry.all_games()}
    for name, (_, texts, games) in CLASSMATES.items():
        player = PlantedPlayer(plants(texts), seed=2)
        for n, key in enumerate(k for k in games if k in keys):
            assignment = Assignment.objects.get(pk=assignments[key])
            with eager_here():
                with transaction.atomic():
                    game = drive(assignment_game(assignment, classmates[name], seed=300 + n), classmates[name],
                                 player)
                report_services.game_finished(game_id=game.pk)

    job = RecomputeJob.objects.create(classroom=classroom, kind=RecomputeJob.Kind.EXPORT,
                                      export_format="csv", requested_by=teacher, status="queued")
    export_run_job(job_id=job.pk)

    # A child's other pages: a table she opened for classmates, the class arena she joined (the
    # teacher has not started it: no round seats anyone), an assignment not started yet.
    together = next(spec for spec in registry.all_games() if spec.multiplayer)
    lobby = table_open(student=ann, key=together.key)
    arena = arena_create(teacher=teacher, classroom=classroom, title="Friday arena", key=together.key,
                         options=dict(together.free_play_options), minutes=10, mode="points")
    off_the_loop(arena_join, student=ann, arena_id=arena.pk)
    fresh = Assignment.objects.create(classroom=classroom, title="Warm-up for tomorrow", game=first.key,
                                      options=dict(first.presets[0].options) if first.presets else {},
                                      opponents="bots", bot_count=max(1, first.bot_count_range[0]),
                                      created_by=teacher)
    return World(classroom=classroom, teacher_cookie=session_cookie(teacher), student_cookie=session_cookie(ann),
                 ann_id=ann.pk, assignments=assignments, in_play=in_play, finished=finished,
                 replay_turn=replay_turn, job_id=job.pk, lobby_id=lobby.pk, arena_id=arena.pk,
                 fresh_assignment_id=fresh.pk)


@pytest.fixture(scope="module")
def transactional_db(django_db_setup, django_db_blocker):
    """This module's own `transactional_db`, once for the module instead of once a test.

    pytest-django's empties the database after every test, which would take the class away
    after the first page; the name still tells pytest-django to create the test database when
    only this module runs. What the module commits is emptied at its end, as pytest-django's
    does after each test, so the next module starts from an empty database."""
    # Never the development database: the test database is there, and it is the one in use.
    assert connection.settings_dict["NAME"] == connection.settings_dict["TEST"]["NAME"]
    with django_db_blocker.unblock():
        yield
        off_the_loop(lambda: call_command("flush", interactive=False, verbosity=0))


@pytest.fixture(scope="module")
def world(live_daphne, transactional_db):
    return off_the_loop(build_world)


@pytest.fixture(scope="module")
def contexts(browser, live_daphne, world):
    """A browser context for each of the teacher, Ann (signed in by their session cookies), and
    a visitor who is not signed in."""
    made = {}
    for who, cookie in (("teacher", world.teacher_cookie), ("student", world.student_cookie), ("visitor", None)):
        context = browser.new_context()
        if cookie:
            context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_daphne}])
        made[who] = context
    yield made
    for context in made.values():
        context.close()


# ----- The pages ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Journey:
    name: str
    who: str  # teacher, student or visitor
    url: object  # World -> path
    ready: str = ""  # what to wait for: "table" (a game's socket is connected), "dashboard"


def of_class(name: str):
    """The path of a page of the class (a URL name that takes the class's pk)."""
    return lambda w: reverse(name, args=[w.classroom.pk])


def teacher_pages() -> list[Journey]:
    cls = of_class
    pages = [
        Journey("teacher-classes", "teacher", lambda w: reverse("classroom:teacher_home")),
        Journey("teacher-class-roster", "teacher", cls("classroom:class_detail")),
        Journey("teacher-student", "teacher", lambda w: reverse("classroom:student_detail", args=[w.ann_id])),
        Journey("teacher-sign-in-cards", "teacher", cls("classroom:sign_in_cards")),
        Journey("teacher-assignment-new", "teacher", cls("classroom:assignment_create")),
        Journey("teacher-assignment-edit", "teacher",
                lambda w: reverse("classroom:assignment_edit", args=[next(iter(w.assignments.values()))])),
        Journey("teacher-tables", "teacher", cls("classroom:teacher_tables")),
        Journey("teacher-dashboard", "teacher", cls("reports:dashboard"), ready="dashboard"),
        Journey("teacher-moves", "teacher",
                lambda w: reverse("reports:moves", args=[w.classroom.pk])
                + f"?measure=all.rule_errors&student={w.ann_id}"),
        Journey("teacher-student-report", "teacher",
                lambda w: reverse("reports:student", args=[w.classroom.pk, w.ann_id])),
        Journey("teacher-heat-map", "teacher", cls("reports:facts")),
        Journey("teacher-downloads", "teacher", cls("reports:exports")),
        Journey("teacher-download-ready", "teacher", lambda w: reverse("reports:job", args=[w.classroom.pk, w.job_id])),
    ]
    for spec in registry.all_games():
        key = spec.key
        pages.append(Journey(f"teacher-watch-{key}", "teacher",
                             lambda w, key=key: reverse("games:game", args=[w.in_play[key]]), ready="table"))
    # One replay, half-way through: the replay page is the same for every game, and each game's
    # board is seen read-only above (the teacher watching) and as the student plays.
    replayed = "numero" if registry.get("numero") else registry.all_games()[0].key
    pages.append(Journey(f"teacher-replay-{replayed}", "teacher",
                         lambda w: reverse("games:replay", args=[w.finished[replayed]])
                         + f"?turn={w.replay_turn[replayed]}"))
    return pages


def student_pages() -> list[Journey]:
    pages = [
        Journey("student-join-code", "visitor", lambda w: reverse("classroom:join")),
        Journey("student-join-names", "visitor", lambda w: reverse("classroom:join_class", args=[w.classroom.join_code])),
        Journey("student-join-pictures", "visitor",
                lambda w: reverse("classroom:join_pictures", args=[w.classroom.join_code, w.ann_id])),
        Journey("student-home", "student", lambda w: reverse("classroom:student_home")),
    ]
    for spec in registry.all_games():
        key = spec.key
        pages.append(Journey(f"student-{key}-in-play", "student",
                             lambda w, key=key: reverse("games:game", args=[w.in_play[key]]), ready="table"))
        pages.append(Journey(f"student-{key}-finished", "student",
                             lambda w, key=key: reverse("games:game", args=[w.finished[key]]), ready="table"))
    replayed = "numero" if registry.get("numero") else registry.all_games()[0].key
    pages += [
        Journey(f"student-replay-{replayed}", "student",
                lambda w: reverse("games:replay", args=[w.finished[replayed]]) + f"?turn={w.replay_turn[replayed]}"),
        Journey("student-lobby", "student", lambda w: reverse("games:lobby", args=[w.lobby_id])),
        Journey("student-arena", "student", lambda w: reverse("arena:play", args=[w.arena_id])),
        Journey("student-assignment-start", "student",
                lambda w: reverse("classroom:assignment_start", args=[w.fresh_assignment_id])),
        Journey("student-my-progress", "student", lambda w: reverse("reports:my_progress")),
    ]
    return pages


JOURNEY = teacher_pages() + student_pages()


# ----- The checks --------------------------------------------------------------------------

# A short CSS-like path of an element, for failure messages.
PATH_JS = """
window.__journeyPath = function (el) {
  const parts = [];
  for (let e = el; e && e.nodeType === 1 && parts.length < 4; e = e.parentElement) {
    let part = e.tagName.toLowerCase();
    if (e.id) { parts.unshift(part + '#' + e.id); break; }
    const classes = [...e.classList].slice(0, 2);
    if (classes.length) part += '.' + classes.join('.');
    parts.unshift(part);
  }
  return parts.join(' > ');
};
"""

OVERFLOW_JS = """
() => {
  const root = document.documentElement;
  const width = root.clientWidth;  // the viewport less any scroll bar
  const found = {scrollWidth: root.scrollWidth, clientWidth: width, innerWidth: window.innerWidth, outside: []};
  if (root.scrollWidth <= width && root.scrollWidth <= window.innerWidth) return found;
  const clipped = (el) => {
    for (let a = el.parentElement; a && a !== document.body && a !== root; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') return true;
    }
    return false;
  };
  const sticksOut = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.right + window.scrollX > width + 0.5 && !clipped(el);
  };
  for (const el of document.body.querySelectorAll('*')) {
    if (!sticksOut(el) || (el.parentElement && el.parentElement !== document.body && sticksOut(el.parentElement))) continue;
    const r = el.getBoundingClientRect();
    found.outside.push(`${window.__journeyPath(el)} (right edge ${Math.round(r.right + window.scrollX)}px, ` +
                       `${Math.round(r.width)}px wide)`);
    if (found.outside.length >= 6) break;
  }
  return found;
}
"""

TEXT_JS = """
(patterns) => {
  const regexes = patterns.map((p) => new RegExp(p));
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const hits = [];
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.nodeValue;
    if (!text || !text.trim()) continue;
    const el = node.parentElement;
    if (!el || el.closest('script, style, noscript, template')) continue;
    if (!el.checkVisibility({checkVisibilityCSS: true, visibilityProperty: true})) continue;
    for (const re of regexes) {
      const m = text.match(re);
      if (m) hits.push(`${JSON.stringify(m[0])} in ${JSON.stringify(text.trim().slice(0, 140))} ` +
                       `at ${window.__journeyPath(el)}`);
    }
  }
  return hits;
}
"""
BAD_TEXT = [r"\bNone\b", r"\{'", r"(?<![\w-])\d{1,2}[gobr](?![\w-])"]  # a card code, not "class-5b.csv"

# (e) Every control a child can tap, at least 44 × 44 px: a control wrapped in its label is
# measured by its label (what a finger taps; a card's radio button is hidden inside its card).
# Controls not shown (a closed question's buttons, the hidden copies) are not tapped.
TARGET = 44
TARGETS_JS = """
(least) => {
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, [role=button], summary';
  const small = [];
  const seen = new Set();
  for (const el of document.querySelectorAll(controls)) {
    const label = el.matches('input, select, textarea') ? el.closest('label') : null;
    const target = label || el;
    if (seen.has(target)) continue;
    seen.add(target);
    if (!target.checkVisibility({checkVisibilityCSS: true, visibilityProperty: true})) continue;
    const r = target.getBoundingClientRect();
    if (r.width >= least - 0.5 && r.height >= least - 0.5) continue;
    const words = (target.getAttribute('aria-label') || target.textContent || target.value || '')
      .replace(/\\s+/g, ' ').trim().slice(0, 40);
    small.push(`${window.__journeyPath(target)} "${words}": ${Math.round(r.width)} × ${Math.round(r.height)} px`);
  }
  return small;
}
"""

AXE_JS = """
async () => {
  const results = await axe.run(document, {resultTypes: ['violations']});
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, url: v.helpUrl,
    nodes: v.nodes.map((n) => ({target: n.target.join(' '), why: (n.failureSummary || '').replace(/\\s+/g, ' ')})),
  }));
}
"""


def add_axe(page) -> None:
    """Load axe-core into the page as the DevTools console would: the page's policy refuses an
    added <script> with the code inline (docs/csp.md), and does not govern what the test runs."""
    page.evaluate(AXE.read_text())


def axe_lines(violations: list[dict]) -> list[str]:
    lines = []
    for v in violations:
        lines.append(f"axe {v['id']} ({v['impact']}): {v['help']} [{v['url']}]")
        for node in v["nodes"][:5]:
            lines.append(f"    {node['target']}: {node['why'][:300]}")
        if len(v["nodes"]) > 5:
            lines.append(f"    ... and {len(v['nodes']) - 5} more elements")
    return lines


def wait_ready(page, journey: Journey) -> None:
    if journey.ready == "table":
        page.locator("[data-connection]").filter(has_text=re.compile("^Connected$")).wait_for(timeout=TIMEOUT)
        version = page.locator("#table-board").get_attribute("data-version")
        page.locator(f'#table-board[data-version="{version}"]').wait_for(timeout=TIMEOUT)
    elif journey.ready == "dashboard":
        page.locator("#dash-connection").filter(has_text="Live").wait_for(timeout=TIMEOUT)
    page.evaluate("document.fonts.ready.then(() => true)")


def open_page(page, base: str, journey: Journey, world: World, width: int) -> list[str]:
    """Open the page at its first width; what went wrong loading it (check (d))."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"script error: {e}"))
    page.on("response", lambda r: errors.append(f"{r.status} for {r.url}") if r.status >= 400 else None)
    page.set_viewport_size({"width": width, "height": WIDTHS[width]})
    response = page.goto(base + journey.url(world), wait_until="load")
    if response is None or response.status != 200:
        errors.append(f"the page answered {response.status if response else 'nothing'} at {page.url}")
    wait_ready(page, journey)
    page.evaluate(PATH_JS)
    add_axe(page)
    return errors


def review(page, journey: Journey, width: int) -> list[str]:
    """At this width: what is wrong with the page (and its screenshot, when one is kept)."""
    if page.viewport_size["width"] != width:
        # No script reads the window's width (the CSS alone responds to it), so narrowing the
        # window shows what opening the page at this width shows, without loading it again.
        page.set_viewport_size({"width": width, "height": WIDTHS[width]})
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    problems = []
    wide = page.evaluate(OVERFLOW_JS)
    if wide["scrollWidth"] > min(wide["clientWidth"], wide["innerWidth"]):
        problems.append(f"(a) wider than the viewport: {wide['scrollWidth']}px of content in "
                        f"{wide['clientWidth']}px; sticking out: " + ("; ".join(wide["outside"]) or "?"))
    problems += [f"(b) visible text {hit}" for hit in page.evaluate(TEXT_JS, BAD_TEXT)]
    problems += [f"(c) {line}" for line in axe_lines(page.evaluate(AXE_JS))]
    if width == 390 and journey.who in ("student", "visitor"):
        problems += [f"(e) smaller than {TARGET} × {TARGET} px: {small}"
                     for small in page.evaluate(TARGETS_JS, TARGET)]
    return problems


@pytest.mark.parametrize("journey", JOURNEY, ids=[j.name for j in JOURNEY])
def test_page_at_three_widths(journey, world, contexts, live_daphne):
    page = contexts[journey.who].new_page()
    page.set_default_timeout(TIMEOUT)
    failures = []
    try:
        widths = list(WIDTHS)
        loading = open_page(page, live_daphne, journey, world, widths[0])
        for width in widths:
            problems = review(page, journey, width)
            if width == widths[-1]:  # everything that went wrong since the page was opened
                problems += [f"(d) {error}" for error in loading]
            shot = keep_screenshot(page, f"{journey.name}-{width}", problems=problems)
            failures += [f"{journey.name} at {width}px{naming(shot)}: {p}" for p in problems]
    finally:
        page.close()
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures)
