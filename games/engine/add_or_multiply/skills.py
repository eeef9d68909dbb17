"""Add or Multiply?'s skill measure and its evidence extractor (shared/spec/skills.md; how
it is counted: docs/reports.md). Pure: reads the recorded plays and the rounds' events."""

from __future__ import annotations

from typing import Any, Iterator

from ..skills import Candidate, GameSkills, Measure, MoveFacts

GAME = "add_or_multiply"

MEASURES = (
    Measure("am.operation", GAME, "+ or ×",
            "Picked the operation that scored less", "rounds",
            "Chooses between adding and multiplying well.",
            well_words="picked the better of + and ×"),
)


def rounds(moves: list[MoveFacts], seat_names: dict[int, str],
           students: set[int]) -> Iterator[tuple[MoveFacts, Candidate]]:
    """One chance per resolved round, pointing at the student's own play of that round."""
    plays: dict[tuple[int, Any], MoveFacts] = {}
    for m in moves:
        if m.seat_id in students and m.accepted and m.analysis and m.analysis.get("kind") == "play":
            plays[(m.seat_id, m.analysis.get("round"))] = m
        for event in m.events or ():
            if event.get("type") != "round_resolved":
                continue
            for seat in students:
                result = event.get("results", {}).get(seat_names[seat])
                play = plays.get((seat, event.get("round")))
                if result is None or play is None:
                    continue
                lost = max(0, result["other_points"] - result["points"])
                yield play, (("round", event.get("round")), "am.operation", "", bool(result["missed"]),
                             lost)


SKILLS = GameSkills(
    measures=MEASURES,
    analysis_keys=("kind", "round", "analysis_error"),
    per_game=rounds,
)
