"""Numero's (and Numero Solitaire's) skill measures and evidence extractors
(docs/reports.md, "The principles"; how each is counted and its known limits:
docs/reports.md). Pure: reads the analysis `engine.analyse` recorded (analyse.py: the expert
bot's judgement of the position before the move) and the challenge events.

- nu.missed_take (strategy): a chance is a turn-ending decision (take, build or discard)
  where the expert would end the turn with a take (perhaps after wild cards) and a build or
  discard was allowed (not a last turn, not Solitaire); a miss is a build or discard.
- nu.best_take (strategy): a chance is a take where a take winning fewer cards than the
  expert's take was possible right then; a miss is a take winning fewer cards than the
  expert's; the amount is the cards left behind (the expert's take minus the one made).
  A move the expert would make is never a miss of either.
- nu.valid_build (arithmetic, detail "+": a build adds): a chance is a build (tried or
  made) where a build without its answer card could be tried; a miss is a build refused as
  `no_answer_card` (this miss only, not also a rule error: `judged_errors`), or with
  challenges a bluff that was challenged and lost.
- nu.operations is retired: folded into nu.best_take (`RETIRED`).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator, Sequence

from ..skills import Candidate, ClassMove, GameSkills, Measure, MoveFacts, Planted, Unit
from .analyse import BUILD_OPERATION
from .planted import PlantedNumero
from .verdicts import explain
from ..words import _, names_in_words, ngettext_lazy, pgettext

GAME = "numero"

MEASURES = (
    Measure("nu.missed_take", GAME, _("Sees takes"),
            _("Built or discarded when the expert would take"), _("turns"),
            _("Takes when taking is the best move."),
            well_words=pgettext("what the player did well, read after “You” or a name", "spotted a take"), family="strategy"),
    Measure("nu.best_take", GAME, _("Biggest take"),
            _("Took fewer cards than the expert's take"), _("takes"),
            _("Takes as many cards as the best take, wild cards included."),
            well_words=pgettext("what the player did well, read after “You” or a name", "took as many cards as possible"),
            # Translators: a total's heading in the skill reports, and an amount on the moves page.
            amount_words=Unit(_("Cards left behind"),
                              # Translators: an amount on the moves page (%(n)s may be "2.5": an estimate).
                              ngettext_lazy("%(n)s card left behind", "%(n)s cards left behind")),
            family="strategy"),
    Measure("nu.valid_build", GAME, _("Honest builds"),
            _("Built without the answer in hand"), _("builds"),
            _("Builds only when holding the answer card."),
            well_words=pgettext("what the player did well, read after “You” or a name", "built only with the answer card in hand"),
            family="arithmetic", by_operation=True),
)

# nu.operations ("uses several operations in one take") was folded into nu.best_take in
# revision 2: operations only win a take more cards, and a take with fewer cards is one
# mistake, counted once, as cards left behind (docs/reports.md).
RETIRED = ("nu.operations",)

BUILD_CHANCE_CODES = frozenset({"", "no_answer_card"})


def per_attempt(m: MoveFacts, err: str) -> Iterator[Candidate]:
    a = m.analysis
    kind = a.get("kind")
    decision = m.version_before
    if not err and a.get("take_chance"):
        yield decision, "nu.missed_take", "", bool(a.get("missed_take")), None
    if not err and kind == "take" and a.get("best_take_chance"):
        behind = a.get("cards_left_behind") or 0
        yield decision, "nu.best_take", "", behind > 0, behind
    if kind == "build" and err in BUILD_CHANCE_CODES and a.get("wrong_build_possible"):
        yield decision, "nu.valid_build", BUILD_OPERATION, err == "no_answer_card", None


def lost_challenges(moves: list[MoveFacts], seat_names: dict[int, str],
                    students: set[int]) -> Iterator[tuple[MoveFacts, Candidate]]:
    """A bluff that was challenged and lost is a miss of the build that made it: the latest
    accepted bluffing build of that builder before the challenge."""
    by_name = {name: seat for seat, name in seat_names.items() if seat in students}
    last_bluff: dict[int, MoveFacts] = {}
    for m in moves:
        if m.seat_id in students and m.accepted and m.analysis and m.analysis.get("kind") == "build" \
                and m.analysis.get("bluff"):
            last_bluff[m.seat_id] = m
        for event in m.events or ():
            if event.get("type") == "challenge" and event.get("bluff"):
                seat = by_name.get(event.get("builder"))
                build = last_bluff.pop(seat, None) if seat is not None else None
                if build is not None:
                    yield build, (build.version_before, "nu.valid_build", BUILD_OPERATION, True, None)


# "Practise this" is played at the level the evidence came from, and a level's pack is the
# level's: every card exists once, so no deal gives a Numero measure more chances at the same
# level (expert self-play, `selfplay --measures`: every level gives about as many chances as
# the classic game, or fewer; level 6 gives nu.best_take about 2x the classic game's only by
# adding wild cards). Each measure's practice is the usual game at the child's level; why, in a
# teacher's words:
NO_FOCUS = {
    "nu.missed_take": _(
        "“Sees takes” has no practice deal of its own: a take is there on most turns of every "
        "Numero game already, and no level gives many more."),
    "nu.best_take": _(
        "“Biggest take” has no practice deal of its own: a level's pack holds each card once, "
        "so more chances would need the wild cards of a higher level, which the child has not "
        "played yet."),
    "nu.valid_build": _(
        "“Honest builds” has no practice deal of its own: the classic game already gives the "
        "most chances to build, and wild cards only make builds rarer."),
}


def practice(measure_id: str, detail: str, weakest: Sequence[str] = ()) -> dict | None:
    """No Numero measure has a focused deal at the level played (NO_FOCUS says why)."""
    return None


# The families of wild cards, as a teacher reads them in a list ("Wild cards: subtract and divide.").
WILD_WORDS = {"subtract": pgettext("Numero wild cards", "subtract"),
              "multiply": pgettext("Numero wild cards", "multiply"),
              "divide": pgettext("Numero wild cards", "divide"),
              "fraction": pgettext("Numero wild cards", "fraction"),
              "power": pgettext("Numero wild cards", "power and root")}


def focus_words(options: dict) -> list[str]:
    """The level played, and the wild cards when the focus chooses them."""
    if not options.get("level"):
        return []
    # Translators: what a practice game's option does, for the teacher: "Played at Numero level 6."
    words = [_("Played at Numero level %(level)s.", level=options["level"])]
    if "wilds" in options:
        wilds = options.get("wilds") or []
        if wilds:
            # Translators: the wild cards of a practice game: "Wild cards: subtract, multiply and divide."
            words.append(_("Wild cards: %(families)s.", families=names_in_words([WILD_WORDS.get(w, w) for w in wilds])))
        else:
            words.append(_("Wild cards: none."))
    return words


def focus_preset(options: dict) -> str | None:
    """A focus at level N is the preset `levelN` (so the level shown is the one played); the
    level sets the whole pack itself (docs/rules-numero.md)."""
    return f"level{options['level']}" if options.get("level") else None


# ----- the class's live line (the arena's projector) ----------------------------------------

def class_line(moves: Sequence[ClassMove]) -> dict | None:
    """"Most taken card: 12 (9 takes).": the value of the hand card that took most often. A
    take lays its card face up on the centre cards it wins (the `take` event), so the value
    was seen by the whole table; nobody's name is read. None before the first take."""
    taken = Counter(event["value"] for move in moves for event in move.events
                    if event.get("type") == "take" and isinstance(event.get("value"), int))
    if not taken:
        return None
    value, count = max(taken.items(), key=lambda item: (item[1], item[0]))
    return {"line": "most_taken_card", "card": value, "count": count}


SKILLS = GameSkills(
    measures=MEASURES,
    analysis_keys=("kind", "take_chance", "missed_take", "best_take_chance", "cards_left_behind",
                   "wrong_build_possible", "bluff", "analysis_error"),
    per_attempt=per_attempt,
    per_game=lost_challenges,
    # A build refused for want of its answer card is an nu.valid_build miss only (one
    # mistake, one measure), not also a rule error.
    judged_errors={"no_answer_card": "nu.valid_build"},
    # 2: revision 2 (the expert's judgement, nu.operations folded into nu.best_take).
    analysis_revision=2,
    # Simulated games are level 4 (subtract, multiply and divide wild cards: takes can use
    # them, and the expert's takes often do) without scoring, so without challenges: a build
    # without the answer card is refused (`no_answer_card`), never a bluff the player cannot
    # decide is a miss. Level 4 rather than 6: as many chances per game, found faster.
    planted=Planted(PlantedNumero, options={"wilds": ["subtract", "multiply", "divide"]}),
    practice=practice,
    focus_words=focus_words,
    focus_preset=focus_preset,
    no_focus=NO_FOCUS,
    class_line=class_line,
    explain=explain,
)
