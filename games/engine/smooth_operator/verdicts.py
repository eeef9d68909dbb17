"""Smooth Operator's verdicts explained (GameSkills.explain): for each counted decision, what
was played, what the expert bot would have played and what the difference was worth, in
points, so that a teacher can check the verdict by hand.

Read from the analysis recorded with the move (analyse.py), the very facts the measures count
(skills.py): the expert's regret of every card (`recorded_regrets`) and its so.specials
verdict (`recorded_specials`). Nothing is judged again here: these are the words for it.
Only the player's own cards and the face-up numbers are named (what they saw).
"""

from __future__ import annotations

from ..skills import Judged, Verdict, counted, explain_by_measure, number_words
from . import rules
from .analyse import CLEAR_FREE_CHOICE_GAIN, recorded_regrets, recorded_specials


def _card(code) -> str:
    return f"the {rules.CARD_NAME.get(code, code)} card"


def _points(x: float) -> str:
    return counted(x, "point", "points")


def _sum(op: str, high, low) -> str:
    value = rules.result(op, high, low)
    return f"{high} {rules.SYMBOL[op]} {low} = {value}"


def _award(a, card: str, options: dict) -> str:
    """"the × card: 9 × 3 = 27, so 27 points for Ana now" (the award now)."""
    to = f" for {a['active']}" if a.get("active") else ""
    return f"{_card(card)}: {_sum(card, a['high'], a['low'])}, so {_points(options[card])}{to} now"


def _difference(now: float, later: float) -> str:
    """"21 more now, 12.5 fewer later from the cards kept" (signed differences in points)."""
    def part(x: float, when: str) -> str:
        if abs(x) < 0.005:
            return f"the same {when}"
        return f"{number_words(abs(x))} {'more' if x > 0 else 'fewer'} {when}"
    return f"{part(now, 'now')}, {part(later, 'later from the cards kept')}"


def explain_response(j: Judged) -> Verdict | None:
    """so.lowest_operator: the card played against the card with the smallest award now plus
    the points the kept hand will still give away (strategy.best_response)."""
    a = j.analysis
    high, low, chosen = a.get("high"), a.get("low"), a.get("chosen")
    regrets = recorded_regrets(dict(a))
    if high is None or not low or chosen not in regrets:
        return None
    options = a.get("options") or rules.play_options(a.get("hand") or (), high, low)
    best = [c for c in regrets if regrets[c] == 0]
    expert = a.get("expert_card") if a.get("expert_card") in best else \
        min(best, key=lambda c: rules.CANONICAL[c])
    played = f"Played {_award(a, chosen, options)}."
    others = sorted((c for c in regrets if c != chosen), key=lambda c: (regrets[c], rules.CANONICAL[c]))
    if regrets[chosen] > 0:
        regret = regrets[chosen]
        now = options[chosen] - options[expert]
        return Verdict(True, played, f"The expert would play {_award(a, expert, options)}.",
                       f"Gave away {_points(regret)} more than {_card(expert)} would have, as the "
                       f"expert counts them ({_difference(now, regret - now)}).")
    if chosen == expert:
        lowest = min(options, key=lambda c: (options[c], rules.CANONICAL[c]))
        now = options[chosen] - options[lowest]
        if now > 0 and regrets.get(lowest, 0) > 0:
            # A higher card played on purpose: the lowest card now would keep a costlier hand.
            return Verdict(False, played, "The expert would play the same card.",
                           f"Fine: it gives {_points(now)} more now than {_card(lowest)}, but playing "
                           f"{_card(lowest)} would keep cards that give away "
                           f"{number_words(now + regrets[lowest])} more later, as the expert counts them: "
                           f"{_points(regrets[lowest])} more in all.")
        rest = "; ".join(f"{_card(c)} would give away {_points(regrets[c])} more" for c in others
                         if regrets[c] > 0)
        return Verdict(False, played, "The expert would play the same card.",
                       "Fine: no card gives away fewer points, now and later from the cards kept"
                       + (f" (as the expert counts them: {rest})." if rest else "."))
    return Verdict(False, played, f"The expert would play {_award(a, expert, options)}.",
                   f"Fine: {_card(expert)} would have given away the same points, now and later "
                   "from the cards kept.")


def _held(cards) -> str:
    names = [rules.CARD_NAME.get(c, c) for c in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _turn_played(a, with_sign: dict) -> str:
    chosen, points = a.get("chosen"), a.get("turn_points") or 0
    if chosen == "end_turn":
        held = a.get("specials_held") or []
        return (f"Ended the turn worth {_points(points)}"
                + (f", still holding {_held(held)}." if held else "."))
    if chosen == "free_choice" and a.get("sign") in with_sign:
        sign = a["sign"]
        return (f"Played Free Choice with {rules.SYMBOL[sign]}: the turn worth "
                f"{_points(with_sign[sign])} (it was {number_words(points)}).")
    if chosen == "double":
        return f"Played Double on a turn worth {_points(points)}."
    return f"Played {rules.CARD_NAME.get(chosen, chosen)}."


def explain_specials(j: Judged) -> Verdict | None:
    """so.specials: only what the expert bot never does is a miss (analyse.specials_verdict);
    anything else with a special is the expert's own judgement (it tries many games out)."""
    a = j.analysis
    chance, miss, given_up = recorded_specials(dict(a))
    if not chance:
        return None
    with_sign = a.get("free_choice_points") or {}
    points = a.get("turn_points") or 0
    best = max(with_sign, key=with_sign.get) if with_sign else None
    best_points = with_sign.get(best, points)
    played = _turn_played(a, with_sign)
    best_words = (f"Free Choice with {rules.SYMBOL[best]}: the turn worth {_points(best_points)}"
                  if best else "")
    if miss == "kept_free_turn":
        return Verdict(True, played, "The expert always plays a Free Turn: another turn straight after "
                       "this one.", f"About {_points(given_up)} missed: what the expert reckons a Free "
                       "Turn earns.")
    if miss == "kept_win":
        return Verdict(True, played, f"The expert would play the special card that wins now: "
                       f"{_points(given_up)} more reach the target of {a.get('target')}.",
                       "The game could have been won this turn.")
    if miss == "kept_free_choice":
        return Verdict(True, played, f"The expert would play {best_words}.",
                       f"{_points(given_up)} missed (the expert always plays a Free Choice that adds "
                       f"{CLEAR_FREE_CHOICE_GAIN} points or more).")
    if miss == "weak_free_choice":
        expert = (f"The expert would play {best_words}." if best_points > points else
                  f"The expert would keep Free Choice: no sign makes this turn worth more than "
                  f"{_points(points)}.")
        return Verdict(True, played, expert, f"{_points(given_up)} missed." if given_up > 0 else
                       "Free Choice was used up without making the turn worth more.")
    if miss == "double_zero":
        return Verdict(True, played, "The expert would keep the Double for a turn worth points.",
                       "The Double was used up on 0 points (0 doubled is still 0).")
    return Verdict(False, played, *_fine_specials(a, best, best_points, points))


def _fine_specials(a, best, best_points, points) -> tuple[str, str]:
    """(the expert's side, why it is fine) for a turn with a special and no clear mistake."""
    chosen, held = a.get("chosen"), a.get("specials_held") or []
    judgement = "The expert may keep it or play it: it decides by trying out many games."
    if chosen == "free_choice":
        return (f"The expert plays Free Choice only with its best sign, {rules.SYMBOL[best]}: the turn "
                f"worth {_points(best_points)}.", "Fine: no sign makes the turn worth more.")
    if chosen == "free_turn":
        return "The expert always plays a Free Turn.", "Fine: the same move."
    if chosen == "double":
        return judgement, "Fine: playing or keeping a Double is never counted as a miss."
    reasons = []
    if "free_turn" in held:
        reasons.append("the Free Turn would come straight back (the pack is cut short)")
    if "free_choice" in held:
        gain = best_points - points
        reasons.append(
            f"Free Choice would add only {_points(gain)}: keeping it for a better turn is fine (the "
            f"expert always plays one that adds {CLEAR_FREE_CHOICE_GAIN} points or more)"
            if gain > 0 else "Free Choice would not make this turn worth more")
    return judgement, "Fine: " + "; ".join(reasons or ["no special card was wasted"]) + "."


def explain_answer(j: Judged) -> Verdict | None:
    """so.mental_math: the answer given against h (op) l."""
    a = j.analysis
    op = a.get("answer_operation")
    if not op or a.get("answer") is None or a.get("correct_answer") is None:
        return None
    sum_ = f"{a['high']} {op} {a['low']}"
    played = f"Answered {a['answer']} for {sum_}."
    if j.missed:
        return Verdict(True, played, f"{sum_} = {a['correct_answer']}.", "A wrong answer.")
    return Verdict(False, played, f"{sum_} = {a['correct_answer']}.", "Fine: the right answer.")


def explain_division(j: Judged) -> Verdict | None:
    """so.even_division: ÷ could be tried on a pair that does not divide exactly."""
    a = j.analysis
    high, low = a.get("high"), a.get("low")
    if high is None or not low:
        return None
    over = f"{high} ÷ {low} does not work out exactly ({number_words(high % low)} left over)."
    if j.missed:
        return Verdict(True, f"Tried ÷ on {high} and {low}.", over,
                       "The rules refuse a ÷ that does not work out exactly.")
    return Verdict(False, f"Did not try ÷ on {high} and {low}.", over, "Fine: ÷ was not tried.")


explain = explain_by_measure({"so.lowest_operator": explain_response, "so.specials": explain_specials,
                             "so.mental_math": explain_answer, "so.even_division": explain_division})
