"""Flags from one student's detail rows: a times-table fact (7 × 8), an operation (÷) or a
family of measures (Arithmetic) is flagged "Practise" or "Needs help" when its own band says
so and the numbers stand out from all the rows of that student's report looked at together
(reports/many_rows.py: an exact test per row, Holm-Bonferroni over the rows). Pure: no
database; reports/flags.py stores what this finds, devtools/validity.py runs it on games
played without a database.

The rows: a fact is a × b and b × a together (the heat map); an operation is one operation
of a measure counted per operation (÷ in Mental maths: what "Practise this" focuses on; the
"per operation" table adds the measures up, which would hide a weak ÷ answer under the many
÷ chances of Exact division); a family is the whole rows of its measures added up. A family flag that only repeats what the
page already says (the family is no longer Practise without its flagged facts and operations
and without its measures whose own row is Practise or worse) is not shown: one weak fact is
one flag, not two. Leaving a flag out never adds a false one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.skills import OPERATIONS, Measure, fact_name, parse_fact

from .families import FAMILIES, family_of
from .many_rows import ALPHA, TEST_WORDS, binomial_tail, holm
from .measures import measure_by_id
from .operations import OPERATION_WORDS, operation_of
from .uncertainty import MIN_CHANCES, Band, band_for, range_short

FACT, OPERATION, FAMILY = "fact", "operation", "family"
FLAGGED_BANDS = ("practise", "help")
# What a miss is, for a family's flag ("Strategy: 12 of 40 choices below the best play").
# Translators: each follows "Strategy: 12 of 40 ".
FAMILY_MISSES = {"arithmetic": gettext_lazy("wrong"), "strategy": gettext_lazy("choices below the best play"),
                 "rules": gettext_lazy("tries the rules do not allow")}


@dataclass(frozen=True)
class Part:
    """The counts of one measure in a row, and the detail its moves are listed by."""

    measure: str
    detail: str  # "" for a measure's whole row
    misses: int
    chances: int


@dataclass(frozen=True)
class Row:
    kind: str   # FACT, OPERATION or FAMILY
    key: str    # "7x8", "÷", "arithmetic"
    parts: tuple[Part, ...]

    @property
    def misses(self) -> int:
        return sum(p.misses for p in self.parts)

    @property
    def chances(self) -> int:
        return sum(p.chances for p in self.parts)

    @property
    def measure(self) -> str:
        """The measure of a fact's or an operation's row ("" for a family's)."""
        return self.parts[0].measure if self.kind != FAMILY else ""

    @property
    def name(self) -> str:
        if self.kind == FACT:
            return fact_name(self.key)
        if self.kind == OPERATION:
            m = measure_by_id(self.measure)
            # Translators: "÷ (dividing) in Mental maths": an operation in a skill of a game.
            return _("%(sign)s (%(operation)s) in %(skill)s") % {
                "sign": self.key, "operation": OPERATION_WORDS[self.key][1],
                "skill": m.title if m else self.measure}
        return str(FAMILIES[self.key].title)

    @property
    def words(self) -> str:
        """'7 × 8: 6 of 16 wrong', '÷ (dividing) in Mental maths: 9 of 30 wrong'."""
        missed = FAMILY_MISSES.get(self.key, FAMILY_MISSES["arithmetic"]) if self.kind == FAMILY \
            else FAMILY_MISSES["arithmetic"]
        # Translators: "7 × 8: 6 of 16 wrong", "Strategy: 12 of 40 choices below the best play".
        return _("%(row)s: %(misses)s of %(count)s %(missed)s") % {
            "row": self.name, "misses": self.misses, "count": self.chances, "missed": missed}

    @classmethod
    def from_evidence(cls, evidence: Mapping) -> Row:
        """The row a stored flag was about (NeedsHelpFlag.evidence), so that a page says it in
        its reader's language rather than in the words stored when the flag was made."""
        return cls(evidence["kind"], evidence["key"], tuple(
            Part(p["measure"], p["detail"], p["misses"], p["chances"]) for p in evidence["parts"]))


@dataclass(frozen=True)
class DetailFlag:
    row: Row
    band: Band        # Practise or Needs help: the row's own band, as its page shows it
    p: float          # the row's exact p-value against Strong
    p_needed: float   # the Holm threshold it passed
    rows: int         # how many rows of the student were looked at together

    @property
    def evidence(self) -> dict:
        """What the flag keeps (NeedsHelpFlag.evidence) and `simulate_class --json` prints."""
        r = self.row
        return {"kind": r.kind, "key": r.key, "name": r.name, "words": r.words, "band": self.band.key,
                "misses": r.misses, "chances": r.chances, "rate": round(r.misses / r.chances, 4),
                "range": range_short(r.misses, r.chances),
                "parts": [{"measure": p.measure, "detail": p.detail, "misses": p.misses,
                           "chances": p.chances} for p in r.parts],
                "test": TEST_WORDS, "p": float(f"{self.p:.3g}"), "p_needed": float(f"{self.p_needed:.3g}"),
                "rows": self.rows, "alpha": ALPHA}


def detail_rows(counts: Iterable[tuple[str, str, int, int]], known: Mapping[str, Measure]) -> list[Row]:
    """One student's rows from (measure id, detail, chances, misses), all time: every fact of
    a fact-grid measure, every operation of a measure counted per operation (unless it is the
    whole measure: every Exact division chance is a ÷), every family with misses to count."""
    facts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    ops: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    families: dict[str, list[Part]] = defaultdict(list)
    for measure_id, detail, chances, misses in counts:
        m = known.get(measure_id)
        if m is None or not m.has_misses or not chances:
            continue
        if not detail:
            families[family_of(m).key].append(Part(m.id, "", misses, chances))
            continue
        if m.fact_grid and (fact := parse_fact(detail)) is not None:
            found = facts[(m.id, f"{min(fact)}x{max(fact)}")]
        elif m.by_operation and (op := operation_of(detail)) is not None:
            found = ops[(m.id, op)]
        else:
            continue
        found[0] += misses
        found[1] += chances
    whole = {p.measure: p.chances for parts in families.values() for p in parts}
    rows = [Row(FACT, fact, (Part(mid, fact, x, n),)) for (mid, fact), (x, n) in sorted(facts.items())]
    rows += [Row(OPERATION, op, (Part(mid, op, x, n),))
             for (mid, op), (x, n) in sorted(ops.items(), key=lambda kv: (kv[0][0], OPERATIONS.index(kv[0][1])))
             if n < whole.get(mid, 0)]
    rows += [Row(FAMILY, key, tuple(sorted(families[key], key=lambda p: p.measure)))
             for key in FAMILIES if key in families]
    return rows


def detail_flags(rows: list[Row]) -> list[DetailFlag]:
    """The rows to flag: rows with a band (MIN_CHANCES chances or more) are tested together;
    a row is flagged when Holm rejects "it is Strong" and its band is Practise or Needs help."""
    judged = [r for r in rows if r.chances >= MIN_CHANCES]
    p_values = [binomial_tail(r.misses, r.chances) for r in judged]
    flags = []
    for row, p, needed in zip(judged, p_values, holm(p_values)):
        band = band_for(row.misses, row.chances)
        if needed is not None and band.key in FLAGGED_BANDS:
            flags.append(DetailFlag(row, band, p, needed, len(judged)))
    return [f for f in flags if f.row.kind != FAMILY or _beyond_details(f.row, flags)]


def _beyond_details(family: Row, flags: list[DetailFlag]) -> bool:
    """Whether the family is still Practise or worse without what already says it: its
    measures whose own row is Practise or worse (the skill table shows those) and its flagged
    facts and operations. What is left is a weakness spread thin over the family."""
    rest = [p for p in family.parts if band_for(p.misses, p.chances).key not in FLAGGED_BANDS]
    ids = {p.measure for p in rest}
    taken = [p for f in flags if f.row.kind != FAMILY for p in f.row.parts if p.measure in ids]
    misses = sum(p.misses for p in rest) - sum(p.misses for p in taken)
    chances = sum(p.chances for p in rest) - sum(p.chances for p in taken)
    return band_for(misses, chances).key in FLAGGED_BANDS
