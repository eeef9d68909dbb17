"""Smooth Operator at the table: the status line, the board's values, the results screen and
the mental-maths mode (set per assignment: the responder types h (op) l before playing the
card; a wrong answer never blocks the move, and the player sees a gentle correction worked
out from their own last recorded move, so it survives reloads and the bots' moves)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.engine import smooth_operator as engine_package
from games.engine.smooth_operator.skills import SKILLS
from games.engine.words import pgettext  # English, found by makemessages
from games.spec import GameSpec, MentalMathHook, SeatMove, presets_from
from games.words import Spoken, say

SYMBOLS = {"+": "+", "-": "−", "x": "×", "/": "÷"}
SPECIALS = ("free_turn", "double", "free_choice")


def your_turn(view: dict) -> str:
    decision = view.get("decision")
    high, low, active = view.get("high"), view.get("low"), view.get("active")
    if decision == "response":
        return _("Your turn: pick an operator for %(high)s and %(low)s. The points go to %(active)s, "
                 "so give as few as you can.") % {"high": high, "low": low, "active": active}
    if decision == "penalty":
        return _("You can't play any operator, so give up one special card (it costs 25 points).")
    if decision == "specials":
        return _("Everyone has answered: your turn is worth %(points)s points. "
                 "Play a special card, or end your turn.") % {"points": view.get("turn_points")}
    return _("Your turn.")


# Stable, readable element ids per card: htmx and app.js keep focus on an element with the
# same id across a swap, so an id must name the same card and control every time.
SLUG = {"+": "add", "-": "subtract", "x": "multiply", "/": "divide",
        "free_turn": "free-turn", "double": "double", "free_choice": "free-choice"}
NAME = {"+": pgettext_lazy("operator card", "add"), "-": pgettext_lazy("operator card", "subtract"),
        "x": pgettext_lazy("operator card", "multiply"), "/": pgettext_lazy("operator card", "divide"),
        "free_turn": pgettext_lazy("Smooth Operator card", "Free Turn"),
        "double": pgettext_lazy("Smooth Operator card", "Double"),
        "free_choice": pgettext_lazy("Smooth Operator card", "Free Choice")}
SIGN_LABEL = {sign: (SYMBOLS[sign], NAME[sign]) for sign in SYMBOLS}


def hand_cards(view: dict) -> list[dict]:
    """Each card of the player's hand as the board shows it, from the engine's own legal moves
    (`view["legal_actions"]`) and its reasons (`view["why_not"]`): what pressing it does
    ("play", "penalty", "special", "free_choice") or nothing ("static"), its action, the
    question it asks in mental maths, and why it can't be used now."""
    legal = view.get("legal_actions") or []
    why_not = view.get("why_not") or {}
    high, low = view.get("high"), view.get("low")
    seen: dict[str, int] = {}
    cards = []
    for card in view.get("hand") or []:
        seen[card] = seen.get(card, 0) + 1
        entry = {"code": card, "name": NAME.get(card, card),
                 "id": f"so-{SLUG.get(card, 'card')}-{seen[card]}", "kind": "static",
                 "action": None, "question": "", "signs": [], "why": say(why_not.get(card, ""))}
        for action in legal:
            if action["type"] == "play" and action["card"] == card:
                entry.update(kind="play", action=action,
                             question=f"{high} {SYMBOLS[card]} {low} =")
            elif action["type"] == "penalty" and action["discard"] == card:
                entry.update(kind="penalty", action=action)
            elif action["type"] == "special" and action["card"] == card:
                if card == "free_choice":
                    symbol, word = SIGN_LABEL[action["sign"]]
                    entry["kind"] = "free_choice"
                    entry["signs"].append({"action": action, "symbol": symbol, "word": word,
                                           "id": f"{entry['id']}-{SLUG[action['sign']]}"})
                else:
                    entry.update(kind="special", action=action)
        cards.append(entry)
    return cards


def board_context(view: dict) -> dict:
    end = next((a for a in view.get("legal_actions") or [] if a["type"] == "end_turn"), None)
    return {"so_hand": hand_cards(view), "so_end_turn": end}


def answer_feedback(last: SeatMove | None) -> dict | None:
    """How the player's latest answer went: {"correct", "question", "answer", "expected"}."""
    if last is None or last.answer is None:
        return None
    facts = last.analysis or {}
    expected, op = facts.get("correct_answer"), facts.get("chosen")
    if expected is None or op not in SYMBOLS:
        return None
    question = f"{facts.get('high')} {SYMBOLS[op]} {facts.get('low')}"
    return {"correct": bool(facts.get("answer_correct")), "answer": last.answer, "expected": expected,
            "question": question, "equation": f"{question} = {expected}"}


def mental_math_context(view: dict, last: SeatMove | None) -> dict:
    return {"mental_math": True, "mm_symbols": SYMBOLS, "mm_feedback": answer_feedback(last)}


KEY = "smooth_operator"

SPEC = GameSpec(
    key=KEY,
    name=Spoken(pgettext("game name", "Smooth Operator")),
    pitch=gettext_lazy("Pick the operator that gives the fewest points."),
    engine=engine_package.ENGINES[KEY],
    bots=engine_package.BOTS_BY_GAME[KEY],
    presets=presets_from(engine_package.PRESETS_BY_GAME[KEY]),
    free_play_bots=2,
    # The engine's default target (500) could be reached in the first turn of a table of four
    # (three responders can give up to 600: see PRESETS); the Quick preset's cannot.
    free_play_options=dict(engine_package.PRESETS_BY_GAME[KEY]["quick"]["options"]),
    board_template="games/boards/smooth_operator.html",
    stylesheets=("css/games/smooth_operator.css",),
    ratings=engine_package.RATINGS_BY_GAME[KEY],
    # The next thing to do: an answer box, a card that can be played, a special card's
    # button, "End my turn" (the controls' ids are stable, so focus usually stays put).
    focus_next=("#table-board .so-board .so-playable input.mm-answer",
                "#table-board .so-board .so-playable button:not([disabled])",
                "#table-board .so-board #so-end-turn"),
    your_turn=your_turn,
    board_context=board_context,
    mental_math=MentalMathHook(context=mental_math_context),
    skills=SKILLS,
)
