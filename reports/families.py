"""The families measures are grouped under (arithmetic, strategy, rules, time): the headings of
the tables, pages and exports. Pure: no database.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy, pgettext_lazy

from games.engine.skills import Measure

@dataclass(frozen=True)
class Family:
    key: str
    title: str   # the heading of a group of measures
    about: str   # one line in plain words, for the teacher
    child: str   # the heading a student reads on "My progress"


FAMILIES = {
    "arithmetic": Family("arithmetic", pgettext_lazy("skill family", "Arithmetic"),
                         gettext_lazy("Working sums out right and knowing the facts: a wrong "
                                      "answer, a times-table fact said wrong, a division that "
                                      "does not go exactly."),
                         pgettext_lazy("skill family, for a child", "Working it out")),
    "strategy": Family("strategy", pgettext_lazy("skill family", "Strategy"),
                       gettext_lazy("How good each choice was, compared with the best play in "
                                    "the same position (what our strongest computer player would "
                                    "do there). A move it would make itself is never a miss."),
                       pgettext_lazy("skill family, for a child", "Clever choices")),
    "rules": Family("rules", pgettext_lazy("skill family", "Rules"),
                    gettext_lazy("Moves the game did not allow, tried anyway."),
                    pgettext_lazy("skill family, for a child", "Playing by the rules")),
    "time": Family("time", pgettext_lazy("skill family", "Thinking time"),
                   gettext_lazy("How long a decision takes: not right or wrong."),
                   pgettext_lazy("skill family, for a child", "Thinking time")),
}


def family_of(measure: Measure) -> Family:
    return FAMILIES.get(getattr(measure, "family", ""), FAMILIES["strategy"])


def by_family(measures) -> list:
    """Measures in family order (arithmetic, strategy, rules, time), keeping their order
    within a family."""
    order = list(FAMILIES)
    return sorted(measures, key=lambda m: order.index(family_of(m).key))


def family_groups(measures) -> list[tuple[Family, list]]:
    """[(family, its measures)] in family order, families without measures left out."""
    groups: list[tuple[Family, list]] = []
    for m in by_family(measures):
        fam = family_of(m)
        if groups and groups[-1][0] is fam:
            groups[-1][1].append(m)
        else:
            groups.append((fam, [m]))
    return groups
