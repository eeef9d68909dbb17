"""Helpers for the browser tests in Spanish and Arabic (docs/i18n.md; tests/browser/test_languages_browser.py).

- `T(language, msgid)`: what the catalogues say for an English msgid in that language, read at
  run time (the tests never hard-code a translation, so a better wording does not break them);
  it fails when the msgid has no translation, naming it, so a string dropped from the
  catalogues is reported as such and not as a missing button.
- Making a child's move on a game table whatever the page's language. The helpers of
  test_play_browser.py find controls by their English names ("End my turn", "3. Put it down");
  these find the same controls by what no language changes: the move a form sends (its
  hidden `action`), the controls' ids and names, a card's value. The decisions themselves
  (which move a child makes) are still those of test_play_browser.py where it has one.
- Checks a person notices on any page: no sideways scrolling (right to left as well) and the
  readiness of a page with a socket, told by data attributes rather than words.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext, pgettext
from django.utils.translation.trans_real import DjangoTranslation
from playwright.sync_api import expect

from games import engine as engines
from games.engine.numero import is_number
from games.models import Game
from tests.browser.test_play_browser import mg_move, so_move

TIMEOUT = 15_000


# ----- words from the catalogues ---------------------------------------------------------------
def T(language: str, msgid: str, context: str | None = None, *, domain: str = "django") -> str:
    """`msgid` as the `language` catalogues translate it (`domain="djangojs"`: static/js)."""
    if domain == "djangojs":
        text = DjangoTranslation(language, domain="djangojs").gettext(msgid)
    else:
        with translation.override(language):
            text = pgettext(context, msgid) if context else gettext(msgid)
    assert text != msgid, f"{msgid!r} (context {context!r}, {domain}) has no {language} translation in the catalogues"
    return text


def html_is_in(page, language: str) -> None:
    """The page says its language and direction on <html>, and the body really runs that way."""
    html = page.locator("html")
    expect(html).to_have_attribute("lang", language)
    expect(html).to_have_attribute("dir", "rtl" if translation.get_language_info(language)["bidi"] else "ltr")
    assert page.evaluate("() => getComputedStyle(document.body).direction") == html.get_attribute("dir")


# ----- readiness -------------------------------------------------------------------------------
def socket_open(page) -> None:
    """The page's socket is open (static/js/live.js marks its connection line data-state="open")."""
    page.locator('[data-connection][data-state="open"]').wait_for(timeout=TIMEOUT)


def board_version(page) -> int:
    return int(page.locator("#table-board").get_attribute("data-version"))


def version_at_least(page, version: int) -> None:
    page.wait_for_function("(v) => Number(document.querySelector('#table-board')?.dataset.version) >= v",
                           arg=version, timeout=TIMEOUT)


def version_past(page, version: int) -> None:
    page.wait_for_function("(v) => Number(document.querySelector('#table-board')?.dataset.version) > v",
                           arg=version, timeout=TIMEOUT)


# ----- making the child's move ---------------------------------------------------------------
# The index of the board's form whose hidden `action` is this move (keys in any order).
FIXED_FORM_JS = """
(wanted) => {
  const canon = (v) => Array.isArray(v) ? v.map(canon)
    : (v && typeof v === 'object') ? Object.keys(v).sort().reduce((o, k) => { o[k] = canon(v[k]); return o; }, {})
    : v;
  const want = JSON.stringify(canon(wanted));
  return [...document.querySelectorAll('#table-board form.move-form')].findIndex((form) => {
    const field = form.querySelector('input[name="action"]');
    try { return !!field && JSON.stringify(canon(JSON.parse(field.value))) === want; } catch (e) { return false; }
  });
}
"""


def click_fixed_move(page, action: dict) -> None:
    """Press the button of the form that makes exactly this move (a card to play, End my turn,
    Draw a card, Give up a card...)."""
    index = page.evaluate(FIXED_FORM_JS, action)
    assert index >= 0, f"no form on the board makes the move {action}"
    page.locator("#table-board form.move-form").nth(index).locator("button[type=submit]").first.click()


def click_so(page, game: Game, name: str) -> None:
    click_fixed_move(page, so_move(game, name))


def click_mg(page, game: Game, name: str) -> None:
    action = mg_move(game, name)
    if action["type"] != "discard":
        click_fixed_move(page, action)
        return
    board = page.locator("#table-board")
    # Two cards of one number are the same move: either will do.
    board.locator(f'input[name="act-card"][value="{action["card"]}"]').first.check()
    a, b = action["declare"]
    board.locator("#mg-a").select_option(str(a))
    board.locator("#mg-b").select_option(str(b))
    board.locator("#mg-discard").click()


def click_am(page, game: Game, name: str) -> None:
    """Add or Multiply?: the choice a beginner computer player would make, made in the form."""
    engine = engines.get("add_or_multiply")
    action = engines.make_bot("add_or_multiply", "beginner", game.version).choose(engine.view(game.state, name))
    board = page.locator("#table-board")
    for opponent, number in action["on"].items():
        board.locator(f'select[name="act-on.{opponent}"]').select_option(str(number))
    board.locator(f'input[name="act-operation"][value="{action["operation"]}"]').check()
    board.locator("#am-play").click()


def numero_move(game: Game, name: str) -> dict:
    """A child's Numero move: a take of one group (fewest cards first), else a card put in the
    centre. Level 1 (numbers up to 10, no wild cards): every card is a number card."""
    actions = engines.get(game.key).legal_actions(game.state, name)
    takes = [a for a in actions if a["type"] == "take" and len(a["groups"]) == 1]
    if takes:
        return min(takes, key=lambda a: len(a["groups"][0]))
    discards = [a for a in actions if a["type"] == "discard"]
    assert discards, f"no take or discard for {name}: {actions[:5]}"
    return discards[0]


def click_numero(page, game: Game, name: str) -> None:
    """Tap the card in the hand, then each centre card of the group, then Take (or put the card
    in the centre). Each tap is answered by the server (htmx) before the next."""
    action = numero_move(game, name)
    card = action["card"]
    assert is_number(card) and card.isalnum(), card  # its element id is its code (level 1)
    mine = page.locator(f"#nm-hand-{card}")
    mine.click()
    expect(page.locator(f"#nm-hand-{card}")).to_have_attribute("aria-pressed", "true")
    if action["type"] == "take":
        for item in action["groups"][0]:
            page.locator(f"#nm-item-{item}").click()
            expect(page.locator(f"#nm-item-{item}")).to_have_attribute("aria-pressed", "true")
        take = page.locator("#nm-take")
        expect(take).to_be_enabled()
        take.click()
    else:
        page.locator("#nm-discard").click()


CLICKERS = {"smooth_operator": click_so, "multiplication": click_mg, "add_or_multiply": click_am,
            "numero": click_numero, "numero_solitaire": click_numero}


def play_to_the_end(page, game_id: int, name: str) -> Game:
    """Play `name`'s moves by the page until the game ends; the computer players play theirs on
    the server (their moves reach the page over its socket)."""
    for _ in range(600):
        game = Game.objects.get(pk=game_id)
        if game.state["finished"]:
            return game
        engine = engines.get(game.key)
        if name not in engine.waiting_for(game.state):
            version_past(page, game.version)  # a computer player's move reaches the page
            continue
        version_at_least(page, game.version)
        if board_version(page) != Game.objects.get(pk=game_id).version:
            continue  # something moved meanwhile: decide again from the new position
        CLICKERS[game.key](page, game, name)
        version_past(page, game.version)
    raise AssertionError(f"game {game_id} did not end")


# ----- pages that fit ------------------------------------------------------------------------
# How much wider than the window the page is, and the outermost elements that stick out (a
# right-to-left page overflows to the left). Needs PATH_JS
# (test_class_journey_browser) for the elements' paths.
SIDEWAYS_JS = """
() => {
  const root = document.scrollingElement || document.documentElement;
  const width = Math.min(root.clientWidth, window.innerWidth);
  const found = {scrollWidth: root.scrollWidth, width: width, outside: []};
  if (root.scrollWidth <= width) return found;
  const clipped = (el) => {
    for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') return true;
    }
    return false;
  };
  // Only what sticks out on the page's end side can be scrolled to (a left-to-right page's
  // right; a right-to-left page's left): a skip link parked off the other side cannot.
  const rtl = getComputedStyle(document.documentElement).direction === 'rtl';
  const out = (el) => {
    const r = el.getBoundingClientRect();
    const beyond = rtl ? r.left + window.scrollX < -0.5 : r.right + window.scrollX > width + 0.5;
    return r.width > 0 && beyond && !clipped(el);
  };
  for (const el of document.body.querySelectorAll('*')) {
    if (!out(el) || (el.parentElement && el.parentElement !== document.body && out(el.parentElement))) continue;
    const r = el.getBoundingClientRect();
    found.outside.push(`${window.__journeyPath(el)} (${Math.round(r.left + window.scrollX)}px to ` +
                       `${Math.round(r.right + window.scrollX)}px)`);
    if (found.outside.length >= 6) break;
  }
  return found;
}
"""
