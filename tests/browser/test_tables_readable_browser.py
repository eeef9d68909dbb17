"""The game tables as a child (and a teacher) reads them, in Chromium.

- the replay page lays out cleanly at 1440, 1024 and 390 pixels wide, with the explained
  verdicts of the decision made from the position shown (docs/reports.md, "Every verdict explained");
- Smooth Operator's mental-maths mode asks only about cards that can be played now, says why
  the others can't, marks the playable cards in words, and keeps keyboard focus on the board;
- Numero's sentences name cards in words ("green 5", "wild card ÷2"), and its side panel
  says what counts at that level;
- the teacher's Watch view of Add or Multiply? shows each secret choice in words, and a
  finished game no longer says "still choosing";
- The Multiplication Game's results say what a negative score means.

Every page a test visits is also checked for "None", "{'" and raw Numero card codes.
"""

import re

import pytest
from playwright.sync_api import expect

from classroom.models import Assignment
from games import engine as engines
from games.models import Game
from reports.models import SkillEvidence
from games.services import SeatSpec, game_apply_move, game_create
from games.services.bots import play_bot_moves
from tests.browser.conftest import off_the_loop
from tests.browser.test_play_browser import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TIMEOUT = 15_000
WIDTHS = (1440, 1024, 390)
CARD_CODE = re.compile(r"\b\d{1,2}[gobr]\b")


# ----- helpers --------------------------------------------------------------------------------
DESKTOP = {"width": 1440, "height": 900}

def assert_readable(page, numero: bool = False) -> None:
    """No "None", no Python dict, and (Numero) no raw card code in what the page shows."""
    text = page.locator("main").inner_text()
    assert not re.search(r"\bNone\b", text), text
    assert "{'" not in text, text
    if numero:
        assert not CARD_CODE.search(text), CARD_CODE.findall(text)


def box(page, selector: str) -> dict:
    locator = page.locator(selector).first
    expect(locator).to_be_visible()
    b = locator.bounding_box()
    assert b is not None and b["width"] > 0 and b["height"] > 0, selector
    return b


def overlap(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] - 0.5 and b["x"] < a["x"] + a["width"] - 0.5
            and a["y"] < b["y"] + b["height"] - 0.5 and b["y"] < a["y"] + a["height"] - 0.5)


# The visible elements of the board (with a size) that overlap the score list, as `overlap`
# measures, read in one call: asking element by element took thousands of round trips a page.
BOARD_ON_SCORES_JS = """
() => {
  const overlap = (a, b) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5
      && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
  const scores = document.querySelector('.replay .table-scores ul').getBoundingClientRect();
  return [...document.querySelectorAll('.replay .table-board *')]
    .filter((el) => el.checkVisibility({visibilityProperty: true}))
    .filter((el) => { const r = el.getBoundingClientRect(); return r.width && r.height && overlap(r, scores); })
    .map((el) => el.outerHTML.slice(0, 80));
}
"""


def on_top(page, selector: str) -> bool:
    """Is the element what the browser shows at its own centre (nothing drawn over it)?"""
    return page.locator(selector).first.evaluate(
        """el => { el.scrollIntoView({block: "center"});
                   const r = el.getBoundingClientRect();
                   const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                   return hit !== null && (hit === el || el.contains(hit)); }""")


def play_to_end(game_id: int) -> Game:
    """Every seat decides like a beginner bot, through the real move service."""
    game = Game.objects.get(pk=game_id)
    engine = engines.get(game.key)
    for _ in range(5000):
        game.refresh_from_db()
        if game.state["finished"]:
            return game
        name = engine.waiting_for(game.state)[0]
        seat = game.seats.get(name=name)
        action = engines.make_bot(game.key, "beginner", game.version).choose(engine.view(game.state, name))
        assert game_apply_move(game_id=game.pk, seat=seat, action=action,
                               expected_version=game.version, schedule_bots=False).applied
    raise AssertionError("the game did not finish")


def finished_game(classroom, student, key: str, bots: list[str], seed: int = 4, options=None) -> Game:
    def make():
        seats = [SeatSpec("Ann", user=student)] + [SeatSpec(n, bot_level="beginner") for n in bots]
        game = game_create(key=key, classroom=classroom, seed=seed, seats=seats, options=options or {})
        return play_to_end(game.pk)
    return off_the_loop(make)


# ----- 1. the replay page ---------------------------------------------------------------------
REPLAYED = [("smooth_operator", ["Robo", "Zip"], {"target": 60}),
            ("numero", ["Robo"], {}),
            ("multiplication", ["Robo"], {"hand_size": 4}),
            ("add_or_multiply", ["Robo", "Zip"], {})]


@pytest.mark.parametrize("key,bots,options", REPLAYED, ids=[r[0] for r in REPLAYED])
def test_the_replay_page_lays_out_cleanly(live_daphne, browser, classroom, student, teacher,
                                          key, bots, options):
    game = finished_game(classroom, student, key, bots, options=options)
    moves = game.moves.filter(accepted=True).count()
    # A position one of Ann's choices was judged from, when there is one: its verdicts show too.
    judged = sorted(SkillEvidence.objects.filter(game=game)
                    .exclude(measure__in=("all.rule_errors", "all.think_time")).values_list("turn", flat=True))
    turn = judged[0] if judged else min(3, moves)
    for user in (student, teacher):
        for width in WIDTHS:
            page = signed_in_page(browser, live_daphne, user, {"width": width, "height": 900})
            page.goto(f"{live_daphne}/game/{game.pk}/replay/?turn={turn}")
            title = page.get_by_role("heading", level=1)
            back = page.get_by_role("link", name="Back to the results")
            expect(title).to_be_visible()
            expect(back).to_be_visible()
            parts = {name: box(page, sel) for name, sel in (
                ("title", ".replay h1"), ("back", ".replay a:has-text('Back to the results')"), ("steps", ".replay-steps"),
                ("said", ".replay-said"), ("board", ".replay .table-board"),
                ("scores", ".replay .table-scores ul")) + ((("verdicts", ".replay-verdicts"),) if judged else ())}
            names = list(parts)
            for i, a in enumerate(names):
                for b in names[i + 1:]:
                    assert not overlap(parts[a], parts[b]), f"{key} at {width}px: {a} overlaps {b}"
            # Nothing on the board sits on the score list, element by element.
            on_scores = page.evaluate(BOARD_ON_SCORES_JS)
            assert not on_scores, f"{key} at {width}px: the board overlaps the scores: {on_scores}"
            for sel in (".replay h1", ".replay a:has-text('Back to the results')"):
                assert on_top(page, sel), f"{key} at {width}px: {sel} is covered"
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), \
                f"{key} at {width}px: the page scrolls sideways"
            assert_readable(page, numero=key == "numero")
            back.click()
            # The results page opens its table's socket: wait for it, so that nothing of this
            # page is still in flight when the context closes.
            page.wait_for_url(f"**/game/{game.pk}/")
            expect(page.locator("#results-title")).to_be_visible()
            expect(page.locator("[data-connection]")).to_have_text("Connected")
            page.context.close()


# ----- 2. Smooth Operator's mental maths, and focus after a move ------------------------------
def so_fixed_game(classroom, student, hand, high=13, low=5) -> Game:
    """Robo's turn, Ann answers first with `hand` on `high` and `low`, mental maths on."""
    def make():
        assignment = Assignment.objects.create(classroom=classroom, title="Quick sums",
                                               game="smooth_operator", mental_math=True)
        seats = [SeatSpec("Robo", bot_level="beginner"), SeatSpec("Ann", user=student)]
        game = game_create(key="smooth_operator", classroom=classroom, seed=1, assignment=assignment,
                           options={"target": 500}, seats=seats)
        state = engines.get("smooth_operator").new_game(
            ["Robo", "Ann"], {"target": 500}, 1,
            {"order": ["Robo", "Ann"], "hands": {"Ann": hand, "Robo": ["x", "-", "free_turn"]},
             "high_deck": [high, 17, 18, 19], "low_deck": [low, 2, 3, 4]})
        Game.objects.filter(pk=game.pk).update(state=state)
        game.refresh_from_db()
        return game
    return off_the_loop(make)


def test_mental_maths_asks_only_about_cards_that_can_be_played_and_focus_stays_on_the_board(
        live_daphne, browser, classroom, student):
    game = so_fixed_game(classroom, student, ["/", "double", "+"])
    page = signed_in_page(browser, live_daphne, student, DESKTOP)
    page.goto(f"{live_daphne}/game/{game.pk}/")
    expect(page.locator("[data-connection]")).to_have_text("Connected")
    board = page.locator("#table-board")
    # + can be played on 13 and 5: it is marked in words and asks its question.
    playable = board.locator(".so-playable")
    expect(playable).to_have_count(1)
    expect(playable).to_contain_text("✓ can play")
    expect(page.get_by_label("13 + 5 =")).to_be_visible()
    expect(board.get_by_role("textbox")).to_have_count(1)
    # The answer box is a child's target: at least 44 × 44 px (it was 38 px tall).
    answer = page.get_by_label("13 + 5 =").bounding_box()
    assert answer["width"] >= 44 and answer["height"] >= 44, answer
    # ÷ does not divide evenly: it says so instead of asking 13 ÷ 5.
    expect(board).not_to_contain_text("13 ÷ 5 =")
    expect(board).to_contain_text("13 ÷ 5 doesn't divide evenly, so ÷ can't be played now.")
    # Double is a special card: no answer box, no Play button, and its reason in words.
    expect(board).to_contain_text("Double is a special card")
    expect(board.get_by_role("button", name=re.compile("Double"))).to_have_count(0)
    assert_readable(page)

    # By keyboard only: type the answer, press Enter. After each re-drawn board, focus stays
    # on the board (the next thing to do), never back at the top of the page.
    page.get_by_label("13 + 5 =").focus()
    page.keyboard.type("18")
    page.keyboard.press("Enter")
    expect(board).to_contain_text("Right! 13 + 5 = 18.", timeout=TIMEOUT)
    engine = engines.get("smooth_operator")
    for _ in range(200):
        game.refresh_from_db()
        if game.version > 1 and "Ann" in engine.waiting_for(game.state):
            break
        page.wait_for_timeout(50)  # Robo is thinking
    else:
        raise AssertionError("Ann never had another decision")
    page.locator(f'#table-board[data-version="{game.version}"]').wait_for()
    page.wait_for_function("() => document.activeElement && document.activeElement !== document.body")
    focused = page.evaluate("""() => { const el = document.activeElement;
        return {inBoard: !!el.closest('#table-board .so-board'), tag: el.tagName, id: el.id}; }""")
    assert focused["inBoard"] and focused["tag"] in ("BUTTON", "INPUT"), focused
    assert focused["id"].startswith("so-"), focused
    assert_readable(page)


# ----- 3. Numero: cards in words, and what counts at this level -------------------------------
def numero_fixed_game(classroom, student) -> Game:
    def make():
        options = {"wilds": ["divide"]}
        seats = [SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="beginner")]
        game = game_create(key="numero", classroom=classroom, seed=3, options=options, seats=seats)
        state = engines.get("numero").new_game(
            ["Ann", "Robo"], options, 3,
            {"hands": {"Ann": ["5g", "/2", "3o", "8b", "9r"], "Robo": ["1g", "4o", "6b", "7r", "12r"]},
             "centre": ["10g", "2b"]})
        Game.objects.filter(pk=game.pk).update(state=state)
        game.refresh_from_db()
        return game
    return off_the_loop(make)


def test_numero_names_cards_in_words_and_says_what_counts(live_daphne, browser, classroom, student):
    game = numero_fixed_game(classroom, student)
    page = signed_in_page(browser, live_daphne, student, DESKTOP)
    page.goto(f"{live_daphne}/game/{game.pk}/")
    expect(page.locator("[data-connection]")).to_have_text("Connected")
    # Most cards won wins at this level: the side panel counts cards, not points.
    scores = page.locator("#table-scores")
    expect(scores).to_contain_text("0 cards won")
    expect(scores).not_to_contain_text("pts")
    expect(scores).not_to_contain_text("point")

    page.get_by_role("button", name="wild card divide by 2").click()
    page.get_by_role("button", name="Play your wild card ÷2 on 10 green: 10 ÷ 2 = 5").click()
    log = page.locator("#table-log")
    expect(log).to_contain_text("Ann played wild card ÷2 on green 10: 10 ÷ 2 = 5.")
    page.get_by_role("button", name="5 green").click()
    page.get_by_role("button", name="5 (10 green, ÷2 wild card divide by 2)").click()
    page.get_by_role("button", name="Take with your 5").click()
    expect(log).to_contain_text("Ann took with green 5 (5): 1 take, 3 cards.")
    # Robo's turn: whatever Robo does, the sentence names cards in words.
    expect(log).to_contain_text("Robo")
    expect(page.locator("#table-status")).to_contain_text("Your turn")
    expect(scores).to_contain_text("Ann (you)")
    expect(scores.locator(".player-me")).to_contain_text("3 cards won")
    assert_readable(page, numero=True)


# ----- 4. Add or Multiply?: the teacher's Watch view, and a finished game ---------------------
def test_the_teacher_sees_each_secret_choice_in_words(live_daphne, browser, classroom, student, teacher):
    def make():
        seats = [SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="beginner"),
                 SeatSpec("Zip", bot_level="beginner")]
        game = game_create(key="add_or_multiply", classroom=classroom, seed=2, seats=seats)
        play_bot_moves(game_id=game.pk)  # Robo and Zip choose; Ann has not yet
        game.refresh_from_db()
        return game
    game = off_the_loop(make)
    pending = game.state["pending"]
    assert set(pending) == {"Robo", "Zip"}
    sign = {"+": "+ (add)", "x": "× (multiply)"}
    page = signed_in_page(browser, live_daphne, teacher, DESKTOP)
    page.goto(f"{live_daphne}/game/{game.pk}/")
    expect(page.locator("[data-connection]")).to_have_text("Connected")
    board = page.locator("#table-board")
    for name in ("Robo", "Zip"):
        (a, n), (b, m) = pending[name]["on"].items()
        expect(board).to_contain_text(f"{name}: sends {n} to {a} and {m} to {b}, "
                                      f"keeps {sign[pending[name]['operation']]}")
    expect(board).to_contain_text("Ann: still choosing")
    assert_readable(page)

    # The test plays every seat from here, the computer players' too; an open page would ask the
    # server to wake those players when it hears nothing for a few seconds, and the server's
    # move and the test's would race for the same turn. So the page goes first.
    page.context.close()
    off_the_loop(play_to_end, game.pk)
    for user in (teacher, student):
        page = signed_in_page(browser, live_daphne, user, DESKTOP)
        page.goto(f"{live_daphne}/game/{game.pk}/")
        expect(page.locator("#results-title")).to_be_visible()
        expect(page.locator("#table-board")).not_to_contain_text("still choosing")
        expect(page.locator("#table-board")).to_contain_text("All 5 rounds played")
        assert_readable(page)


# ----- 5. The Multiplication Game: what a negative score means --------------------------------
def test_multiplication_results_say_what_the_score_means(live_daphne, browser, classroom, student):
    game = finished_game(classroom, student, "multiplication", ["Robo"], seed=7, options={"hand_size": 7})
    left = {p: len(h) for p, h in game.state["hands"].items()}
    assert any(left.values()), "someone should still hold cards at the end"
    page = signed_in_page(browser, live_daphne, student, DESKTOP)
    page.goto(f"{live_daphne}/game/{game.pk}/")
    results = page.locator(".results-table")
    expect(results).to_be_visible()
    for name, n in left.items():
        row = results.locator("tr", has=page.locator("th", has_text=name))
        said = f"−{n}: {n} card{'s' if n != 1 else ''} left in hand" if n else "0: no cards left in hand"
        expect(row.locator("td").first).to_have_text(said)
    expect(page.locator(".results")).to_contain_text("fewer cards left is better")
    assert_readable(page)
