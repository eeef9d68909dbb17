"""What a game declares about skills: its measures and how its moves give evidence of them.

Pure Python, like the engines. Each game's `skills.py` (beside its engine) exports a
`GameSkills`; the generic machinery (`games/engine/evidence.py`) runs over it for the reports
and for the end of a game alike: one row per chance, a decision counted once, rule errors and
thinking time for every game.
See docs/reports.md for the definition of every measure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Iterator, Protocol

from .words import Number, Plural, Words, _, ngettext, pgettext

# A `fact_grid` measure's detail is a fact "AxB" with A and B in this range (the heat map's
# 10 x 10 squares; a simulated student's planted fact is written the same way).
FACT_RANGE = range(1, 11)


def parse_fact(detail: str) -> tuple[int, int] | None:
    """"7x8" -> (7, 8); None for anything that is not a fact of FACT_RANGE."""
    a, x, b = detail.partition("x")
    if not (x and a.isdigit() and b.isdigit()):
        return None
    a_, b_ = int(a), int(b)
    return (a_, b_) if a_ in FACT_RANGE and b_ in FACT_RANGE else None


def fact_name(detail: str) -> str:
    """"7x8" -> "7 × 8" (anything else as it is)."""
    fact = parse_fact(detail)
    return f"{fact[0]} × {fact[1]}" if fact else detail


def both_orders(detail: str) -> list[str]:
    """"7x8" -> ["7x8", "8x7"]: the details a report counts for one fact ("7x7" once)."""
    fact = parse_fact(detail)
    if fact is None:
        return [detail]
    a, b = fact
    return [f"{a}x{b}"] if a == b else [f"{a}x{b}", f"{b}x{a}"]


@dataclass(frozen=True)
class Measure:
    """One skill measure. A report cell reads "<miss_words>: 4 of 37 <chance_unit>"."""

    id: str           # "<game prefix>.<name>", e.g. "so.lowest_operator"; stored in evidence rows
    game: str         # the game key whose moves give chances ("" for every game)
    title: str        # short column heading
    miss_words: str   # what a miss is, in plain words
    chance_unit: str  # what a chance is counted in
    about: str        # one sentence for the teacher
    well_words: str = ""    # what doing it well is, for a student ("spotted a take")
    has_misses: bool = True  # all.think_time has no misses, only a median
    # How a row's detail reads on the moves page, %(detail)s the detail ("needed %(detail)s": 7x8)
    detail_words: str = ""
    # What a row's amount is counted in: a `Unit` ("8 points given away" on the moves page, the
    # totals' columns), as data the English (one, many), e.g. ("card left", "cards left").
    amount_words: tuple[str, str] | None = None
    fact_grid: bool = False  # details are "AxB" facts: the heat map shows this measure
    # The families (docs/reports.md, "The principles"): "arithmetic" (did the student compute or
    # know it right), "strategy" (what the choice cost against the expert bot's own choice in the
    # same position), "rules" (all.rule_errors) or "time" (all.think_time).
    family: str = "strategy"
    # Details are the operation of the sum ("+", "−", "×", "÷"): shown per operation.
    by_operation: bool = False


# The operations of the per-operation details, in the order reports show them.
OPERATIONS = ("+", "−", "×", "÷")

# The two measures every game has, after the games' own in tables and exports: rule errors
# and thinking time. Declared here, beside the games' measures, so that the end of a game
# (games/results.py) and the reports (reports/measures.py) count and word them alike.
RULES = "all.rule_errors"
THINK = "all.think_time"
GENERIC_MEASURES = (
    Measure(RULES, "", _("Rules"),
            _("Tried a move the rules do not allow"), _("attempts"),
            _("Plays by the rules."),
            well_words=pgettext("what the player did well, read after “You” or a name", "made a move the rules allow"), family="rules"),
    Measure(THINK, "", _("Thinking time"),
            "", _("decisions"),
            _("Median seconds per decision."), has_misses=False, family="time"),
)


def evidence_measures(measure_id: str) -> tuple[str, ...]:
    """The evidence rows behind a measure's chances. Every attempt is a chance at the rules:
    a refused one has its own `all.rule_errors` row (a miss, detail = its error code), an
    accepted one is counted by its `all.think_time` row (the decision and its thinking time),
    so an accepted move is written once, not twice."""
    return (RULES, THINK) if measure_id == RULES else (measure_id,)


def well_sentence(measure: Measure, misses: int, chances: int, *, who: str = "You") -> str:
    """'You chose the best card 33 times out of 37.' (`who` is the student's name in a report
    for parents.) The one sentence a child and a parent read about a measure, at the end of a
    game, on "My progress" and in the parents' PDF. What getting it right means is the
    measure's `well_words`, which read right after "You" and after a name alike (so never
    "you", "your" or "their"); a measure without them says it in its title's words."""
    well = measure.well_words or _("did well at “%(title)s”", title=measure.title)
    n = chances - misses
    if who == "You":
        # Translators: %(well)s is what the player did well ("chose the best card").
        return ngettext("You %(well)s once out of %(chances)s.", "You %(well)s %(n)s times out of %(chances)s.",
                        n, well=well, n=n, chances=chances)
    # Translators: %(who)s is a student's name; %(well)s is what they did well ("chose the best card").
    return ngettext("%(who)s %(well)s once out of %(chances)s.", "%(who)s %(well)s %(n)s times out of %(chances)s.",
                    n, who=who, well=well, n=n, chances=chances)


@dataclass(slots=True)
class MoveFacts:
    """One recorded attempt, as the evidence extractors read it."""

    id: int
    seat_id: int
    version_before: int
    accepted: bool
    error_code: str
    analysis: dict | None   # None for a computer player's move (never read)
    events: list | None     # only loaded for games whose skills read whole games
    think_ms: int | None
    played_at: datetime


# A candidate row from one attempt: (group, measure id, detail, missed, amount). Attempts of
# one seat with the same (group, measure, detail) are one decision: see games/engine/evidence.py.
Candidate = tuple[Any, str, str, bool, Any]

PerAttempt = Callable[[MoveFacts, str], Iterator[Candidate]]
# "Practise this": (measure id, detail, the student's weakest details of that measure, worst
# first) -> the engine options of a game focused on it; {} for the game's plain options (a
# strategy measure with no natural focus); None for a measure that is not the game's.
Practice = Callable[[str, str, Sequence[str]], "dict | None"]
# What focus options do, one plain sentence each (only the game knows its options).
FocusWords = Callable[[Mapping[str, Any]], list[str]]
# (measure, detail, focus options) -> (label, the evidence details the focus gives more
# chances of), or None for the generic reading (games/practice.py `focus_for`).
FocusScope = Callable[["Measure", str, Mapping[str, Any]], "tuple[str, tuple[str, ...]] | None"]
# Focus options -> the key of the preset they stand for, or None.
FocusPreset = Callable[[Mapping[str, Any]], "str | None"]
# (moves of the game, seat id -> player name, the students' seat ids) -> (move, candidate)
PerGame = Callable[[list[MoveFacts], dict[int, str], set[int]], Iterator[tuple[MoveFacts, Candidate]]]


@dataclass(frozen=True, slots=True)
class ClassMove:
    """One recorded attempt of a student, as a whole class may see it (the projector's line).

    `action` and `events` are those of an accepted move only (None and () for a refused
    attempt: a refused action may name a card its player still holds). `analysis` is the
    engine's `analyse` of the decision, which also holds the player's own hand: a class line
    reads only what was played face up or answered (a fact named, an answer given), never a
    hand and never a player's name. `answer`: the mental-maths answer sent with the move."""

    accepted: bool
    action: dict | None
    events: Sequence[dict]
    analysis: Mapping[str, Any]
    answer: int | None = None


# A class's recent attempts, oldest first -> the facts of one short line about the whole class
# (no names, nothing hidden), or None when the moves hold nothing worth saying yet. The facts are
# data, worded by whoever shows them in the reader's language (arena/class_line.py): {"line": its
# kind, and the values that kind says}. The kinds: "fact_run" (a, b, count), "facts_right" (right,
# count), "sums_run" (count), "most_played_operator" (card, count), "best_round" (a, operation, b,
# points), "most_taken_card" (card, count).
ClassLine = Callable[[Sequence[ClassMove]], "dict | None"]


def longest_run(outcomes: Iterable[tuple[Any, bool]]) -> tuple[Any, int] | None:
    """(key, n): the longest run of n right outcomes in a row of one key, among
    (key, right) pairs in order (a wrong outcome of a key ends that key's run); the earliest
    such key on a tie. None when nothing was right."""
    runs: dict[Any, int] = {}
    best: tuple[Any, int] | None = None
    for key, right in outcomes:
        runs[key] = runs.get(key, 0) + 1 if right else 0
        if right and (best is None or runs[key] > best[1]):
            best = (key, runs[key])
    return best


# ----- verdicts explained: what a counted decision was judged against ----------------------

@dataclass(frozen=True, slots=True)
class Judged:
    """One counted decision, as the reports counted it (a `SkillEvidence` row) with the
    analysis and action of the attempt it points at: what a game's `explain` reads."""

    measure: str
    detail: str
    missed: bool
    amount: float | None
    analysis: Mapping[str, Any]
    action: Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class Verdict:
    """Why a counted decision was judged as it was, in the game's own terms, so that a
    teacher can check it by hand (as a chess site shows the better move beside a mistake).

    `played`: what the student did; `expert`: what the expert would have done (the same
    move, or an equally good one, when it was fine); `worth`: for a miss, what the difference
    was worth ("gave 8 more points than the − card would have"), for a fine decision the
    reason it counts as fine ("the − card would have given the same points"). Each reads
    as a sentence on its own; none names a card the viewer of the decision could not see."""

    missed: bool
    played: str
    expert: str
    worth: str


# (the counted decision) -> its Verdict, or None for a measure the game does not explain.
Explain = Callable[[Judged], "Verdict | None"]


def explain_by_measure(table: Mapping[str, Explain]) -> Explain:
    """A game's `explain` from one explainer per measure id: None for any other measure, and
    for a move recorded without an analysis."""
    def explain(judged: Judged) -> Verdict | None:
        explainer = table.get(judged.measure)
        return explainer(judged) if explainer and judged.analysis else None
    return explain


def number_words(x: float) -> str:
    """A number of points or cards as a teacher reads it: whole numbers as they are, others
    to one decimal place ("8", "2.5", "0.3", with the reader's decimal sign when shown), and
    "less than 0.1" for a sliver above 0."""
    if x == int(x):
        return str(int(x))
    if 0 < abs(x) < 0.05:
        # Translators: a tiny number of points or cards, "less than 0.1" (then "points").
        return _("less than %(number)s", number=Number("0.1"))
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else Number(text)


def count_of(number: str) -> int:
    """The count that chooses the plural form of a number in words (`number_words`): itself
    when whole; a fraction ("2.5", "less than 0.1") takes the form of 100, which is the
    "other" form of English, Spanish and Arabic alike (CLDR: fractions are "other")."""
    return int(number) if str.isdigit(number) else 100


def points(x: float) -> Words:
    """"1 point", "8 points", "2.5 points", in the reader's language."""
    number = number_words(x)
    # Translators: a number of points (%(n)s may be "2.5" or "less than 0.1").
    return ngettext("%(n)s point", "%(n)s points", count_of(number), n=number)


def cards(x: float) -> Words:
    """"1 card", "3 cards", "2.5 cards", in the reader's language."""
    number = number_words(x)
    # Translators: a number of cards (%(n)s may be "2.5", an estimate of the expert computer player).
    return ngettext("%(n)s card", "%(n)s cards", count_of(number), n=number)


class Unit(tuple):
    """What a measure's amounts are counted in (`Measure.amount_words`). As data it is the
    English pair (one, many), e.g. ("point given away", "points given away"): it groups the
    measures whose amounts add up, and an export writes it. Shown, `title` heads a total
    ("Points given away") and `of(x)` says an amount with the plural form its number takes
    in the reader's language ("8 points given away"; Arabic has six forms), from the
    `ngettext_lazy` phrase "%(n)s point given away" / "%(n)s points given away"."""

    title: Words
    phrase: Plural

    def __new__(cls, title: Words, phrase: Plural) -> "Unit":
        unit = super().__new__(cls, (phrase.singular.removeprefix("%(n)s "),
                                     phrase.plural.removeprefix("%(n)s ")))
        unit.title, unit.phrase = title, phrase
        return unit

    def of(self, x: float) -> Words:
        number = number_words(x)
        return self.phrase.of(count_of(number), n=number)

    def __reduce__(self):  # a copy or a pickle (a cache) keeps it whole, still said when shown
        return (_unit, (str.__str__(self.title), self.phrase.singular, self.phrase.plural))


def _unit(title: str, singular: str, plural: str) -> Unit:
    return Unit(_(title), Plural(singular, plural))


# ----- planted players: simulated students with planted miss rates ------------------------

class Quota(Protocol):
    """A running quota of misses on one measure (devtools/planted.py: misses spread evenly)."""

    def take(self, missable: bool = True) -> bool:
        """Count one chance; True when the player should miss it (never when not missable)."""

    def missed_anyway(self) -> None:
        """The last chance was missed through another measure's miss: count it."""


class Quotas(Protocol):
    """One simulated student's quotas. `quotas(label)` is the quota of a label: a measure id,
    or "<measure id>:<detail>" for a planted detail (a fact "7x8" of a `fact_grid` measure, an
    operation "÷" of a `by_operation` one);
    an unplanted label has a quota that never misses but still counts chances."""

    def __call__(self, label: str) -> Quota: ...

    def details(self, measure: str) -> frozenset[str]:
        """The details planted on a measure (each has its own quota)."""


def detail_quota(quotas: Quotas, measure: str, detail: str) -> Quota:
    """The quota of a chance at `measure` with this detail (a fact, an operation): the
    detail's own when it was planted ("so.mental_math:÷"), else the measure's."""
    if detail in quotas.details(measure):
        return quotas(f"{measure}:{detail}")
    return quotas(measure)


class PlantedPlayer(Protocol):
    """A simulated student at one game. It sees only its own view (like every bot)."""

    def attempts(self, view: dict) -> list[dict]:
        """One decision: the attempts in order, any it expects to be refused first (a wrong
        fact, an uneven ÷, ...), then one legal move."""

    def illegal(self, view: dict) -> dict:
        """A move the rules refuse (a card it does not hold), for planted rule errors."""


@dataclass(frozen=True)
class Planted:
    """How a game's simulated students play (devtools/simulation.py runs them).

    - `player(quotas, seed)` makes one student's player, perfect on every measure of the
      game except where `quotas` say to miss. It is pure and deterministic: any randomness
      comes from its own RNG seeded with `seed`. The simulation keeps one player per student
      for all their games of every game that shares this `Planted`.
    - Every measure of the game with misses (`has_misses`) can be planted; so can
      `all.rule_errors`, through `illegal` (the generic part does that, not the game).
    - `options`: the game options of a simulated game: many chances, quick to play.
    """

    player: Callable[[Quotas, int], PlantedPlayer]
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameSkills:
    """A game's measures and evidence extractors.

    - `per_attempt(move, error_code)` yields candidates from one attempt's analysis (the
      engine's `analyse`, computed on the state before it);
    - `per_game(moves, seat_names, students)` yields candidates that need the whole game
      (rounds resolved later, challenges of an earlier build); it reads `events`;
    - `analysis_keys`: the analysis keys the extractors read (only these are loaded);
    - `planted`: the game's simulated students (`Planted` above), or None when its
      measures cannot be planted;
    - `judged_errors`: refusal codes that are a miss of one of the game's own measures
      (a false times-table declaration is an mg.facts miss): one mistake, one measure, so
      such a refused attempt is not also counted as a rule error;
    - `analysis_revision`: raised whenever `analyse` or the extractors change what they
      read; moves recorded with an older revision are analysed again (by replaying their
      game) before their report is recomputed;
    - `practice(measure_id, detail, weakest)`: the engine options of a game that gives that
      skill more chances (the focus house options of docs/rules-*.md), for a teacher's
      "Practise this"; pure, and every dict it returns is accepted by the engine's
      `resolve_options` (None: no practice hook, or a measure that is not the game's);
    - `focus_words(options)`: what the game's focus options in `options` do, one plain
      sentence each, for the assignment form and the pages ([] when none is set);
    - `focus_scope(measure, detail, options)`: what a focus on one of the game's measures
      practises when the game reads it its own way (a fact grid's facts, the operations of a
      focused pack): (label, the evidence details a before/after counts); None for the
      generic reading (the detail asked for, or the whole measure);
    - `no_focus`: measure id -> why no deal of this game can focus it, in a teacher's words
      (its chances already come up in nearly every decision, so no deal gives twice as
      many): its `practice` returns None, and the reports say this instead of a link;
    - `focus_preset(options)`: the preset the focus options stand for, or None: a focused
      assignment is prefilled with it, and the focus replaces the chosen preset's options
      rather than adding to them (it sets the whole pack itself: a Numero level);
    - `explain(judged)`: why a counted decision (`Judged`) was judged as it was (`Verdict`),
      read from the same recorded analysis as the verdict itself (the expert's own
      evaluation), for the replay and the moves page; None for a measure it does not explain;
    - `class_line(moves)`: the facts of one live line about a whole class from its recent attempts
      (`ClassMove`s, oldest first), for the arena's projector: a fact named right many times
      in a row, the most taken card; only what was face up or answered, never a name or a
      hidden card; None when there is nothing to say yet (the arena then says something
      generic).
    """

    measures: tuple[Measure, ...]
    analysis_keys: tuple[str, ...] = ("kind",)
    per_attempt: PerAttempt | None = None
    per_game: PerGame | None = None
    planted: Planted | None = None
    judged_errors: Mapping[str, str] = field(default_factory=dict)
    analysis_revision: int = 1
    practice: Practice | None = None
    focus_words: FocusWords | None = None
    focus_scope: FocusScope | None = None
    focus_preset: FocusPreset | None = None
    no_focus: Mapping[str, str] = field(default_factory=dict)
    class_line: ClassLine | None = None
    explain: Explain | None = None

    @property
    def needs_events(self) -> bool:
        return self.per_game is not None

    def scope_of(self, measure: Measure, detail: str, options: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
        """What a focus on `measure` (and `detail`) with these options practises: (label, the
        evidence details it gives more chances of; () for every row of the measure). The
        game's own `focus_scope` first, else the detail asked for, else the whole measure.
        "Practise this" labels and counts with it, and `selfplay --measures` counts the
        same details."""
        scope = self.focus_scope(measure, detail, options) if self.focus_scope else None
        if scope is not None:
            return scope
        if measure.by_operation and detail:
            # Translators: what a practice game practises: a skill and one operation, "Mental maths: ÷".
            return _("%(skill)s: %(operation)s", skill=measure.title, operation=detail), (detail,)
        return measure.title, ()
