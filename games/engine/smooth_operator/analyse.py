"""Facts about one Smooth Operator decision for the skill reports (spec skills.md).

Computed on the state before the action; never raises for a well-shaped action, legal or
not (a refused attempt is recorded with its analysis and its error code).

- a response: every legal option (card -> award), the lowest, the choice and its award,
  `lowest_exact_division_available`, whether the hand holds `/` (so.lowest_operator,
  so.even_division);
- a penalty: the specials held and the one given up;
- the active player's specials: the specials held, the awards so far, what `free_choice`
  with each sign would make the turn worth, the turn points (so.specials);
- any action with an `answer`: the correct value of h (op) l and whether it matched
  (so.mental_math).
"""

from __future__ import annotations

from . import rules


def _response(hand, high: int, low: int, action: dict) -> dict:
    options = rules.play_options(hand, high, low)
    lowest = min(options.values()) if options else None
    card = action.get("card") if action.get("type") == "play" else None
    chosen_award = options.get(card) if type(card) is str else None
    exact = high % low == 0
    return {
        "options": options,
        "lowest": lowest,
        "lowest_cards": [c for c, v in options.items() if v == lowest],
        "distinct_values": len(set(options.values())),
        "chosen": card,
        "chosen_award": chosen_award,
        "above_lowest": (chosen_award - lowest) if chosen_award is not None else None,
        "missed_lower": chosen_award is not None and chosen_award > lowest,
        "holds_division": "/" in hand,
        "division_exact": exact,
        "lowest_exact_division_available": "/" in hand and exact and options["/"] == lowest,
    }


def _penalty(hand, action: dict) -> dict:
    discard = action.get("discard") if action.get("type") == "penalty" else None
    return {"specials_held": rules.specials_in(hand), "chosen": discard,
            "award": rules.STUCK_PENALTY}


def _specials(state: dict, hand, high: int, low: int, action: dict) -> dict:
    awards = state["turn_awards"]
    doubles = state["doubles"]
    points = state["turn_points"]
    held = rules.specials_in(hand)
    responders = len(awards)
    with_sign = {sign: rules.turn_points(rules.result(sign, high, low) * responders, doubles)
                 for sign in rules.free_choice_signs(high, low)}
    best_sign = max(with_sign, key=with_sign.get)
    holds_free_choice = "free_choice" in held
    kind = action.get("type")
    card = action.get("card") if kind == "special" else None
    sign = action.get("sign") if card == "free_choice" else None
    return {
        "specials_held": held,
        "turn_awards": dict(awards),
        "doubles": doubles,
        "turn_points": points,
        "free_choice_points": with_sign,
        "best_free_choice": best_sign,
        "best_free_choice_points": with_sign[best_sign],
        "free_choice_would_raise": holds_free_choice and with_sign[best_sign] > points,
        "chosen": "end_turn" if kind == "end_turn" else card,
        "sign": sign,
        "ended_with_raising_free_choice_unplayed":
            kind == "end_turn" and holds_free_choice and with_sign[best_sign] > points,
        "double_on_zero": card == "double" and "double" in held and points == 0,
    }


def _answer(action: dict, high, low) -> dict:
    """The value the player was asked to compute: h (op) l for the card or sign used.
    `answer_correct` is None when the action uses no operation (a penalty, `double`, ...)
    and False for an uneven division, which has no whole-number answer."""
    if "answer" not in action:
        return {}
    op = action.get("sign") if action.get("type") == "special" else action.get("card")
    if high is None or type(op) is not str or op not in rules.ARITHMETIC:
        return {"answer": action["answer"], "correct_answer": None, "answer_correct": None}
    correct = rules.result(op, high, low)
    return {"answer": action["answer"], "correct_answer": correct,
            "answer_correct": correct is not None and action["answer"] == correct}


def analyse(engine, state: dict, player: str, action) -> dict:
    if type(action) is not dict:
        action = {}
    kind = engine.decision(state, player) if not state["finished"] else None
    high, low = state["high"], state["low"]
    facts = {
        "kind": kind or "none",
        "player": player,
        "action": action.get("type"),
        "active": state["active"],
        "high": high,
        "low": low,
        "turn": state["turn_number"],
        "error": engine.error_code(state, player, action),
    }
    if kind is not None:
        hand = state["hands"][player]
        facts["hand"] = rules.sort_hand(hand)
        if kind == rules.RESPONSE:
            facts.update(_response(hand, high, low, action))
        elif kind == rules.PENALTY:
            facts.update(_penalty(hand, action))
        else:
            facts.update(_specials(state, hand, high, low, action))
    facts.update(_answer(action, high, low))
    return facts
