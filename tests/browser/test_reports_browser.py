"""Skill reports in Chromium, as a teacher and a student use them.

- The teacher's dashboard is open while a student starts and finishes a game in another
  browser: "Playing now", "Finished today" and the skill table change without a reload.
- From a number in the skill table to the moves behind it, and on to the replay at that turn.
- The times-table heat map, and downloads: a background file shows its progress, then a link;
  the file is UTF-8 with a byte-order mark and a header row.
- A student's "My progress": their own numbers in encouraging words, never a classmate's name.

Games the tests need up front are played in this process by planted players
(`devtools.simulation.play_game`) and committed, so the live server reads them. Live
pushes need the change to happen where the dashboards listen: the game of the first test is
played in the browser, through the server.

Celery: without REDIS_URL the server runs tasks eagerly, in its own process. With REDIS_URL
(CI) the server queues them on Redis and nothing would run them, so the `server_tasks` fixture
starts a real worker in this process (as tests/reports/test_report_worker.py does); the
report it writes reaches the teacher's dashboard through the Redis channel layer.
"""

from __future__ import annotations

import contextlib
import csv
import io
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from classroom.models import Assignment
from config.celery import app as celery_app
from reports.exports import rows as export_rows
from reports.exports.jobs import export_run_job
from reports.measures import measure_by_id
from reports.models import GameReport, RecomputeJob, SkillEvidence, SkillRollup
from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_game
from games import engine as engines
from games.models import Game
from tests.browser.conftest import off_the_loop
from tests.browser.test_play_browser import click_mg_move, current, mg_move, signed_in_page, wait_for_version
from tests.conftest import need, redis_available

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE = 15_000  # how long a pushed change may take to show (a push waits about 1 s)
BOM = b"\xef\xbb\xbf"
FACTS = measure_by_id("mg.facts")


# ----- Celery for the live server ---------------------------------------------------------

def tasks_run_in_server() -> bool:
    """True without REDIS_URL: the forked server runs every task eagerly, in itself."""
    return bool(settings.CELERY_TASK_ALWAYS_EAGER)


@pytest.fixture
def server_tasks():
    """Call it to have the tasks the live server queues run. Without a broker they already
    run in the server (nothing to do); with REDIS_URL a worker starts in this process and
    stops at the end of the test."""
    stack, started = contextlib.ExitStack(), []

    def start() -> None:
        if tasks_run_in_server() or started:
            return
        need(redis_available(), "REDIS_URL is set but Redis does not answer")
        # Imported only when a worker starts: Celery's test-worker machinery stays out of collection.
        from celery.contrib.testing.worker import start_worker

        stack.enter_context(start_worker(celery_app, pool="solo", perform_ping_check=False,
                                         shutdown_timeout=30))
        started.append(True)

    yield start
    stack.close()


@contextlib.contextmanager
def eager_here():
    """Tasks queued by games played in this process run here, now (not left on the broker)."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = before


def finished_game(classroom, student, key: str, plants: list[str], seed: int) -> Game:
    """A whole game of `student` played by a planted player, with its report (committed)."""
    def work():
        with eager_here():
            return play_game(key=key, classroom=classroom, student=student, seed=seed,
                             player=PlantedPlayer([parse_plant(p) for p in plants]))

    return off_the_loop(work)


def student_total(student, measure: str) -> SkillRollup:
    return SkillRollup.objects.get(scope=SkillRollup.Scope.STUDENT, student=student, measure=measure,
                                   week__isnull=True, detail="", assignment__isnull=True)


@pytest.fixture
def export_files(transactional_db):
    """Export files land under MEDIA_ROOT (the live server's settings were fixed when it was
    forked): delete the ones this test made."""
    yield
    for job in RecomputeJob.objects.filter(kind=RecomputeJob.Kind.EXPORT).exclude(file=""):
        job.file.delete(save=False)


def press(locator) -> None:
    """Activate a link or button from the keyboard. The page comes to the front first: with
    several pages open (a teacher's and a student's), only the front one has keyboard focus,
    and a focus check on another reads "inactive"."""
    locator.page.bring_to_front()
    locator.focus()
    expect(locator).to_be_focused()
    locator.press("Enter")


def open_sections(page, *names: str) -> None:
    """Open the dashboard's details (each a `<details id="dash-more-NAME">`, closed when the
    page opens) as a teacher does, from the keyboard: every one on the page when none is named."""
    names = names or tuple(d.get_attribute("id").removeprefix("dash-more-")
                           for d in page.locator("details.dash-more").all())
    for name in names:
        section = page.locator(f"#dash-more-{name}")
        if section.get_attribute("open") is None:
            press(section.locator(":scope > summary"))
        expect(section).to_have_attribute("open", "")


# ----- 1. The live dashboard --------------------------------------------------------------

def test_the_dashboard_shows_a_game_start_and_finish_without_a_reload(
        browser, live_daphne, classroom, student, teacher, server_tasks):
    server_tasks()
    Assignment.objects.create(classroom=classroom, title="Times tables race", game="multiplication",
                              opponents="bots", bot_level="expert", bot_count=1,
                              options={"hand_size": 4, "turn_limit": 50})
    desk = signed_in_page(browser, live_daphne, teacher)
    desk.goto(live_daphne + reverse("reports:dashboard", args=[classroom.pk]))
    expect(desk.get_by_role("heading", name="Skill reports: Class 5B")).to_be_visible()
    expect(desk.locator("#dash-connection")).to_contain_text("Live: this page updates by itself")
    now, summary, skills = desk.locator(".dash-now"), desk.locator("#dash-summary"), desk.locator("#dash-skills")
    today = desk.locator(".dash-today")
    expect(now).to_contain_text("Nobody is playing right now.")
    expect(summary).to_contain_text("No games finished yet today")
    # The details open by keyboard: today's games, and the skill table.
    open_sections(desk, "games", "skills")
    expect(today.locator(".big-number")).to_have_text("0 games")
    expect(skills).to_contain_text("No skill numbers yet")
    desk.evaluate("window.__sameDocument = 'never reloaded'")

    # Ann starts the assignment's game on her own computer, by keyboard.
    ann = signed_in_page(browser, live_daphne, student)
    ann.goto(live_daphne + "/play/")
    press(ann.get_by_role("link", name="Play Times tables race"))
    press(ann.get_by_role("button", name="Start the game"))
    ann.wait_for_url("**/game/*/")
    game_id = int(ann.url.rstrip("/").split("/")[-1])

    # The teacher sees her playing, without touching the page.
    expect(now.get_by_role("listitem")).to_have_count(1, timeout=LIVE)
    expect(now.get_by_role("listitem")).to_have_text("The Multiplication Game (Times tables race): Ann")
    expect(now.get_by_role("link", name="Watch Ann's game")).to_have_attribute(
        "href", reverse("games:game", args=[game_id]))
    expect(today.locator(".big-number")).to_have_text("0 games")

    # Ann plays to the end: she names every fact right, but once draws when she could play.
    engine = engines.get("multiplication")
    moves = discards = drew_instead = 0
    for _ in range(100):
        game = current(game_id)
        if game.state["finished"]:
            break
        if "Ann" not in engine.waiting_for(game.state):
            ann.wait_for_timeout(50)  # the computer player is thinking
            continue
        wait_for_version(ann, game.version)
        expect(ann.locator("#table-status")).to_contain_text("Your turn")
        action = mg_move(game, "Ann")
        if action["type"] == "discard" and not drew_instead:
            action, drew_instead = {"type": "draw"}, 1
        click_mg_move(ann, action)
        moves, discards = moves + 1, discards + (action["type"] == "discard")
        ann.wait_for_function(
            f"() => Number(document.querySelector('#table-board').dataset.version) > {game.version}")
    game = current(game_id)
    assert game.status == Game.Status.FINISHED and moves >= 1
    wait_for_version(ann, game.version)
    winners = list(game.seats.filter(is_winner=True).values_list("name", flat=True))
    expect(ann.locator("#table-status")).to_have_text(
        ("You won! Well played." if winners == ["Ann"] else "You share the win!") if "Ann" in winners
        else "Game over: Robo won.")

    # The report is worked out (in the server, or by the worker), then pushed to the teacher.
    expect(summary).to_contain_text("Today: 1 game", timeout=LIVE)
    expect(today.locator(".big-number")).to_have_text("1 game")
    expect(today).to_contain_text("Ann 1")
    expect(now).to_contain_text("Nobody is playing right now.")
    expect(skills).not_to_contain_text("No skill numbers yet", timeout=LIVE)
    ann_row = skills.locator("tbody tr", has=desk.get_by_role("rowheader", name="Ann"))
    rules = ann_row.locator(f'td[title^="{measure_by_id("all.rule_errors").miss_words}"]')
    expect(rules).to_contain_text(f"missed 0 of {moves}")  # every move she made, none refused
    if discards:
        facts = ann_row.locator(f'td[title^="{measure_by_id("mg.facts").miss_words}"]')
        expect(facts).to_contain_text(f"missed 0 of {discards}")
    if drew_instead:
        plays = student_total(student, "mg.missed_play")
        sees = ann_row.locator(f'td[title^="{measure_by_id("mg.missed_play").miss_words}"]')
        expect(sees).to_contain_text(f"missed 1 of {plays.chances}")
        expect(sees.get_by_role("link", name="1 missed: list them")).to_be_visible()
    # Ann is the only student: the whole class has her numbers.
    expect(skills.locator("tfoot")).to_contain_text(f"missed 0 of {moves}")
    assert GameReport.objects.filter(game_id=game_id).exists()
    assert desk.evaluate("window.__sameDocument") == "never reloaded"


# ----- 2. From a number to the moves, and on to the replay --------------------------------

def test_a_number_in_the_skill_table_opens_its_moves_and_the_replay_at_that_turn(
        browser, live_daphne, classroom, student, teacher):
    game = finished_game(classroom, student, "multiplication", ["mg.facts=0.4"], seed=11)
    facts = student_total(student, FACTS.id)
    turns = sorted(SkillEvidence.objects.filter(student=student, measure=FACTS.id, missed=True)
                   .values_list("turn", flat=True))
    assert facts.misses == len(turns) >= 2  # the planted player did name wrong facts

    page = signed_in_page(browser, live_daphne, teacher)
    page.goto(live_daphne + reverse("reports:dashboard", args=[classroom.pk]))
    # The live socket's first push re-renders the skill table: wait for it, or it may replace
    # the link between its focus and the Enter key (then nothing opens).
    expect(page.locator("#dash-connection")).to_contain_text("Live: this page updates by itself")
    open_sections(page, "skills")
    ann_row = page.locator("#dash-skills tbody tr", has=page.get_by_role("rowheader", name="Ann"))
    cell = ann_row.locator(f'td[title^="{FACTS.miss_words}"]')
    expect(cell).to_contain_text(f"missed {facts.misses} of {facts.chances}")
    press(cell.get_by_role("link", name=f"{facts.misses} missed: list them"))

    # The moves behind the number: Ann's misses, one row each, with the turns they were made at.
    page.wait_for_url(re.compile(r"/reports/moves/\?"))
    expect(page.get_by_role("heading", level=1)).to_have_text(FACTS.miss_words)
    expect(page.locator(".lead")).to_contain_text(f"Ann · {facts.misses} misses")
    table_rows = page.locator(".moves-table tbody tr")
    expect(table_rows).to_have_count(facts.misses)
    expect(page.locator(".moves-table thead th").nth(2)).to_have_text("Turn")
    shown = sorted(int(t) for t in table_rows.locator("td:nth-child(3)").all_inner_texts())
    assert shown == turns
    expect(table_rows.filter(has_text="Missed")).to_have_count(facts.misses)

    # Open the replay of the second row, by keyboard: it opens at that turn.
    row = table_rows.nth(1)
    turn = int(row.locator("td:nth-child(3)").inner_text())
    press(row.get_by_role("link", name=f"Open replay of The Multiplication Game at turn {turn}"))
    page.wait_for_url(f"**/game/{game.pk}/replay/?turn={turn}")
    expect(page.get_by_role("heading", name=re.compile("^Replay: The Multiplication Game"))).to_be_visible()
    last = game.moves.filter(accepted=True).count()
    expect(page.locator(".replay-position")).to_have_text(f"Move {turn} of {last}")
    # That is the table Ann saw: the next move is hers (the fact she got right after the miss).
    press(page.get_by_role("link", name="Next move"))
    page.wait_for_url(f"**/game/{game.pk}/replay/?turn={turn + 1}")
    expect(page.locator(".replay-said h2")).to_have_text(f"Move {turn + 1}: Ann")


# ----- 3. The heat map and downloads ------------------------------------------------------

def read_csv(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data[len(BOM):].decode("utf-8"), newline="")))


def test_the_heat_map_and_a_background_download(
        browser, live_daphne, classroom, student, teacher, server_tasks, export_files):
    finished_game(classroom, student, "multiplication", ["mg.facts=0.3"], seed=5)
    facts = SkillRollup.objects.filter(scope=SkillRollup.Scope.CLASS, measure="mg.facts", week__isnull=True,
                                       assignment__isnull=True).exclude(detail="")
    wrong = facts.filter(misses__gt=0).order_by("detail").first()
    assert wrong is not None  # the planted player named some facts wrong

    page = signed_in_page(browser, live_daphne, teacher)
    page.goto(live_daphne + reverse("reports:facts", args=[classroom.pk]))
    heat = page.get_by_role("table", name="The whole class")
    expect(heat.locator("thead th")).to_have_count(11)  # the corner and 1 to 10
    expect(heat.locator("tbody tr")).to_have_count(10)
    for row in heat.locator("tbody tr").all():
        expect(row.locator("td")).to_have_count(10)
    a, b = wrong.detail.split("x")
    square = heat.get_by_role("link", name=f"{a} × {b}: right {wrong.chances - wrong.misses} "
                                           f"of {wrong.chances} times")
    expect(square).to_be_visible()
    expect(heat.locator("td a:not(.practise-link)")).to_have_count(facts.count())  # one link per fact named
    press(square)
    expect(page.locator(".lead")).to_contain_text(
        f"The whole class · fact {wrong.detail} · {wrong.chances} facts named")

    # Downloads: the teacher picks "Every decision (CSV)" and makes it, all by keyboard.
    page.goto(live_daphne + reverse("reports:exports", args=[classroom.pk]))
    first = page.get_by_role("radio", name="Skills table (CSV)")
    expect(first).to_be_checked()
    first.focus()
    page.keyboard.press("ArrowDown")
    expect(page.get_by_role("radio", name="Every decision (CSV)")).to_be_checked()
    press(page.get_by_role("button", name="Make the file"))
    page.wait_for_url(re.compile(r"/reports/jobs/\d+/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Every decision (CSV)")
    status = page.locator("#job-status")
    if not tasks_run_in_server():
        # Queued on the broker, no worker yet: the page says it is waiting, then a worker starts.
        expect(status).to_contain_text("Waiting to start…")
        expect(status.locator("progress")).to_be_visible()
        server_tasks()
    expect(status).to_contain_text("Your file is ready.", timeout=30_000)
    with page.expect_download() as info:
        press(status.get_by_role("link", name=re.compile(r"^Download .*decisions.*\.csv$")))
    data = open(info.value.path(), "rb").read()
    assert info.value.suggested_filename.endswith(".csv")
    assert data.startswith(BOM)
    lines = read_csv(data)
    assert lines[0] == export_rows.DECISION_HEADER
    assert len(lines) > 1 and {line[0] for line in lines[1:]} == {"Ann"}

    # A file made in the background: the page shows how far it got, then offers the link.
    # (Handed to the broker: `sent_at`; a job the broker never took reads "paused".)
    job = RecomputeJob.objects.create(classroom=classroom, kind=RecomputeJob.Kind.EXPORT,
                                      export_format="csv", requested_by=teacher, status="queued",
                                      sent_at=timezone.now())
    page.goto(live_daphne + reverse("reports:job", args=[classroom.pk, job.pk]))
    expect(status).to_contain_text("Waiting to start…")
    # (Made running by hand, as a worker would: without a heartbeat yet, the worker below may
    # still take it, reports/job_queue.claim.)
    RecomputeJob.objects.filter(pk=job.pk).update(status="running", total=3, done=1)
    expect(status).to_contain_text("Working on it… 1 of 3 done.")  # polled, no reload
    expect(status.locator("progress")).to_have_attribute("value", "1")
    export_run_job(job_id=job.pk)  # what the worker does
    expect(status).to_contain_text("Your file is ready.")
    with page.expect_download() as info:
        status.get_by_role("link", name=re.compile(r"^Download .*skills.*\.csv$")).click()
    data = open(info.value.path(), "rb").read()
    assert data.startswith(BOM)
    lines = read_csv(data)
    assert lines[0] == export_rows.SKILL_HEADER
    ann_facts = student_total(student, FACTS.id)
    assert ["Ann", FACTS.id, FACTS.title] + [str(ann_facts.misses), str(ann_facts.chances)] in [
        [line[0], line[2], line[3]] + line[6:8] for line in lines[1:]]


# ----- 4. A student's own progress --------------------------------------------------------

def test_my_progress_speaks_kindly_and_only_of_the_student(browser, live_daphne, classroom, student,
                                                           make_student):
    zed = make_student(classroom, "Zed", ("moon", "star", "fish"))
    finished_game(classroom, student, "multiplication", ["mg.facts=0.3"], seed=4)
    finished_game(classroom, zed, "multiplication", ["mg.facts=0.8", "mg.missed_play=0.5"], seed=8)
    facts = student_total(student, FACTS.id)
    assert 0 < facts.misses < facts.chances
    mine = SkillRollup.objects.filter(scope=SkillRollup.Scope.STUDENT, student=student, week__isnull=True,
                                      detail="", assignment__isnull=True)
    great = [measure_by_id(r.measure).title for r in mine
             if measure_by_id(r.measure).has_misses and r.chances >= 5 and r.misses <= 0.1 * r.chances]
    assert great  # e.g. she never missed a play
    worst = (SkillRollup.objects.filter(scope=SkillRollup.Scope.STUDENT, student=student, measure=FACTS.id,
                                        week__isnull=True, assignment__isnull=True, misses__gt=0)
             .exclude(detail="").order_by("-misses", "-chances").first())

    page = signed_in_page(browser, live_daphne, student)
    page.goto(live_daphne + "/play/")
    press(page.get_by_role("link", name="My progress"))
    page.wait_for_url("**/play/progress/")
    expect(page.get_by_role("heading", level=1)).to_have_text("My progress")
    expect(page.locator(".lead")).to_have_text(
        "Here is what you did well in your games, and how you are growing.")
    right = facts.chances - facts.misses
    card = page.locator(".progress-list li", has=page.get_by_role("heading", name="Times tables"))
    expect(card).to_contain_text("You named a times-table fact correctly "
                                 f"{'once' if right == 1 else f'{right} times'} out of {facts.chances}.")
    for title in great:
        expect(page.locator(".progress-list li.is-great", has=page.get_by_role("heading", name=title))
               ).to_contain_text("You're great at this!")
    expect(page.locator(".progress-list li.is-great")).to_have_count(len(great))
    expect(page.get_by_role("heading", name="My times tables")).to_be_visible()
    a, b = worst.detail.split("x")
    # The card she needed and what she said for it (at most 8 cards, worst first: the card
    # of her worst fact - a miss is blamed on the fact the card needed - is among them in one
    # planted game).
    expect(page.get_by_role("list", name="Facts to practise:")).to_contain_text(
        re.compile(rf"\b{int(a) * int(b)} is [^(]*\b{a} × {b}\b[^(]*\(you said "))
    expect(page.get_by_role("table", name="The facts you named").locator("tbody tr")).to_have_count(10)
    # Only Ann: no classmate, no class numbers, no teacher's words.
    main = page.locator("main")
    expect(main).not_to_contain_text("Zed")
    expect(main).not_to_contain_text("Whole class")
    expect(main).not_to_contain_text("Needs help")
    expect(main).not_to_contain_text("missed")
