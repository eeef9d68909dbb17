"""Numero's (and Numero Solitaire's) skill measures and evidence extractors
(shared/spec/skills.md; how each is counted and its known limits: docs/reports.md). Pure:
reads the analysis `engine.analyse` recorded, and the challenge events."""

from __future__ import annotations

from typing import Iterator

from ..skills import Candidate, GameSkills, Measure, MoveFacts, Planted
from .planted import PlantedNumero

GAME = "numero"

MEASURES = (
    Measure("nu.missed_take", GAME, "Sees takes",
            "Built or discarded when a take was possible", "turns",
            "Notices when cards can be taken.",
            well_words="spotted a take"),
    Measure("nu.best_take", GAME, "Biggest take",
            "Took fewer cards than possible", "takes",
            "Takes as many cards as possible.",
            well_words="took as many cards as possible",
            amount_words=("card left", "cards left")),
    Measure("nu.valid_build", GAME, "Honest builds",
            "Built without the answer in hand", "builds",
            "Builds only when holding the answer card.",
            well_words="built only with the answer card in hand"),
    Measure("nu.operations", GAME, "Many operations",
            "Used one operation when more were possible", "takes with a wild card",
            "Uses several operations in one take.",
            well_words="used more than one operation in a take"),
)

BUILD_CHANCE_CODES = frozenset({"", "no_answer_card"})


def per_attempt(m: MoveFacts, err: str) -> Iterator[Candidate]:
    a = m.analysis
    kind = a.get("kind")
    decision = m.version_before
    if kind in ("take", "build", "discard") and a.get("take_possible"):
        yield decision, "nu.missed_take", "", bool(a.get("missed_take")) and not err, None
    if kind == "take" and not err and a.get("chosen") and "cards_left_behind" in a:
        behind = a["cards_left_behind"]
        yield decision, "nu.best_take", "", behind > 0, behind
        if a.get("holding_wild") and "max_operations" in a:
            one_op = a["chosen"].get("operations") == 1 and a["max_operations"] > 1
            yield decision, "nu.operations", "", one_op, None
    if kind == "build" and err in BUILD_CHANCE_CODES:
        yield decision, "nu.valid_build", "", err == "no_answer_card", None


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
                    yield build, (build.version_before, "nu.valid_build", "", True, None)


SKILLS = GameSkills(
    measures=MEASURES,
    analysis_keys=("kind", "take_possible", "missed_take", "chosen", "cards_left_behind",
                   "holding_wild", "max_operations", "bluff", "analysis_error"),
    per_attempt=per_attempt,
    per_game=lost_challenges,
    # Simulated games use every wild family (level 6), so that takes can use operations, and
    # no scoring, so no challenges: a build without the answer card is refused
    # (`no_answer_card`), never a bluff the player cannot decide is a miss.
    planted=Planted(PlantedNumero, options={
        "wilds": ["subtract", "multiply", "divide", "fraction", "power"]}),
)
