"""Smooth Operator's skill measures and evidence extractors (docs/reports.md, "The principles";
how each is counted: docs/reports.md). Pure: reads the analysis `engine.analyse` recorded.

- so.lowest_operator (strategy): a response judged by the expert bot's own evaluation of every
  legal card (the award now plus what the kept hand will still give away); a chance is a
  response where some card is worse than the expert's, a miss a card worse than it, the amount
  the points given away (the regret).
- so.even_division (arithmetic, ÷): a chance is a decision where ÷ could be tried (holding ÷ to
  answer, or Free Choice as the active player) on a pair that does not divide exactly; a miss
  is trying ÷ there (refused: uneven_division, judged here and not also as a rule error). An
  exact ÷ cannot be got wrong arithmetically: skipping one is strategy (so.lowest_operator).
- so.specials (strategy): one active turn; only what the expert bot never does is a miss
  (analyse.specials_verdict); amount: the points missed.
- so.mental_math (arithmetic, per operation): the answer given with an accepted move.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator, Sequence

from ..skills import OPERATIONS, Candidate, ClassMove, GameSkills, Measure, MoveFacts, Planted, Unit, longest_run
from . import rules
from .analyse import CLEAR_FREE_CHOICE_GAIN, recorded_regrets, recorded_specials
from .planted import PlantedSmoothOperator
from .verdicts import explain
from ..words import _, names_in_words, ngettext_lazy, pgettext

GAME = "smooth_operator"
DIVISION = "÷"

MEASURES = (
    Measure("so.lowest_operator", GAME, _("Best card"),
            _("Gave away more points than the best card would"), _("responses"),
            _("When responding, plays the card that gives away the fewest points, now and with the "
            "hand it keeps (as the expert computer player judges it)."),
            well_words=pgettext("what the player did well, read after “You” or a name", "chose the card that gives away the fewest points now and later"),
            # Translators: a total's heading in the skill reports, and an amount on the moves page.
            amount_words=Unit(_("Points given away"),
                              # Translators: an amount on the moves page (%(n)s may be "2.5": an estimate).
                              ngettext_lazy("%(n)s point given away", "%(n)s points given away")),
            family="strategy"),
    Measure("so.even_division", GAME, _("Exact division"),
            _("Tried ÷ when it does not divide exactly"), _("turns when ÷ does not divide exactly"),
            _("Knows when ÷ works out exactly."),
            well_words=pgettext("what the player did well, read after “You” or a name", "knew when dividing does not work out exactly"),
            family="arithmetic", by_operation=True),
    Measure("so.specials", GAME, _("Special cards"),
            _("Wasted a special card"), _("turns with a special card to use"),
            _("Plays Free Turn, gives Free Choice its best sign, uses Free Choice when it adds "
              "%(points)s points or more or wins the game, and never doubles 0.",
              points=CLEAR_FREE_CHOICE_GAIN),
            well_words=pgettext("what the player did well, read after “You” or a name", "used the special cards well"),
            # Translators: a total's heading in the skill reports, and an amount on the moves page.
            amount_words=Unit(_("Points missed"),
                              # Translators: an amount on the moves page, "8 points missed" (%(n)s may be "2.5").
                              ngettext_lazy("%(n)s point missed", "%(n)s points missed")),
            family="strategy"),
    Measure("so.mental_math", GAME, _("Mental maths"),
            _("Worked out the answer wrong"), _("answers"),
            _("Computes the result before playing the card."),
            well_words=pgettext("what the player did well, read after “You” or a name", "worked out the answer correctly"),
            family="arithmetic", by_operation=True),
)


def division_possible(kind, hand) -> bool:
    """Whether ÷ can be tried at this decision: held when answering (a response, or stuck),
    or a Free Choice held by the active player."""
    return "/" in hand if kind in ("response", "penalty") else kind == "specials" and "free_choice" in hand


def per_attempt(m: MoveFacts, err: str) -> Iterator[Candidate]:
    a = m.analysis
    kind = a.get("kind")
    decision = m.version_before
    hand, high, low = a.get("hand") or (), a.get("high"), a.get("low")
    if high is not None and low and high % low and division_possible(kind, hand):
        yield decision, "so.even_division", DIVISION, err == "uneven_division", None
    if err:
        return  # a refused try: an uneven ÷ is the so.even_division miss above, any other a rule error
    if kind == "response":
        regrets = recorded_regrets(a)
        if any(r > 0 for r in regrets.values()):
            regret = regrets.get(a.get("chosen"), 0.0)
            yield decision, "so.lowest_operator", "", regret > 0, regret
    elif kind == "specials":
        chance, miss, given_up = recorded_specials(a)
        if chance:
            yield ("turn", a.get("turn")), "so.specials", "", bool(miss), given_up if miss else 0.0
    # The answer judged is the one given with the move that was played: a try the rules
    # refused is never a mental-maths miss, whatever answer came with it.
    if a.get("answer_correct") is not None:
        operation = a.get("answer_operation") or rules.SYMBOL.get(
            a.get("sign") if kind == "specials" else a.get("chosen"), "")
        yield decision, "so.mental_math", operation, not a["answer_correct"], None


# "Practise this" (docs/rules-smooth-operator.md, "House options: focus"): an operation's
# sign as its operator-card symbol, and what a focused game of it sets.
SIGN_OF = {"+": "+", "−": "-", "×": "x", "÷": "/"}
OPERATION_OF = {sign: op for op, sign in SIGN_OF.items()}
# Translators: an operation's name in brackets after its sign: "÷ (dividing)".
OPERATION_NAMES = {"+": pgettext("an operation, after its sign", "adding"),
                   "−": pgettext("an operation, after its sign", "taking away"),
                   "×": pgettext("an operation, after its sign", "multiplying"),
                   "÷": pgettext("an operation, after its sign", "dividing")}
PRACTICE_OPERATIONS = 2  # at most this many weakest operations are focused at once
# Measures no deal can focus, and why, in a teacher's words (their practice is the usual game) (expert self-play,
# `selfplay --measures`, docs/reports.md): most answers already are chances of the best card;
# more special cards in the pack end games sooner (Doubles and Free Choice add points), at
# best 1.9x; more ÷ cards leave players stuck more often, and the game ends sooner with fewer
# chances to see that ÷ does not work out.
NO_FOCUS = {
    "so.lowest_operator": _(
        "“Best card” has no practice deal of its own: almost every answer in Smooth Operator "
        "already asks which card gives away the fewest points, so no deal of the cards gives "
        "many more chances."),
    "so.specials": _(
        "“Special cards” has no practice deal of its own: more special cards in the pack also "
        "end the game sooner, so no deal gives twice the chances to use them."),
    "so.even_division": _(
        "“Exact division” has no practice deal of its own: more ÷ cards leave players stuck "
        "more often and the game ends sooner, so no deal gives more chances to see when ÷ does "
        "not work out."),
}
# Low cards 1-5 with ÷ (most pairs divide exactly) and with × (small products, and a game
# long enough for many of them).
LOW_CARDS = [1, 5]


def _operations(ops: Sequence[str]) -> dict:
    signs = []
    for op in ops:
        sign = SIGN_OF.get(op)
        if sign and sign not in signs:
            signs.append(sign)
    signs = signs[:PRACTICE_OPERATIONS]
    if not signs:
        return {}
    options: dict = {"focus_operators": signs}
    if "/" in signs or "x" in signs:
        options["low_range"] = list(LOW_CARDS)
    return options


def practice(measure_id: str, detail: str, weakest: Sequence[str] = ()) -> dict | None:
    """Mental maths with one operation -> many cards of its sign (÷ and × with low cards 1-5);
    mental maths as a whole -> the student's weakest operations; the other measures -> None
    (NO_FOCUS says why)."""
    if measure_id == "so.mental_math":
        return _operations([detail] if detail else weakest)
    return None


def focus_words(options: dict) -> list[str]:
    """What the focus options do, for the teacher."""
    words = []
    operations = [OPERATION_OF.get(s, s) for s in options.get("focus_operators") or []]
    if operations:
        # Translators: an operation's sign and its name: "÷ (dividing)".
        names = names_in_words([_("%(sign)s (%(name)s)", sign=op, name=OPERATION_NAMES[op])
                                if op in OPERATION_NAMES else op for op in operations])
        # Translators: what a practice game's option does: "Many more ÷ (dividing) operator cards."
        words.append(_("Many more %(operations)s operator cards.", operations=names))
    low, high = options.get("low_range"), options.get("high_range")
    if low:
        # Translators: what a practice game's option does: "Low number cards from 1 to 5 only."
        words.append(_("Low number cards from %(low)s to %(high)s only.", low=low[0], high=low[1]))
    if high:
        # Translators: what a practice game's option does: "High number cards from 20 to 50 only."
        words.append(_("High number cards from %(low)s to %(high)s only.", low=high[0], high=high[1]))
    return words


def focus_scope(measure: Measure, detail: str, options: dict) -> tuple[str, tuple[str, ...]] | None:
    """A per-operation measure practised as a whole practises the focused operations."""
    if not measure.by_operation or detail or not options.get("focus_operators"):
        return None
    operations = tuple(OPERATION_OF[s] for s in options["focus_operators"]
                       if OPERATION_OF.get(s) in OPERATIONS)
    # Translators: what a practice game practises: a skill and its operations, "Mental maths: ÷ and ×".
    return _("%(skill)s: %(operation)s", skill=measure.title, operation=names_in_words(list(operations))), operations


# ----- the class's live line (the arena's projector) ----------------------------------------
# With mental maths on, a run of answers worked out right (no sum, no name: only how many);
# otherwise the operator card played most often in answer to the turned-over numbers (a
# played card lies face up on the table: the `play` event). A penalty's given-up special and
# the cards still in hands are never read.

# A run of answers shorter than this is no news: the line then names the most played card.
MIN_RUN = 3


def class_line(moves: Sequence[ClassMove]) -> dict | None:
    """'23 sums worked out right in a row.', or 'Most played operator card: × (31 times).'"""
    answers = [(None, bool(m.analysis.get("answer_correct"))) for m in moves
               if m.accepted and m.analysis.get("answer_correct") is not None]
    best = longest_run(answers)
    if best is not None and best[1] >= MIN_RUN:
        return {"line": "sums_run", "count": best[1]}
    played = Counter(event["card"] for move in moves for event in move.events
                     if event.get("type") == "play" and event.get("card") in rules.SYMBOL)
    if not played:
        return None
    order = {card: i for i, card in enumerate(rules.ARITHMETIC)}
    card, count = max(played.items(), key=lambda item: (item[1], -order[item[0]]))
    return {"line": "most_played_operator", "card": rules.SYMBOL[card], "count": count}


SKILLS = GameSkills(
    measures=MEASURES,
    analysis_keys=("kind", "hand", "high", "low", "chosen", "sign", "regrets", "turn",
                   "specials_held", "turn_points", "doubles", "free_choice_points",
                   "specials_chance", "specials_miss", "specials_given_up",
                   "answer_correct", "answer_operation", "analysis_error"),
    per_attempt=per_attempt,
    judged_errors={"uneven_division": "so.even_division"},
    # 2: the measures of revision 2 (expert regrets, specials verdicts, operations).
    analysis_revision=2,
    # Simulated games to 500 points: many chances each.
    planted=Planted(PlantedSmoothOperator, options={"target": 500}),
    practice=practice,
    focus_words=focus_words,
    focus_scope=focus_scope,
    no_focus=NO_FOCUS,
    class_line=class_line,
    explain=explain,
)
