""""Practise this": what to practise (a flag's row, the weakest measure and details), in which
game and at which level (the ones the evidence came from), and how the students did before a
practice assignment was set and in it."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from classroom import selectors as classroom_selectors
from classroom.models import Assignment, Classroom
from classroom.progress import Progress
from games import registry
from games.engine.skills import Measure, both_orders, fact_name, parse_fact
from games.models import Game, Seat
from games.practice import can_practise, label_of, level_of, rules_label

from ..detail_flags import OPERATION, Part, Row
from ..measures import RULES, evidence_measures, measure_by_id, measures_by_id
from ..models import NeedsHelpFlag, SkillEvidence, SkillRollup
from ..operations import operation_details, operation_of
from ..uncertainty import band_for, likely_at_least
from ..words import listed

Scope = SkillRollup.Scope


MIN_CHANCES_TO_PICK = 5  # fewer chances than this say nothing (uncertainty.MIN_CHANCES)


def rank_weakest(counts: dict[str, tuple[int, int]], limit: int = 8) -> list[str]:
    """Details (facts, operations) worst first by the evidence, from {detail: (misses,
    chances)}: those whose own band says Practise or Needs help first, then the others with
    MIN_CHANCES_TO_PICK chances and a miss, each by the miss rate the student very likely has
    at least (`likely_at_least`), then by misses; last, misses in fewer tries. A detail with
    a miss or two in a handful of tries never outranks one with evidence: a raw rate would
    put 1 of 1 first."""
    ranked = []
    for detail, (misses, chances) in counts.items():
        if not misses:
            continue
        # 0: its band says Practise or Needs help; 1: enough chances to say something; 2: a
        # miss in a few tries, last (then most misses first): when a child's misses are
        # spread thin, the facts they did miss still beat the plain game.
        tier = 0 if band_for(misses, chances).offers_practice else 1 if chances >= MIN_CHANCES_TO_PICK else 2
        order = (-misses, -likely_at_least(misses, chances)) if tier == 2 else \
            (-likely_at_least(misses, chances), -misses)
        ranked.append(((tier, *order, detail), detail))
    return [detail for _, detail in sorted(ranked)[:limit]]


def pick_weakest(rows, can_practise) -> str | None:
    """The measure to practise among (measure id, misses, chances) rows: one whose band says
    Practise or Needs help and that `can_practise(measure id)` accepts, the one with the
    highest miss rate the student very likely has at least (`best_target`); None when there
    is none."""
    target = best_target([row for row in rows if can_practise(row[0])])
    return target.measure if target is not None else None


def _all_time_rows(*, classroom: Classroom, students: list[User] | None, measure: str):
    rows = SkillRollup.objects.filter(classroom=classroom, measure=measure, week__isnull=True,
                                      assignment__isnull=True)
    return (rows.filter(scope=Scope.STUDENT, student__in=students) if students
            else rows.filter(scope=Scope.CLASS))


def weakest_details(*, classroom: Classroom, measure: str, students: list[User] | None = None,
                    limit: int = 8) -> list[str]:
    """The details of a measure (times-table facts, operations) these students (the class
    when none) most need to practise, worst first by the evidence (`rank_weakest`), from the
    all-time roll-ups: one query. a × b and b × a are one fact."""
    rows = _all_time_rows(classroom=classroom, students=students, measure=measure).exclude(detail="")
    summed: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for detail, chances, misses in rows.values_list("detail", "chances", "misses"):
        fact = parse_fact(detail)
        key = f"{min(fact)}x{max(fact)}" if fact else detail
        summed[key][0] += misses
        summed[key][1] += chances
    return rank_weakest({k: (m, c) for k, (m, c) in summed.items()}, limit)


@dataclass(frozen=True)
class PracticeTarget:
    """What one "Practise this" link practises: a measure, perhaps one of its details (a fact
    "7x8", an operation "÷"), perhaps in the game a rule-errors flag is about. `low` ranks it
    among a student's targets: the miss rate the student very likely has at least."""

    measure: str
    detail: str = ""
    game_id: int | None = None
    game_key: str = ""     # the game of `game_id`, for the words
    low: float = -1.0

    @property
    def what(self) -> str:
        """What it practises, in the reader's words: "7 × 8", "÷ (dividing) in Mental maths",
        "Best card", "the rules of Numero"."""
        if self.measure == RULES and self.game_key:
            return str(rules_label(self.game_key))
        if self.detail and parse_fact(self.detail):
            return fact_name(self.detail)
        if self.detail and operation_of(self.detail):
            return Row(OPERATION, operation_of(self.detail), (Part(self.measure, self.detail, 0, 0),)).name
        m = measure_by_id(self.measure)
        return str(m.title) if m else self.measure

    def query(self, students=()) -> list[tuple[str, object]]:
        """The Practise page's query for these students (none: the class)."""
        found: list[tuple[str, object]] = [("measure", self.measure)]
        if self.detail:
            found.append(("detail", self.detail))
        if self.game_id:
            found.append(("game", self.game_id))
        return found + [("student", getattr(s, "pk", s)) for s in students]


def _low(counts) -> float:
    try:
        return likely_at_least(int(counts["misses"]), int(counts["chances"]))
    except (KeyError, TypeError, ValueError):
        return -1.0


def flag_target(flag: NeedsHelpFlag) -> PracticeTarget | None:
    """The practice a flag calls for: its fact or operation; its measure; a family's measure
    the student most likely misses most (as a whole); the rules, in the game they were broken
    in. None when no game can practise it."""
    evidence = flag.evidence or {}
    Reason = NeedsHelpFlag.Reason
    if flag.reason == Reason.RULE_ERRORS:
        game = flag.game if flag.game_id else None
        return PracticeTarget(RULES, game_id=flag.game_id, game_key=game.key if game else "")
    if flag.reason == Reason.FAMILY:
        parts = [p for p in evidence.get("parts") or () if can_practise(str(p.get("measure", "")))]
        if not parts:
            return None
        weakest = max(parts, key=lambda p: (_low(p), p.get("misses", 0)))
        return PracticeTarget(weakest["measure"], low=_low(evidence))
    if not can_practise(flag.measure):
        return None
    if flag.reason in (Reason.FACT, Reason.OPERATION):
        return PracticeTarget(flag.measure, flag.detail, low=_low(evidence))
    return PracticeTarget(flag.measure, low=_low(evidence.get("student") or {}))


def best_target(rows, flags=()) -> PracticeTarget | None:
    """The one thing a student most needs to practise, among whole measures, from (measure
    id, misses, chances), whose band says Practise or Needs help, and the student's flags: the
    highest miss rate the student very likely has at least (`likely_at_least`, the rule of
    `pick_weakest`); a rule-errors flag, which has no rate, only when there is nothing else.
    None when there is nothing to practise."""
    found = [PracticeTarget(measure_id, low=likely_at_least(misses, chances))
             for measure_id, misses, chances in rows
             if band_for(misses, chances).offers_practice and can_practise(measure_id)]
    found += [t for t in map(flag_target, flags) if t is not None]
    best = None
    for target in found:
        if best is None or target.low > best.low:
            best = target
    return best


def weakest_target(*, classroom: Classroom, student: User, flags=()) -> PracticeTarget | None:
    """What the student most needs to practise (`best_target`), from the all-time roll-ups and
    their flags (`needs_help`), or None. One query."""
    return best_target(SkillRollup.objects.filter(
        classroom=classroom, scope=Scope.STUDENT, student=student, week__isnull=True,
        assignment__isnull=True, detail="").order_by("measure").values_list(
        "measure", "misses", "chances"), flags)


def _details_of(detail: str) -> list[str]:
    """The evidence details one report detail stands for: a fact in either order, an
    operation in each of its spellings."""
    op = operation_of(detail)
    if op is not None and not parse_fact(detail):
        return [d for d in operation_details() if operation_of(d) == op]
    return both_orders(detail)


def _level(key: str, options, assignment_game: str | None, assignment_preset: str | None) -> str | None:
    """A game's level: its assignment's, else the preset its options were dealt from."""
    if assignment_preset and assignment_game == key and registry.spec_for(key).preset(assignment_preset):
        return assignment_preset
    return level_of(key, options or {})


def practice_origin(*, classroom: Classroom, students: list[User] | None, measure: str,
                    detail: str = "") -> tuple[str, str | None] | None:
    """The game and level (preset key, None when no preset fits) the evidence of a measure (and
    detail) came from, for these students (the class when none): where they missed it most,
    then where they had most chances of it, then where they played it last. None without
    evidence. One query: a practice is played where the skill was, at the level the child
    plays (a child of Numero's level 4 is not sent to the powers and roots of level 6)."""
    rows = SkillEvidence.objects.filter(classroom=classroom, measure__in=evidence_measures(measure))
    if students:
        rows = rows.filter(student__in=students)
    if detail:
        rows = rows.filter(detail__in=_details_of(detail))
    tally: dict[tuple[str, str | None], list] = {}
    for row in rows.values("game__key", "game__options", "game__assignment__game",
                           "game__assignment__preset").annotate(
            misses=Count("id", filter=Q(missed=True)), chances=Count("id"), last=Max("played_at")).order_by():
        key = row["game__key"]
        if registry.get(key) is None:
            continue
        where = (key, _level(key, row["game__options"], row["game__assignment__game"],
                             row["game__assignment__preset"]))
        found = tally.setdefault(where, [0, 0, row["last"]])
        found[0] += row["misses"]
        found[1] += row["chances"]
        found[2] = max(found[2], row["last"])
    if not tally:
        return None
    return max(tally, key=lambda where: tuple(tally[where]))


def game_origin(*, classroom: Classroom, game_id: int) -> tuple[str, str | None] | None:
    """The game and level of one game of the class (a rule-errors flag's), or None when the
    class has no such game."""
    game = (Game.objects.filter(classroom=classroom, pk=game_id)
            .values("key", "options", "assignment__game", "assignment__preset").first())
    if game is None or registry.get(game["key"]) is None:
        return None
    return game["key"], _level(game["key"], game["options"], game["assignment__game"],
                               game["assignment__preset"])


def nothing_to_practise(*, classroom: Classroom, students: list[User], measure: Measure | None,
                        detail: str = "") -> str:
    """Why "Practise this" has nothing to give these students, in words ("" when it has):
    no evidence of the measure (or its detail) for any of them, or, with no measure chosen
    for one student, no skill a game can practise at Practise or Needs help."""
    if not students:
        return ""
    shown = [s.display_name for s in students[:3]]
    # Translators: the end of a list of more than three students' names, "Ann, Ben, Cy and others".
    names = listed(shown + [_("others")]) if len(students) > 3 else listed(shown)
    count = len(students)
    evidence = SkillRollup.objects.filter(classroom=classroom, scope=Scope.STUDENT, student__in=students,
                                          week__isnull=True, assignment__isnull=True, chances__gt=0)
    if not evidence.exists():
        return ngettext(
            "Nothing to practise yet: %(names)s has not finished a game yet. Set an ordinary "
            "assignment first; Practise this appears once a skill needs it.",
            "Nothing to practise yet: %(names)s have not finished a game yet. Set an ordinary "
            "assignment first; Practise this appears once a skill needs it.", count) % {"names": names}
    if measure is None:
        # Translators: names is one student's name (or a few); "Practise" and "Needs help" are skill bands.
        return _("Nothing to practise: none of %(names)s’s skills is at Practise or Needs help, and "
                 "nothing is flagged. Set an ordinary assignment to keep playing.") % {"names": names}
    rows = evidence.filter(measure=measure.id)
    if detail:
        rows = rows.filter(detail__in=both_orders(detail))
    if rows.exists():
        return ""
    game = registry.get(measure.game)
    if game is not None and not evidence.filter(measure__in=[m.id for m in game.skills.measures]).exists():
        return ngettext("Nothing to practise yet: %(names)s has not played a game of %(game)s yet.",
                        "Nothing to practise yet: %(names)s have not played a game of %(game)s yet.",
                        count) % {"names": names, "game": game.name}
    # Translators: what is a times-table fact ("7 × 8") or a skill's name in quotes.
    what = fact_name(detail) if detail else _("“%(skill)s”") % {"skill": measure.title}
    return _("Nothing to practise yet: %(names)s’s games have not asked for %(what)s yet.") % {
        "names": names, "what": what}


@dataclass(frozen=True)
class FocusOutcome:
    """One student's focused skill before a "Practise this" assignment was set (every game
    before then) and in its games."""

    assignment: Assignment
    student: User
    measure: Measure
    label: str
    before: tuple[int, int]   # (misses, chances) before the assignment was set
    during: tuple[int, int]   # (misses, chances) in the assignment's games
    progress: Progress

    @property
    def arithmetic(self) -> bool:
        return self.measure.family == "arithmetic"

    @staticmethod
    def _part(counts: tuple[int, int], arithmetic: bool) -> str:
        misses, chances = counts
        if not chances:
            return _("no chances yet")
        values = {"misses": misses, "count": chances}
        # Translators: "3 of 5 wrong" (sums) / "3 of 5 missed" (choices), before and in a practice.
        return (_("%(misses)s of %(count)s wrong") if arithmetic else _("%(misses)s of %(count)s missed")) % values

    @property
    def before_words(self) -> str:
        return self._part(self.before, self.arithmetic)

    @property
    def during_words(self) -> str:
        return self._part(self.during, self.arithmetic)

    @property
    def words(self) -> str:
        """"7 × 8: before 3 of 5 wrong, in this practice 1 of 9 wrong"."""
        # Translators: "7 × 8: before 3 of 5 wrong, in this practice 1 of 9 wrong".
        return _("%(skill)s: before %(before)s, in this practice %(during)s") % {
            "skill": self.label, "before": self.before_words, "during": self.during_words}

    @property
    def done(self) -> bool:
        return self.progress.complete

    @property
    def change(self) -> str:
        """"better", "worse" or "" (too few chances to say, or about the same)."""
        (bm, bc), (dm, dc) = self.before, self.during
        if bc < MIN_CHANCES_TO_PICK or dc < MIN_CHANCES_TO_PICK:
            return ""
        before, during = bm / bc, dm / dc
        if during <= before - 0.1:
            return "better"
        if during >= before + 0.1:
            return "worse"
        return ""


def focused_assignments(*, classroom: Classroom, assignment: Assignment | None = None) -> list[Assignment]:
    found = classroom.assignments.exclude(focus={}).prefetch_related("students").order_by("created_at", "pk")
    if assignment is not None:
        found = found.filter(pk=assignment.pk)
    return list(found)


def focus_outcomes(*, classroom: Classroom, student: User | None = None,
                   assignment: Assignment | None = None,
                   students: list[User] | None = None) -> list[FocusOutcome]:
    """Before and after of every "Practise this" assignment of the class (or one), for each
    of its students who finished at least one of its games (or one student): three queries
    per focused assignment. Before: the student's evidence of the focused measure (and its
    details: a fact counts in either order) played before the assignment was set; during:
    the evidence of the assignment's games."""
    known = measures_by_id()
    if students is None:
        students = ([student] if student is not None
                    else list(classroom_selectors.students_of_class(classroom=classroom)))
    elif student is not None:
        students = [s for s in students if s.pk == student.pk]
    outcomes = []
    for a in focused_assignments(classroom=classroom, assignment=assignment):
        measure = known.get(a.focus.get("measure", ""))
        if measure is None:
            continue
        chosen = {s.pk for s in a.students.all()}
        audience = [s for s in students if not chosen or s.pk in chosen]
        if not audience:
            continue
        counts = classroom_selectors.finished_counts(Seat.objects.filter(user__in=[s.pk for s in audience], game__assignment=a))
        played = [s for s in audience if counts.get((s.pk, a.pk), (0, 0))[0]]
        if not played:
            continue
        rows = SkillEvidence.objects.filter(classroom=classroom, measure__in=evidence_measures(measure.id),
                                            student__in=[s.pk for s in played])
        details = a.focus.get("details") or []
        if details:
            rows = rows.filter(detail__in=details)
        if not measure.game:  # the rules: every attempt is a chance; those of the game practised
            rows = rows.filter(game__key=a.game)

        def tally(qs):
            return {r["student_id"]: (r["misses"], r["chances"]) for r in qs.values("student_id").annotate(
                chances=Count("id"), misses=Count("id", filter=Q(missed=True))).order_by()}

        before = tally(rows.filter(played_at__lt=a.created_at).exclude(assignment=a))
        during = tally(rows.filter(assignment=a))
        for s in played:
            outcomes.append(FocusOutcome(a, s, measure, label_of(a.focus) or measure.title,
                                         before.get(s.pk, (0, 0)), during.get(s.pk, (0, 0)),
                                         Progress(a, *counts[(s.pk, a.pk)])))
    return outcomes
