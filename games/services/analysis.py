"""Skill facts recorded with every move (the engine's `analyse`, on the state before it), and
analysing a finished game's moves again when a game's measures changed.

Each analysis carries `rev`, the game's `GameSkills.analysis_revision` when it was made. When
a game's measures change what they read, its revision goes up; the reports then call
`game_reanalyse` before computing such a game again: the game is replayed from its seed,
options and seats (engines are deterministic), each recorded attempt analysed on the state it
was made in, and only the analyses are rewritten - moves, states and results stay as played.
"""

from __future__ import annotations

import logging
from typing import Any

from games import registry
from games.engine import IllegalMove
from games.models import Game, Move
from games.spec import GameSpec

log = logging.getLogger(__name__)

REV = "rev"


def analysis_revision(spec: GameSpec) -> int:
    return spec.skills.analysis_revision if spec.skills else 1


def move_analysis(spec: GameSpec, state: dict, player: str, action: Any) -> dict:
    """Skill facts for the decision. Analysis must never block play: a malformed action has
    nothing to analyse, and a failure is logged rather than refusing the move."""
    if not isinstance(action, dict):
        return {}
    try:
        facts = spec.engine.analyse(state, player, action)
    except IllegalMove:
        return {}
    except Exception:  # noqa: BLE001 - logged, and the move itself is still judged by apply()
        log.exception("analyse failed for %s", spec.key)
        return {"analysis_error": True}
    return {**facts, REV: analysis_revision(spec)}


class ReplayMismatch(RuntimeError):
    """The replay did not reproduce a recorded move (an engine changed its rules)."""


def game_reanalyse(*, game_id: int) -> int:
    """Analyse every recorded attempt of a finished game again with the current `analyse`;
    returns how many analyses were rewritten. Safe to run twice (the same replay gives the
    same analyses). Raises ReplayMismatch, writing nothing, if the replay disagrees with
    what was recorded (an accepted move refused now, or the reverse)."""
    game = Game.objects.only("id", "key", "seed", "options").get(pk=game_id)
    spec = registry.spec_for(game.key)
    engine = spec.engine
    names = list(game.seats.order_by("position").values_list("name", flat=True))
    moves = list(Move.objects.filter(game_id=game_id).select_related("seat").order_by("sequence")
                 .only("id", "action", "accepted", "analysis", "seat__name"))
    state = engine.new_game(names, game.options or {}, game.seed)
    changed = []
    for move in moves:
        move.analysis = move_analysis(spec, state, move.seat.name, move.action)
        changed.append(move)
        if not isinstance(move.action, dict):
            if move.accepted:
                raise ReplayMismatch(f"game {game_id}: move {move.pk} has no action but was accepted")
            continue
        try:
            state, _events = engine.apply(state, move.seat.name, move.action)
        except IllegalMove:
            if move.accepted:
                raise ReplayMismatch(f"game {game_id}: move {move.pk} is refused on replay") from None
            continue
        if not move.accepted:
            raise ReplayMismatch(f"game {game_id}: move {move.pk} was refused but applies on replay")
    Move.objects.bulk_update(changed, ["analysis"], batch_size=500)
    return len(changed)
