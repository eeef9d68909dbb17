""""Practise this": from a skill measure (and the detail a report shows, e.g. the fact 7x8) to
a focused game, in the words a teacher reads.

Each game declares its own hook (`GameSkills.practice`, in games/engine/<game>/skills.py):
pure, measure -> the focus house options of docs/rules-*.md. This module finds the game of a
measure, calls its hook, and says what the options do. An assignment stores the result
(`Focus.as_json`) in `Assignment.focus`: what was practised, so that the reports can show the
skill before the assignment and during it (reports/selectors.py `focus_outcomes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from games import registry
from games.engine import BadScenario
from games.engine.skills import FACT_RANGE, OPERATIONS, Measure, parse_fact

SIGN_WORDS = {"+": "+", "-": "−", "x": "×", "/": "÷"}
OPERATION_NAMES = {"+": "adding", "−": "taking away", "×": "multiplying", "÷": "dividing"}
WILD_WORDS = {"subtract": "subtract", "multiply": "multiply", "divide": "divide",
              "fraction": "fraction", "power": "power and root"}


def _measure(measure_id: str) -> Measure | None:
    return next((m for m in registry.measures() if m.id == measure_id), None)


def practice_game(measure_id: str) -> str | None:
    """The game a measure is practised in (its own game), or None: a measure of every game
    (rule errors, thinking time) or one whose game has no practice hook."""
    m = _measure(measure_id)
    if m is None or not m.game:
        return None
    spec = registry.get(m.game)
    if spec is None or spec.skills is None or spec.skills.practice is None:
        return None
    return m.game


def fact_name(detail: str) -> str:
    fact = parse_fact(detail)
    return f"{fact[0]} × {fact[1]}" if fact else detail


def _both_orders(detail: str) -> list[str]:
    fact = parse_fact(detail)
    if fact is None:
        return [detail]
    a, b = fact
    return [f"{a}x{b}"] if a == b else [f"{a}x{b}", f"{b}x{a}"]


@dataclass(frozen=True)
class Focus:
    """What a "Practise this" assignment practises and how its games are dealt."""

    game: str
    measure: str
    detail: str                 # the report's detail ("7x8", "÷"), "" for the whole measure
    label: str                  # "7 × 8", "Exact division", "Mental maths with −"
    options: dict = field(default_factory=dict)   # the focus engine options ({}: plain game)
    # The evidence details the before/after counts ("7x8", "8x7"); () for every row.
    details: tuple[str, ...] = ()

    def as_json(self) -> dict:
        return {"game": self.game, "measure": self.measure, "detail": self.detail,
                "label": self.label, "options": dict(self.options), "details": list(self.details)}

    @property
    def words(self) -> list[str]:
        return options_words(self.options)


def from_json(data) -> Focus | None:
    """A stored or posted focus, or None when it is not one (anything may come from a form)."""
    if not isinstance(data, dict) or not data.get("measure") or not data.get("game"):
        return None
    options = data.get("options") or {}
    details = data.get("details") or []
    if not isinstance(options, dict) or not isinstance(details, list):
        return None
    return Focus(game=str(data["game"]), measure=str(data["measure"]),
                 detail=str(data.get("detail") or ""), label=str(data.get("label") or ""),
                 options=options, details=tuple(str(d) for d in details))


def focus_for(measure_id: str, detail: str = "", weakest: Sequence[str] = ()) -> Focus | None:
    """The focused game for a measure (and detail), `weakest` the student's (or the group's)
    weakest details of it, worst first (used when the whole measure is practised: the weakest
    times-table facts or operations). None when the measure cannot be practised here."""
    game = practice_game(measure_id)
    if game is None:
        return None
    spec = registry.spec_for(game)
    options = spec.skills.practice(measure_id, detail, tuple(weakest))
    if options is None:
        return None
    m = _measure(measure_id)
    details: list[str] = []
    if m.fact_grid:
        facts = options.get("focus_facts") or []
        for t in options.get("focus_tables") or []:
            facts += [f"{min(t, n)}x{max(t, n)}" for n in FACT_RANGE]
        for f in facts:
            details += [d for d in _both_orders(f) if d not in details]
        label = (", ".join(fact_name(f) for f in options.get("focus_facts") or [])
                 or " and ".join(f"the {t} times table" for t in options.get("focus_tables") or [])
                 or m.title)
    elif m.by_operation and detail:
        details = [detail]
        label = f"{m.title}: {detail}"
    elif m.by_operation and options.get("focus_operators"):
        details = [SIGN_WORDS[s] for s in options["focus_operators"] if SIGN_WORDS.get(s) in OPERATIONS]
        label = f"{m.title}: {' and '.join(details)}"
    else:
        label = m.title
    return Focus(game=game, measure=measure_id, detail=detail, label=label, options=dict(options),
                 details=tuple(details))


def merged_options(preset_options: dict, focus_options: dict) -> dict:
    """A focused assignment's engine options: the level's options with the focus on top. A
    Numero `level` sets the whole pack itself (docs/rules-numero.md), so the level's options
    are left out then."""
    if "level" in focus_options:
        return dict(focus_options)
    return {**preset_options, **focus_options}


def options_accepted(game: str, options: dict, player_counts) -> str:
    """"" when the engine accepts `options` for every count in `player_counts`; otherwise a
    sentence for the teacher."""
    spec = registry.get(game)
    if spec is None:
        return "Choose one of the games in the list."
    for count in player_counts:
        try:
            spec.engine.resolve_options(dict(options), count)
            # A deal too: ten cards each of The Multiplication Game's pack fit four players.
            spec.engine.new_game([f"Player {i + 1}" for i in range(count)], dict(options), 1)
        except BadScenario:
            return (f"This practice can't be played with {count} player{'s' if count != 1 else ''}. "
                    "Choose another number of computer players, or untick the practice.")
    return ""


def options_words(options: dict) -> list[str]:
    """What focus options do, one plain sentence each (for the assignment form and pages)."""
    words = []
    facts = options.get("focus_facts") or []
    if facts:
        cards = ", ".join(f"{p[0] * p[1]} ({fact_name(f)})" for f in facts
                          if (p := parse_fact(f)) is not None)
        words.append(f"Extra cards {cards}: three of each in the pack, dealt first.")
    tables = options.get("focus_tables") or []
    if tables:
        words.append("Extra cards of the " + " and ".join(f"{t} times table" for t in tables)
                     + ": three of each card in the pack, dealt first.")
    if options.get("hand_size"):
        words.append(f"{options['hand_size']} cards each, so there are more facts to name.")
    signs = options.get("focus_operators") or []
    if signs:
        names = " and ".join(f"{SIGN_WORDS.get(s, s)} ({OPERATION_NAMES.get(SIGN_WORDS.get(s, s), '')})"
                             for s in signs)
        words.append(f"Many more {names} operator cards.")
    for key, what in (("low_range", "Low number cards"), ("high_range", "High number cards"),
                      ("number_range", "Number cards")):
        value = options.get(key)
        if value:
            words.append(f"{what} from {value[0]} to {value[1]} only.")
    if options.get("level"):
        words.append(f"Played at Numero level {options['level']}.")
    if "wilds" in options and options.get("level"):
        wilds = options.get("wilds") or []
        words.append("Wild cards: " + (", ".join(WILD_WORDS.get(w, w) for w in wilds) or "none") + ".")
    if not words:
        words.append("The usual game: this skill comes up in every game.")
    return words


def preset_for(game: str, focus_options: dict) -> str | None:
    """The level a focused assignment is prefilled with: Numero's `levelN` for a focus at
    level N (so the level shown is the one played), else None (the game's first level)."""
    level = focus_options.get("level")
    if level:
        key = f"level{level}"
        spec = registry.get(game)
        if spec is not None and spec.preset(key) is not None:
            return key
    return None


__all__ = ["Focus", "focus_for", "from_json", "merged_options", "options_accepted",
           "options_words", "practice_game", "preset_for"]
