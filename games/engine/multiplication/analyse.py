"""Skill facts for one Multiplication Game decision (skills.md: mg.missed_play, mg.facts,
mg.squares), computed on the state before the action. Never raises: a rejected attempt
is analysed too, with its error code."""

from __future__ import annotations

from . import rules


def analyse_turn(engine, state: dict, player: str, action) -> dict:
    kind = action.get("type") if type(action) is dict else None
    kind = kind if type(kind) is str and kind in engine.ACTIONS else "unknown"
    facts = {"kind": kind, "player": player,
             "turn": state["turn"]}
    code = engine.error_code(state, player, action)
    facts.update(legal=code is None, error=code)
    if facts["error"] == "bad_action" or player not in state["players"]:
        return facts
    hand = state["hands"][player]
    mask = rules.mask_of(state["open"]["multipliers"])
    options = rules.playable(hand, mask)
    square_cards = [card for card, decls in options if any(rules.is_square(a * b) for a, b in decls)]
    facts.update(
        open=dict(state["open"], multipliers=list(state["open"]["multipliers"])),
        hand=rules.sorted_cards(hand),
        legal_discards=[{"card": card, "declarations": [list(d) for d in decls]}
                        for card, decls in options],
        could_discard=bool(options),
        square_possible=bool(square_cards),
        square_cards=square_cards,
        chosen={k: v for k, v in action.items() if k != "player"},
    )
    played_square = False
    if kind == "discard":
        card, (a, b) = action["card"], action["declare"]
        correct = rules.check_declaration(card, (a, b))
        common = a in state["open"]["multipliers"] or b in state["open"]["multipliers"]
        played_square = facts["legal"] and rules.is_square(a * b)
        facts["fact"] = {"a": a, "b": b, "card": card, "product": a * b, "correct": correct}
        facts["common_multiplier"] = common
        facts["square"] = played_square
    # mg.missed_play: drew while a legal discard existed.
    facts["missed_play"] = kind == "draw" and facts["could_discard"]
    # mg.squares: a square could be discarded, and something else was done.
    facts["missed_square"] = facts["square_possible"] and not played_square
    return facts
