"""Facts about one Smooth Operator decision for the skill reports (spec skills.md; how each
measure reads them: skills.py beside this file, and docs/reports.md).

Computed on the state before the action; never raises for a well-shaped action, legal or
not (a refused attempt is recorded with its analysis and its error code). Cheap: no Monte
Carlo, a few dictionary look-ups per card (it runs on the server for every move).

- a response: every legal option (card -> award), the lowest, the choice and its award, and
  the expert bot's own evaluation of each card (`evaluations`: the award now plus the points
  the hand it keeps will still give away, strategy.best_response) with each card's `regrets`
  against its best card and the chosen card's `regret` (so.lowest_operator); whether the
  hand holds `/` and the division is exact (so.even_division);
- a penalty: the specials held and the one given up; whether `/` was held on an uneven pair;
- the active player's specials: the specials held, the awards so far, what `free_choice`
  with each sign would make the turn worth, the turn points, and the verdict of
  `specials_verdict` (so.specials): whether a clear mistake was possible here, whether this
  action is one, and the points it gives up;
- any action with an `answer`: the correct value of h (op) l, whether it matched and the
  operation as the reports write it (`answer_operation`: + − × ÷; so.mental_math).
"""

from __future__ import annotations

from . import expert, rules, strategy
from .bots import comes_straight_back

# Float noise in the expert's evaluations (hand values are rounded to 0.01): a card whose
# evaluation is within this of the best card's is as good as the best. Regrets are rounded to
# 0.01 point, so a regret above 0 is one above this tolerance.
REGRET_TOLERANCE = 0.005

# so.specials: a Free Choice that would raise the turn by at least this many points is one the
# expert bot plays (or plays after a Double) in practice every time: ending the turn with it
# unplayed is a clear miss. Below it, keeping the card for a better turn is a judgement the
# expert makes by Monte Carlo, never read as a miss. (In 300 expert self-play games to 500 the
# expert ended a turn holding such a Free Choice once, at 151 points; at 100 points 19 times.)
CLEAR_FREE_CHOICE_GAIN = 150


def expert_odds(view: dict) -> dict:
    """The next draw's odds as the expert bot weighs them from this view (expert.py: the
    operator cards the viewer cannot see)."""
    return strategy.draw_odds(expert.unseen_operators(view))


def response_evaluations(hand, high: int, low: int, odds: dict = strategy.PACK_DRAW) -> dict[str, float]:
    """{card: award now + the points the kept hand will still give away}: what the expert bot
    minimises when it responds (strategy.best_response), for every legal card."""
    options = rules.play_options(hand, high, low)
    return {card: award + strategy.keep_value(hand, card, odds) for card, award in options.items()}


def response_regrets(hand, high: int, low: int, odds: dict = strategy.PACK_DRAW) -> dict[str, float]:
    """{card: its evaluation minus the best card's} (points; 0 for the expert's card)."""
    values = response_evaluations(hand, high, low, odds)
    if not values:
        return {}
    best = min(values.values())
    return {card: round(v - best, 2) if v - best > REGRET_TOLERANCE else 0.0 for card, v in values.items()}


def _response(engine, state: dict, player: str, hand, high: int, low: int, action: dict) -> dict:
    options = rules.play_options(hand, high, low)
    lowest = min(options.values()) if options else None
    card = action.get("card") if action.get("type") == "play" else None
    chosen_award = options.get(card) if type(card) is str else None
    exact = high % low == 0
    odds = expert_odds(engine.view(state, player))
    regrets = response_regrets(hand, high, low, odds)
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
        "expert_card": strategy.best_response(hand, high, low, odds),
        "regrets": regrets,
        "regret": regrets.get(card) if type(card) is str else None,
    }


def _penalty(hand, high: int, low: int, action: dict) -> dict:
    discard = action.get("discard") if action.get("type") == "penalty" else None
    return {"specials_held": rules.specials_in(hand), "chosen": discard,
            "award": rules.STUCK_PENALTY, "holds_division": "/" in hand,
            "division_exact": high % low == 0}


def specials_verdict(held, turn_points: int, doubles: int, with_sign: dict, action: dict, *,
                     recycled: bool = False, score: int | None = None,
                     target: int | None = None) -> tuple[bool, str, float]:
    """so.specials at one decision of the active player: (chance, miss, points given up).

    Only what the expert bot never does is a miss (its specials are chosen by Monte Carlo, so
    keeping a special for a better turn is never read as one):
    - "kept_free_turn": ending the turn holding a Free Turn (the expert always plays it,
      unless it would come straight back); points: the expert's estimate of its worth;
    - "weak_free_choice": a Free Choice whose sign gives fewer points than the best sign, or
      that does not raise the turn (the expert plays only the best sign, only when it raises);
    - "kept_free_choice": ending the turn with a Free Choice unplayed that would raise it by
      CLEAR_FREE_CHOICE_GAIN points or more;
    - "kept_win": ending the turn short of the target when one special (Double, or Free Choice
      with the best sign) would have reached it: the game won now;
    - "double_zero": a Double when the turn is worth 0 and no Free Choice is held to raise it.
    A chance is a decision where one of these was possible: a Free Turn that would not come
    straight back, a Free Choice held, a winning special held, or a Double on a turn worth 0.
    """
    held = list(held)
    kind = action.get("type")
    card = action.get("card") if kind == "special" else None
    best_points = max(with_sign.values()) if with_sign else turn_points
    wins = score is not None and target is not None and score < target
    win_gain = None  # the smallest special that wins now, as points gained
    if wins:
        gains = []
        if "double" in held and not recycled and score + turn_points >= target:
            gains.append(turn_points)
        if "free_choice" in held and score + best_points - turn_points >= target:
            gains.append(best_points - turn_points)
        win_gain = min(gains) if gains else None
    free_turn = "free_turn" in held and not recycled
    double_zero = "double" in held and turn_points == 0 and "free_choice" not in held
    chance = free_turn or "free_choice" in held or win_gain is not None or double_zero
    if not chance:
        return False, "", 0.0
    if kind == "end_turn":
        if free_turn:
            return True, "kept_free_turn", float(strategy.SPECIAL_GAIN["free_turn"])
        if win_gain is not None:
            return True, "kept_win", float(win_gain)
        if "free_choice" in held and best_points - turn_points >= CLEAR_FREE_CHOICE_GAIN:
            return True, "kept_free_choice", float(best_points - turn_points)
    elif card == "free_choice" and "free_choice" in held:
        chosen = with_sign.get(action.get("sign"))
        if chosen is not None and (chosen < best_points or chosen <= turn_points):
            return True, "weak_free_choice", float(max(best_points, turn_points) - chosen)
    elif card == "double" and double_zero:
        return True, "double_zero", 0.0
    return True, "", 0.0


def _specials(state: dict, player: str, hand, high: int, low: int, action: dict) -> dict:
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
    recycled = comes_straight_back(len(state["decks"]["operator"]), state["discards"]["operator"])
    score, target = state["scores"][player], state["options"]["target"]
    chance, miss, given_up = specials_verdict(held, points, doubles, with_sign, action, recycled=recycled,
                                              score=score, target=target)
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
        "recycled": recycled,
        "score": score,
        "target": target,
        "specials_chance": chance,
        "specials_miss": miss,
        "specials_given_up": given_up,
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
            "answer_correct": correct is not None and action["answer"] == correct,
            "answer_operation": rules.SYMBOL[op]}


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
            facts.update(_response(engine, state, player, hand, high, low, action))
        elif kind == rules.PENALTY:
            facts.update(_penalty(hand, high, low, action))
        else:
            facts.update(_specials(state, player, hand, high, low, action))
    facts.update(_answer(action, high, low))
    return facts


# ----- reading a recorded analysis (the reports count it; the verdicts explain it) ---------

def recorded_regrets(a: dict) -> dict:
    """A response's recorded regrets; for an analysis recorded before they were (no discards
    known), the same evaluation with the pack's odds."""
    regrets = a.get("regrets")
    if regrets is None and a.get("hand") and a.get("high") is not None and a.get("low"):
        regrets = response_regrets(a["hand"], a["high"], a["low"])
    return regrets or {}


def recorded_specials(a: dict) -> tuple[bool, str, float]:
    """An active player's recorded so.specials verdict: (chance, miss, points given up); for an
    analysis recorded before the verdict was, judged again without the target."""
    if "specials_chance" in a:
        return bool(a["specials_chance"]), a.get("specials_miss") or "", a.get("specials_given_up") or 0.0
    chosen = a.get("chosen")
    action = {"type": "end_turn"} if chosen == "end_turn" else \
        {"type": "special", "card": chosen, "sign": a.get("sign")}
    return specials_verdict(a.get("specials_held") or (), a.get("turn_points") or 0, a.get("doubles") or 0,
                            a.get("free_choice_points") or {}, action)
