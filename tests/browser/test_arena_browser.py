"""A whole class arena in Chromium, every step a person takes made on the pages.

The teacher starts an arena from the class page and puts the projector up; six students join
on phone-sized windows (the home page's card, the code typed in, the QR code's link) and the
projector counts them without a reload. The teacher presses Start: each student's page goes to
a table of their own; they play Smooth Operator (its quickest level) by clicking, and as their
games end they are sent back and seated again, while the projector's top five changes live. One
student closes the tab and comes back to their running table. The teacher pauses (a student
whose game ends then waits, and is told why), resumes, lets a late student in, takes one out
(with the question first: their game ends and their classmate is seated again), ends the arena
early and stops the last games. The podium, the standings on the page, the CSV and the points
in the database agree. axe-core finds nothing on the arena's pages at 390, 1280 and 1920 px.

The rounds are the live server's own (its ticker, tests/browser/conftest.py: a round every
second, a computer player after 4 s). The test only reads the database (whose turn it is,
which table a student is at, the points); every change goes through a page.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from arena.models import Arena, ArenaPlayer
from arena.selectors import public_name
from games import engine as engines
from games.engine.smooth_operator import rules
from games.models import Game
from tests.browser.test_class_journey_browser import AXE_JS, add_axe, axe_lines
from tests.browser.test_play_browser import click_so_move, signed_in_page, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TIMEOUT = 15_000
PHONE = {"width": 390, "height": 844}
AXE_WIDTHS = {390: 844, 1280: 720, 1920: 1080}
GAME_URL = re.compile(r"/game/(\d+)/$")
NAMES = ["Ann Lee", "Ben Cho", "Cal Diaz", "Dee Ortiz", "Eve Park", "Fin Quinn"]
LATE = "Gus Reid"
PICTURES = [("cat", "sun", "tree"), ("boat", "star", "apple"), ("moon", "fish", "tree"),
            ("sun", "cat", "star"), ("apple", "boat", "moon"), ("fish", "tree", "sun"),
            ("star", "moon", "cat")]


# ----- reading the database ------------------------------------------------------------------

def player(arena_id: int, name: str) -> ArenaPlayer:
    return ArenaPlayer.objects.select_related("game").get(arena_id=arena_id, user__display_name=name)


def so_move(game: Game, name: str) -> dict:
    """A child racing to the target: the biggest result when responding, the first penalty
    card, and no specials (end the turn). Every move is one button on the page."""
    engine = engines.get("smooth_operator")
    view = engine.view(game.state, name)
    actions = engine.legal_actions(game.state, name)
    if view["decision"] == "response":
        return max(actions, key=lambda a: rules.result(a["card"], view["high"], view["low"]))
    if view["decision"] == "penalty":
        return actions[0]
    return {"type": "end_turn"}


def move_is_in(page, game_id: int, version: int) -> None:
    """The page shows the table after the move made at `version`, or has already left the
    table (a finished arena game's page goes back to the arena by itself 3 s after the end)."""
    page.wait_for_function(
        """([path, version]) => {
          const board = document.querySelector('#table-board');
          return window.location.pathname !== path || (board && Number(board.dataset.version) > version);
        }""", arg=[f"/game/{game_id}/", version], timeout=TIMEOUT)


def play_to_the_end(pages: dict, game_ids: list[int]) -> None:
    """Play these tables to their end by clicking, a move at each table in turn (the server
    works on one table's move while the test clicks at the next)."""
    engine = engines.get("smooth_operator")
    clicked: dict[int, tuple] = {}  # table -> (page, version) of the last click there
    active = list(game_ids)
    for _ in range(600):
        if not active:
            return
        for game_id in list(active):
            if game_id in clicked:
                page, version = clicked.pop(game_id)
                move_is_in(page, game_id, version)
            game = Game.objects.get(pk=game_id)
            if game.status != Game.Status.ACTIVE:
                assert game.status == Game.Status.FINISHED, f"game {game_id} is {game.status}"
                active.remove(game_id)
                continue
            name = engine.waiting_for(game.state)[0]
            page = pages[name]
            wait_for_version(page, game.version)
            click_so_move(page, so_move(game, name))
            clicked[game_id] = (page, game.version)
    raise AssertionError(f"games {active} did not end")


def podium_of(lines: list[list[str]]) -> list[str]:
    """The podium the standings CSV's rows give, as each place reads ("1st Ann L. Ben C. 4
    pts"): the places of the first three who played a game and were not taken out, each with
    everyone on it."""
    shown = [line for line in lines if line[9] != ArenaPlayer.Status.OUT.label and int(line[4]) > 0]
    places = list(dict.fromkeys(line[0] for line in shown[:3]))
    steps = []
    for place in places:
        on_it = [line for line in shown if line[0] == place]
        suffix = {"1": "st", "2": "nd", "3": "rd"}.get(place, "th")
        points = on_it[0][3]
        steps.append(f"{place}{suffix} " + " ".join(public_name(line[1]) for line in on_it)
                     + f" {points} {'pt' if points == '1' else 'pts'}")
    return steps


def wait_for_new_table(page, old_game_id: int | None) -> int:
    """The student's page reaches a table (another than `old_game_id`); its game id."""
    if old_game_id is None:
        page.wait_for_url(GAME_URL, timeout=TIMEOUT)
    else:
        page.wait_for_url(re.compile(rf"/game/(?!{old_game_id}/)\d+/$"), timeout=TIMEOUT)
    return int(GAME_URL.search(page.url).group(1))


# ----- axe-core --------------------------------------------------------------------------------

def run_axe(page) -> list[dict]:
    """axe-core's violations (test_class_journey_browser's AXE_JS), waited for with a timeout:
    a run that never ends fails here, naming the page, instead of hanging the test."""
    page.evaluate(f"""() => {{
      window.__axeResult = undefined;
      ({AXE_JS.strip()})().then((v) => {{ window.__axeResult = v; }},
                                (e) => {{ window.__axeResult = 'axe failed: ' + e; }});
    }}""")
    page.wait_for_function("() => window.__axeResult !== undefined", timeout=2 * TIMEOUT)
    result = page.evaluate("() => window.__axeResult")
    assert isinstance(result, list), f"{page.url}: {result}"
    return result


def axe_problems(page, what: str) -> list[str]:
    """axe-core's violations on the page as it is now, at each of the three widths (the page
    is narrowed or widened in place: the CSS alone responds to the width)."""
    before = page.viewport_size
    # The page checked is the one in front: Chromium may leave a page behind others without
    # animation frames or timers, and axe-core waits on them.
    page.bring_to_front()
    add_axe(page)
    # The teacher's live part is fetched again every 2 s: held while axe reads the page, so
    # it reads one page, not one half swapped.
    page.evaluate(HOLD_LIVE, True)
    problems = []
    for width, height in AXE_WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})  # applied when it returns
        problems += [f"{what} at {width}px: {line}" for line in axe_lines(run_axe(page))]
    page.evaluate(HOLD_LIVE, False)
    page.set_viewport_size(before)
    return problems


HOLD_LIVE = """(hold) => {
  if (!window.__holdLiveSet) {
    window.__holdLiveSet = true;
    document.addEventListener('htmx:beforeRequest', (e) => { if (window.__holdLive) e.preventDefault(); });
  }
  window.__holdLive = hold;
}"""


# ----- the journey -----------------------------------------------------------------------------

def test_a_class_arena_from_start_to_podium(browser, live_daphne, teacher, classroom, make_student, tmp_path):
    base = live_daphne
    users = {name: make_student(classroom, name, PICTURES[i]) for i, name in enumerate(NAMES + [LATE])}
    axe: list[str] = []

    # 1. The teacher starts an arena from the class page and puts the projector up.
    desk = signed_in_page(browser, base, teacher, {"width": 1280, "height": 720})
    desk.goto(base + reverse("classroom:class_detail", args=[classroom.pk]))
    desk.get_by_role("link", name="Start an arena").click()
    expect(desk.get_by_role("heading", name="Start an arena for Class 5B")).to_be_visible()
    axe += axe_problems(desk, "the arena form")
    # The page came by a link: its deferred scripts (htmx) may still be on their way. A game
    # chosen before htmx listens sends no request (app.js asks again for another game, and the
    # first game's levels are already there), so the wait below would wait for nothing.
    desk.wait_for_load_state("load")
    desk.evaluate("document.getElementById('arena-fields').dataset.before = '1'")
    desk.get_by_label("Game").select_option(label="Smooth Operator")
    desk.locator("#arena-fields:not([data-before])").wait_for()  # the game's own levels came
    desk.get_by_label("Level").select_option(label="Quick game (first to 650 points)")
    desk.get_by_label("Players at each table").fill("2")
    desk.get_by_label("How long (minutes)").fill("5")
    desk.get_by_role("radio", name=re.compile("Points: students win points")).check()
    desk.get_by_label("Title (optional)").fill("Friday arena")
    desk.get_by_role("button", name="Create the arena").click()
    desk.wait_for_url(re.compile(r"/arena/\d+/$"))
    arena = Arena.objects.get(classroom=classroom)
    assert (arena.key, arena.options, arena.minutes, arena.mode, arena.table_size) == (
        "smooth_operator", {"target": 650}, 5, Arena.Mode.POINTS, 2)
    expect(desk.locator(".control-code-value")).to_have_text(arena.join_code)
    axe += axe_problems(desk, "the control page (open)")

    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    screen.set_default_timeout(TIMEOUT)
    screen.context.add_cookies(desk.context.cookies())
    screen.goto(base + f"/arena/{arena.pk}/screen/")
    expect(screen.locator(".screen-code")).to_have_text(arena.join_code)
    joined = screen.locator(".screen-joined li")
    expect(screen.locator(".screen-h")).to_have_text("0 players have joined")

    # 2. Six students join on their phones: four from the home page's card, one types the
    # code, one follows the QR code's link. The projector names them as they come (first name
    # and initial, the latest first).
    pages = {name: signed_in_page(browser, base, users[name], PHONE) for name in NAMES}
    for number, name in enumerate(NAMES, start=1):
        page = pages[name]
        if number <= 4:
            page.goto(base + "/play/")
            page.get_by_role("button", name=re.compile("Join the arena")).click()
        elif number == 5:
            page.goto(base + "/play/")
            page.get_by_role("link", name="Have an arena code?").click()
            page.get_by_label("Type the arena code from the big screen").fill(arena.join_code.lower())
            axe += axe_problems(page, "the join-by-code page")
            page.get_by_role("button", name="Join", exact=True).click()
        else:
            page.goto(base + f"/arena/join/{arena.join_code}/")
        page.wait_for_url(f"**/arena/{arena.pk}/play/")
        expect(page.locator("#arena-me-live")).to_contain_text("Waiting for your teacher to start")
        expect(page.locator("[data-connection]")).to_have_text("Connected")
        expect(screen.locator(".screen-h")).to_have_text(
            f"{number} player has joined" if number == 1 else f"{number} players have joined")
        expect(joined).to_have_text([public_name(n) for n in reversed(NAMES[:number])])
    axe += axe_problems(pages[NAMES[0]], "a student's arena page (waiting)")
    axe += axe_problems(screen, "the projector (open)")

    # 3. Start: every student's page goes to a table of their own, two at each.
    desk.reload()
    expect(desk.locator("#arena-control-live")).to_contain_text("6 joined")
    desk.get_by_role("button", name="Start the arena").click()
    expect(desk.get_by_role("button", name="Pause")).to_be_visible()
    table_of = {name: wait_for_new_table(pages[name], None) for name in NAMES}
    tables: dict[int, list[str]] = {}
    for name, game_id in table_of.items():
        assert player(arena.pk, name).game_id == game_id
        tables.setdefault(game_id, []).append(name)
    assert sorted(len(names) for names in tables.values()) == [2, 2, 2]
    first, second, third = list(tables)
    counts = screen.locator(".screen-counts")
    expect(counts).to_have_text(re.compile(r"6\s+playing\s+·\s+0\s+waiting"))

    # 4. Two tables play to the end; their four students are seated again by themselves, and
    # the projector's top five shows the winners (no reload).
    play_to_the_end(pages, [first, second])
    for game_id in (first, second):
        for name in tables[game_id]:
            table_of[name] = wait_for_new_table(pages[name], game_id)
    for game_id in (first, second):
        winners = Game.objects.get(pk=game_id).seats.filter(is_winner=True)
        assert winners.exists()
        for seat in winners:
            points = player(arena.pk, seat.name).points
            assert points > 0
            expect(screen.locator(".screen-top li", has_text=public_name(seat.name))).to_have_text(
                re.compile(rf"\d+\s+{re.escape(public_name(seat.name))}\s+{points}\b"))

    # 5. A student closes the tab mid-game and comes back from the home page to that table:
    # "Carry on playing" names it as the arena's game and leads back through the arena.
    gone = tables[first][0]
    pages[gone].context.close()
    pages[gone] = signed_in_page(browser, base, users[gone], PHONE)
    pages[gone].goto(base + "/play/")
    carry_on = pages[gone].locator(".carry-on li")
    expect(carry_on).to_have_text(re.compile(r"Smooth Operator\s+·\s+Arena game\s+Back to the arena"))
    carry_on.get_by_role("link", name="Back to the arena").click()
    pages[gone].wait_for_url(f"**/game/{table_of[gone]}/")
    wait_for_version(pages[gone], Game.objects.get(pk=table_of[gone]).version)

    # 6. Pause: the third table's game ends while paused; its students wait, are told why, and
    # nobody is seated until the teacher resumes.
    desk.get_by_role("button", name="Pause").click()
    expect(desk.get_by_role("button", name="Resume")).to_be_visible()
    play_to_the_end(pages, [third])
    for name in tables[third]:
        pages[name].wait_for_url(f"**/arena/{arena.pk}/play/", timeout=TIMEOUT)
        expect(pages[name].locator("#arena-me-live")).to_contain_text(
            "Your teacher paused the arena.", timeout=TIMEOUT)
        me = player(arena.pk, name)
        assert (me.status, me.game_id) == (ArenaPlayer.Status.WAITING, None)  # not seated
    desk.get_by_role("button", name="Resume").click()
    expect(desk.get_by_role("button", name="Pause")).to_be_visible()
    for name in tables[third]:
        table_of[name] = wait_for_new_table(pages[name], third)

    # 7. A late student asks to join; the teacher lets her in, and she is seated.
    late = signed_in_page(browser, base, users[LATE], PHONE)
    late.goto(base + "/play/")
    late.get_by_role("button", name=re.compile("Join the arena")).click()
    expect(late.locator("#arena-me-live")).to_contain_text("Your teacher will let you in soon.")
    desk.get_by_role("button", name=f"Let in {LATE}").click()
    expect(desk.locator(".messages")).to_contain_text("Let in: 1 student")

    # 8. The teacher takes a student out (asked first): her game ends, she is told, and her
    # classmate at the table is seated again.
    out = tables[second][0]
    out_table = table_of[out]
    partner = next(name for name, game_id in table_of.items() if game_id == out_table and name != out)
    out_id = player(arena.pk, out).pk
    desk.get_by_role("link", name=f"Take out {out}").click()
    expect(desk.get_by_role("alertdialog")).to_contain_text(f"Take {out} out of the arena?")
    desk.get_by_role("button", name=f"Yes, take {out} out").click()
    expect(desk.locator("#arena-control-live tr", has_text=out)).to_contain_text("Let back in")
    pages[out].wait_for_url(f"**/arena/{arena.pk}/play/", timeout=TIMEOUT)
    expect(pages[out].locator("#arena-me-live")).to_contain_text("Your teacher has taken you out of this arena.")
    assert player(arena.pk, out).status == ArenaPlayer.Status.OUT
    assert Game.objects.get(pk=out_table).status != Game.Status.ACTIVE
    late_table = wait_for_new_table(late, None)
    table_of[partner] = wait_for_new_table(pages[partner], out_table)
    assert player(arena.pk, LATE).game_id == late_table

    # 9. End early, then stop the games still playing: the arena is over, with its podium.
    desk.get_by_text("End early…").click()
    desk.get_by_role("button", name="Yes, end the arena").click()
    desk.get_by_text("Stop the games still playing…").click()
    desk.get_by_role("button", name="Yes, stop them").click()
    podium = desk.get_by_role("list", name="Podium")
    expect(podium).to_be_visible(timeout=TIMEOUT)
    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHED
    assert not Game.objects.filter(arena_table__arena=arena, status=Game.Status.ACTIVE).exists()

    # The standings on the page, the CSV and the database agree; the podium is the places of
    # the CSV's first three who played a game and were not taken out, each with everyone who
    # shares it (a student taken out is listed, with that status, but not on the podium).
    rows = desk.locator(".arena-standings tbody tr")
    on_page = [[cell.strip() for cell in row] for row in rows.evaluate_all(
        "rows => rows.map(r => Array.from(r.children).slice(0, 4).map(c => c.innerText))")]
    with desk.expect_download() as download:
        desk.get_by_role("link", name="Download the standings (CSV)").click()
    saved = tmp_path / "standings.csv"
    download.value.save_as(saved)
    header, *lines = list(csv.reader(Path(saved).read_text(encoding="utf-8").splitlines()))
    assert header[:8] == ["Place", "Name", "Class", "Points", "Games", "Wins", "Draws", "Losses"]
    assert len(lines) == 7
    assert [[line[0], line[1], line[3], f"{line[5]} / {line[6]} / {line[7]}"] for line in lines] == on_page
    db_points = {p.user.display_name: p.points for p in ArenaPlayer.objects.filter(arena=arena).select_related("user")}
    assert {line[1]: int(line[3]) for line in lines} == db_points
    assert [int(line[3]) for line in lines] == sorted(db_points.values(), reverse=True)
    assert sum(db_points.values()) > 0
    expected_podium = podium_of(lines)
    expect(podium.locator(":scope > li")).to_have_text(expected_podium, use_inner_text=True)
    assert ArenaPlayer.objects.get(pk=out_id).status == ArenaPlayer.Status.OUT

    # The projector shows the end and the same podium; a student's page says it is over.
    expect(screen.locator(".screen-finished")).to_have_text("Well played, everyone!")
    expect(screen.get_by_role("list", name="Podium").locator(":scope > li")).to_have_text(
        expected_podium, use_inner_text=True)
    finished = pages[NAMES[-1]]
    finished.goto(base + f"/arena/{arena.pk}/play/")
    expect(finished.locator("#arena-me-live")).to_contain_text("The arena is over")
    # Every student's page is back at the arena by itself (a stopped game's page returns 3 s
    # after the end): the test ends with no page still on its way.
    for page in [*pages.values(), late]:
        page.wait_for_url(f"**/arena/{arena.pk}/play/", timeout=TIMEOUT)
    axe += axe_problems(desk, "the control page (finished)")
    axe += axe_problems(screen, "the projector (finished)")
    axe += axe_problems(finished, "a student's arena page (finished)")
    assert not axe, "axe-core found problems:\n" + "\n".join(axe)
