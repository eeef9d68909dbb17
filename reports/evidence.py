"""Turning one game's recorded moves into skill evidence, by game key. The machinery itself
(what counts once, one mistake one measure) is games/engine/evidence.py, which the end of a
game counts with too; here it is found through the registry, with the helpers the reports'
loading and storing use. Pure Python: no database.
"""

from __future__ import annotations

from datetime import date, timedelta

from games import registry
from games.engine import evidence as engine_evidence
from games.engine.evidence import Evidence, analysis_read
from games.engine.skills import GameSkills, MoveFacts

__all__ = ["Evidence", "MoveFacts", "analysis_keys", "analysis_read", "game_evidence",
           "game_skills", "monday", "needs_events"]


def monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def game_skills(key: str) -> GameSkills | None:
    """The game's measures and extractors (None for a game without skill measures)."""
    spec = registry.get(key)
    return spec.skills if spec else None


def analysis_keys(key: str) -> tuple[str, ...]:
    """The analysis keys a game's measures read: only these are fetched from the database
    (an analysis also lists every option and the hand, which the reports do not need)."""
    skills = game_skills(key)
    return skills.analysis_keys if skills else ("kind",)


def needs_events(key: str) -> bool:
    """Whether a game's measures read whole games' events (so every move is loaded)."""
    skills = game_skills(key)
    return bool(skills and skills.needs_events)


def game_evidence(key: str, moves: list[MoveFacts], seat_names: dict[int, str],
                  students: set[int]) -> list[Evidence]:
    """Every chance the students (`students`: seat ids) had in one game of `key`."""
    return engine_evidence.game_evidence(game_skills(key), moves, seat_names, students)
