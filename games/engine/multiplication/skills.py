"""The Multiplication Game's skill measures and evidence extractors (docs/reports.md, "The
measures"; how each is counted: docs/reports.md, "The Multiplication Game"). Pure: reads the
analysis `engine.analyse` recorded (analyse.py: the expert's judgement of the position, the fact
a card needed).

- mg.missed_play (strategy): a chance is a turn in which a card could be discarded (the
  expert bot then always discards); a miss is a draw. Amount: the cards more in hand than
  after a discard (the card kept, and the card drawn if one was left to draw).
- mg.squares (strategy): a chance is a turn in which a card was discarded while the expert
  would play a square (every discard it rates best is a square) and a card that is not a
  square was legal too; a miss is a discard that is not a square. Amount: the cards given up
  by the expert's own estimate. A draw is never a chance here (it is mg.missed_play's miss).
- mg.facts (arithmetic, per fact): a chance is a declaration for a number card; a miss is a
  false declaration (refused `bad_declaration`, which is this miss only, not also a rule
  error: `judged_errors`). The detail is the fact the card needed, not the fact said
  (analyse.needed_fact); the amount is the seconds the decision took.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator, Sequence

from ..skills import (FACT_RANGE, Candidate, ClassMove, GameSkills, Measure, MoveFacts, Planted, both_orders,
                      Unit, fact_name, longest_run, parse_fact)
from .planted import PlantedMultiplication
from .verdicts import explain
from ..words import _, names_in_words, ngettext, ngettext_lazy, pgettext

GAME = "multiplication"

MEASURES = (
    Measure("mg.missed_play", GAME, _("Sees plays"),
            _("Drew a card when a card could be played"), _("turns"),
            _("Notices a legal discard."),
            well_words=pgettext("what the player did well, read after “You” or a name", "spotted a card to play"),
            # Translators: a total's heading in the skill reports, and an amount on the moves page.
            amount_words=Unit(_("Cards more in hand"),
                              # Translators: an amount on the moves page (%(n)s may be "2.5": an estimate).
                              ngettext_lazy("%(n)s card more in hand", "%(n)s cards more in hand")),
            family="strategy"),
    Measure("mg.facts", GAME, _("Times tables"),
            _("Named a wrong times-table fact"), _("facts named"),
            _("Knows the multiplication facts (see the heat map)."),
            well_words=pgettext("what the player did well, read after “You” or a name", "named a times-table fact correctly"),
            # Translators: the fact a card needed, on the list of moves: "needed 7x8".
            detail_words=_("needed %(detail)s"),
            # Translators: the seconds a times-table fact took, on the list of moves.
            amount_words=Unit(_("Seconds"),
                              # Translators: the seconds a times-table fact took, on the moves page.
                              ngettext_lazy("%(n)s second", "%(n)s seconds")),
            fact_grid=True, family="arithmetic"),
    Measure("mg.squares", GAME, _("Squares"),
            _("Played another card when a square would skip a rival"), _("turns"),
            _("Plays a square to skip a rival when that is the best move."),
            well_words=pgettext("what the player did well, read after “You” or a name", "played a square to skip a rival"),
            # Translators: a total's heading in the skill reports, and an amount on the moves page.
            amount_words=Unit(_("Cards given up"),
                              # Translators: an amount on the moves page, "2 cards given up" (%(n)s may be "1.5").
                              ngettext_lazy("%(n)s card given up", "%(n)s cards given up")),
            family="strategy"),
)

# Refusals that are a miss of one of these measures only (not also a rule error).
JUDGED_ERRORS = {"bad_declaration": "mg.facts"}
# Refusals after which the declaration was still judged as a times-table fact: a true fact
# refused for sharing no multiplier with the open card is a fact known (and a rule error).
_FACT_CODES = ("", "bad_declaration", "no_common_multiplier")


def per_attempt(m: MoveFacts, err: str) -> Iterator[Candidate]:
    a = m.analysis
    kind = a.get("kind")
    if kind not in ("discard", "draw"):
        return
    decision = m.version_before
    # Strategy is judged on the move that was played (the decision's accepted attempt).
    if m.accepted:
        if a.get("could_discard"):
            missed = bool(a.get("missed_play"))
            yield decision, "mg.missed_play", "", missed, a.get("cards_given_up", 1) if missed else 0
        if kind == "discard" and a.get("square_chance"):
            missed = bool(a.get("missed_square"))
            yield decision, "mg.squares", "", missed, a.get("square_regret") if missed else 0
    fact = a.get("fact")
    # A free card accepts any fact, so it says nothing about knowing one (needed is None).
    if fact and fact.get("needed") and err in _FACT_CODES:
        seconds = m.think_ms / 1000 if m.think_ms is not None else None
        yield decision, "mg.facts", fact["needed"], err == "bad_declaration", seconds


# "Practise this" (docs/rules-multiplication.md, "House options: focus"): a focused pack deals
# each focused card three times; with ten cards each a focused game gives the focused facts
# at least 3x the chances of a classic one (expert self-play, `selfplay --focus`).
PRACTICE_HAND = 10
PRACTICE_FACTS = 4    # at most this many weakest facts are focused at once
TABLE_AFTER = 3       # weakest facts sharing one table: focus that table instead
# The strategy measures' focus (`selfplay --measures`): every square three times in the pack,
# dealt first. Hands hold squares, so mg.squares chances come several times as often; and a
# square makes the next player draw, so hands stay fuller and the game has more turns with a
# card to play (mg.missed_play: the ratio comes from the longer game, docs/reports.md).
SQUARES = [f"{k}x{k}" for k in FACT_RANGE]
STRATEGY_FOCUS: dict[str, dict] = {"mg.missed_play": {"focus_facts": SQUARES},
                                   "mg.squares": {"focus_facts": SQUARES}}


def _fact(detail: str) -> str | None:
    """"8x7" -> "7x8" (the focus option writes a fact smaller number first)."""
    fact = parse_fact(detail)
    return f"{min(fact)}x{max(fact)}" if fact else None


def practice(measure_id: str, detail: str, weakest: Sequence[str] = ()) -> dict | None:
    """mg.facts:7x8 -> that fact; mg.facts (whole) -> the student's weakest facts (worst
    first, as the report ranks them by the evidence), or a table of the worst fact when most
    of them share it; the strategy measures -> extra squares (`STRATEGY_FOCUS`)."""
    if measure_id in STRATEGY_FOCUS:
        return {k: list(v) if isinstance(v, list) else v for k, v in STRATEGY_FOCUS[measure_id].items()}
    if measure_id != "mg.facts":
        return None
    if detail:
        fact = _fact(detail)
        return {"focus_facts": [fact], "hand_size": PRACTICE_HAND} if fact else {}
    facts: list[str] = []
    for d in weakest:
        fact = _fact(d)
        if fact and fact not in facts:
            facts.append(fact)
    if not facts:
        return {}
    # A whole table only when it holds the worst fact: one of the worst fact's own two
    # tables, shared by TABLE_AFTER of the weakest facts. Any other table would leave the
    # fact the child most needs out of the practice.
    tables = Counter(n for f in facts[:PRACTICE_FACTS * 2] for n in {int(x) for x in f.split("x")})
    own = [n for n in {int(x) for x in facts[0].split("x")} if n > 1]
    if own:
        table = max(own, key=lambda n: (tables[n], n))
        if tables[table] >= TABLE_AFTER:
            return {"focus_tables": [table], "hand_size": PRACTICE_HAND}
    return {"focus_facts": facts[:PRACTICE_FACTS], "hand_size": PRACTICE_HAND}


def focus_words(options: dict) -> list[str]:
    """What the focus options and the practice preset's hand size do, for the teacher."""
    words = []
    facts = options.get("focus_facts") or []
    if sorted(facts) == sorted(SQUARES):
        # Translators: what a practice game's option does, for the teacher.
        words.append(_("Extra square cards (1, 4, 9, … 100): three of each in the pack, dealt first. "
                       "A square makes the next player draw and miss a turn."))
    elif facts:
        cards = names_in_words([f"{p[0] * p[1]} ({fact_name(f)})" for f in facts
                                if (p := parse_fact(f)) is not None])
        # Translators: what a practice game's option does: "Extra cards 56 (7 × 8) and 12 (3 × 4): ...".
        words.append(_("Extra cards %(cards)s: three of each in the pack, dealt first.", cards=cards))
    tables = options.get("focus_tables") or []
    if tables:
        # Translators: what a practice game's option does: "Extra cards of the 7 times table: ..."
        # (%(tables)s is one number, or a list of them: "7 and 8").
        words.append(ngettext("Extra cards of the %(tables)s times table: three of each card in the pack, "
                              "dealt first.",
                              "Extra cards of the %(tables)s times tables: three of each card in the pack, "
                              "dealt first.", len(tables), tables=names_in_words([str(t) for t in tables])))
    if options.get("hand_size"):
        # Translators: what a practice game's option does: "10 cards each, so there are more facts to name."
        words.append(ngettext("%(n)s card each, so there are more facts to name.",
                              "%(n)s cards each, so there are more facts to name.",
                              options["hand_size"], n=options["hand_size"]))
    return words


def focus_scope(measure: Measure, detail: str, options: dict) -> tuple[str, tuple[str, ...]] | None:
    """A heat-map measure's focus practises the focused facts (each in both orders, as the
    report counts them), named as the teacher chose them."""
    if not measure.fact_grid:
        return None
    chosen = list(options.get("focus_facts") or [])
    tables = list(options.get("focus_tables") or [])
    details: list[str] = []
    for fact in chosen + [f"{min(t, n)}x{max(t, n)}" for t in tables for n in FACT_RANGE]:
        details += [d for d in both_orders(fact) if d not in details]
    label = ((names_in_words([fact_name(f) for f in chosen]) if chosen else "")
             # Translators: what a practice game practises: "the 7 times table" ("the 7 and 8 times tables").
             or (ngettext("the %(tables)s times table", "the %(tables)s times tables", len(tables),
                          tables=names_in_words([str(t) for t in tables])) if tables else "")
             or measure.title)
    return label, tuple(details)


# ----- the class's live line (the arena's projector) ----------------------------------------
# A fact is face up once it is named right: the card goes down on the discard pile with its two
# multipliers said. A wrong declaration is refused and its card stays in the hand, so a wrong
# attempt only ends the run of the fact its card needed (analyse.needed_fact, as mg.facts
# counts it) and is never named itself. No player's name is read.

# A run shorter than this is no news: the line then counts the facts named right.
MIN_RUN = 3


def _class_outcomes(moves: Sequence[ClassMove]) -> Iterator[tuple[str, bool]]:
    """(needed fact "AxB", named right) for every judged times-table declaration, in order
    (a free card's declaration is true of every fact: it names no fact of the tables); a
    true fact counts only once its card is down."""
    for move in moves:
        fact = move.analysis.get("fact")
        if not isinstance(fact, dict) or (move.analysis.get("error") or "") not in _FACT_CODES:
            continue
        needed, right = fact.get("needed"), bool(fact.get("correct"))
        # A true fact refused (no common multiplier) left its card in the hand: not face up.
        if needed and (move.accepted or not right):
            yield needed, right


def class_line(moves: Sequence[ClassMove]) -> dict | None:
    """"7 × 8 named right 14 times in a row." (the longest run of one fact), or, with no run
    of MIN_RUN yet, how many of the recent facts were named right (ClassLine's facts)."""
    outcomes = list(_class_outcomes(moves))
    if not outcomes:
        return None
    best = longest_run(outcomes)
    if best is not None and best[1] >= MIN_RUN:
        a, b = parse_fact(best[0])
        return {"line": "fact_run", "a": a, "b": b, "count": best[1]}
    right = sum(1 for _, ok in outcomes if ok)
    return {"line": "facts_right", "right": right, "count": len(outcomes)}


SKILLS = GameSkills(
    measures=MEASURES,
    analysis_keys=("kind", "could_discard", "missed_play", "cards_given_up", "square_chance",
                   "missed_square", "square_regret", "fact", "analysis_error"),
    per_attempt=per_attempt,
    # Simulated games: long enough to give many chances, short enough to simulate quickly.
    planted=Planted(PlantedMultiplication, options={"hand_size": 10, "turn_limit": 50}),
    judged_errors=JUDGED_ERRORS,
    analysis_revision=2,
    practice=practice,
    focus_words=focus_words,
    focus_scope=focus_scope,
    class_line=class_line,
    explain=explain,
)
