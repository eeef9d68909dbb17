"""Smooth Operator's verdicts explained (GameSkills.explain): for each counted decision, what
was played, what the expert bot would have played and what the difference was worth, in
points, so that a teacher can check the verdict by hand.

Read from the analysis recorded with the move (analyse.py), the very facts the measures count
(skills.py): the expert's regret of every card (`recorded_regrets`) and its so.specials
verdict (`recorded_specials`). Nothing is judged again here: these are the words for it.
Only the player's own cards and the face-up numbers are named (what they saw).

Each sentence is whole, with named values (games/engine/words.py), so that it can be said in
the reader's language.
"""

from __future__ import annotations

from ..skills import Judged, Verdict, explain_by_measure, number_words, points
from ..words import _, names_in_words, pgettext
from . import rules
from .analyse import CLEAR_FREE_CHOICE_GAIN, recorded_regrets, recorded_specials


def _card(code) -> str:
    # Translators: a Smooth Operator card in a sentence: "the × card", "the Double card".
    return pgettext("Smooth Operator card, in a sentence", "the %(card)s card", card=rules.CARD_NAME.get(code, code))


def _sum(op: str, high, low) -> str:
    value = rules.result(op, high, low)
    return f"{high} {rules.SYMBOL[op]} {low} = {value}"


def _award(a, card: str, options: dict) -> str:
    """"the × card: 9 × 3 = 27, so 27 points for Ana now" (the award now)."""
    if a.get("active"):
        # Translators: a card played in answer and what it gives now: "the × card: 9 × 3 = 27, so 27
        # points for Ana now" (%(name)s is the player whose turn it is).
        return _("%(card)s: %(sum)s, so %(points)s for %(name)s now", card=_card(card),
                 sum=_sum(card, a["high"], a["low"]), points=points(options[card]), name=a["active"])
    # Translators: a card played in answer and what it gives now: "the × card: 9 × 3 = 27, so 27 points now".
    return _("%(card)s: %(sum)s, so %(points)s now", card=_card(card), sum=_sum(card, a["high"], a["low"]),
             points=points(options[card]))


def _now(x: float) -> str:
    if abs(x) < 0.005:
        # Translators: part of "(the same now, 12.5 fewer later from the cards kept)": points given away.
        return _("the same now")
    if x > 0:
        # Translators: "21 more now": points given away now (%(number)s may be "2.5").
        return _("%(number)s more now", number=number_words(abs(x)))
    # Translators: "21 fewer now": points given away now.
    return _("%(number)s fewer now", number=number_words(abs(x)))


def _later(x: float) -> str:
    if abs(x) < 0.005:
        # Translators: part of "(21 more now, the same later from the cards kept)": points given away.
        return _("the same later from the cards kept")
    if x > 0:
        # Translators: "12.5 more later from the cards kept": points the cards kept will give away.
        return _("%(number)s more later from the cards kept", number=number_words(abs(x)))
    # Translators: "12.5 fewer later from the cards kept": points the cards kept will give away.
    return _("%(number)s fewer later from the cards kept", number=number_words(abs(x)))


def _clauses(parts: list) -> str:
    head = parts[0]
    for part in parts[1:]:
        # Translators: one more clause in a list of reasons: "the × card would give away 3 points more;
        # the + card would give away 5 points more".
        head = pgettext("a list of clauses", "%(list)s; %(item)s", list=head, item=part)
    return head


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
    # Translators: %(award)s is "the × card: 9 × 3 = 27, so 27 points for Ana now".
    played = _("Played %(award)s.", award=_award(a, chosen, options))
    others = sorted((c for c in regrets if c != chosen), key=lambda c: (regrets[c], rules.CANONICAL[c]))
    same_card = _("The expert would play the same card.")
    if regrets[chosen] > 0:
        regret = regrets[chosen]
        now = options[chosen] - options[expert]
        # Translators: "the expert" is the expert computer player; %(award)s is "the × card: 9 × 3 =
        # 27, so 27 points for Ana now".
        return Verdict(True, played, _("The expert would play %(award)s.", award=_award(a, expert, options)),
                       # Translators: %(points)s is "8 points"; %(card)s is "the × card"; %(now)s is
                       # "21 more now", %(later)s "12.5 fewer later from the cards kept".
                       _("Gave away %(points)s more than %(card)s would have, as the expert counts them "
                         "(%(now)s, %(later)s).", points=points(regret), card=_card(expert), now=_now(now),
                         later=_later(regret - now)))
    if chosen == expert:
        lowest = min(options, key=lambda c: (options[c], rules.CANONICAL[c]))
        now = options[chosen] - options[lowest]
        if now > 0 and regrets.get(lowest, 0) > 0:
            # A higher card played on purpose: the lowest card now would keep a costlier hand.
            return Verdict(False, played, same_card,
                           # Translators: %(points)s and %(total)s are "8 points"; %(card)s is "the −
                           # card"; %(number)s is a number of points.
                           _("Fine: it gives %(points)s more now than %(card)s, but playing %(card)s would "
                             "keep cards that give away %(number)s more later, as the expert counts them: "
                             "%(total)s more in all.", points=points(now), card=_card(lowest),
                             number=number_words(now + regrets[lowest]), total=points(regrets[lowest])))
        # Translators: "the × card would give away 3 points more".
        rest = [_("%(card)s would give away %(points)s more", card=_card(c), points=points(regrets[c]))
                for c in others if regrets[c] > 0]
        if rest:
            return Verdict(False, played, same_card,
                           # Translators: %(others)s is a list: "the × card would give away 3 points
                           # more; the + card would give away 5 points more".
                           _("Fine: no card gives away fewer points, now and later from the cards kept (as "
                             "the expert counts them: %(others)s).", others=_clauses(rest)))
        return Verdict(False, played, same_card,
                       _("Fine: no card gives away fewer points, now and later from the cards kept."))
    return Verdict(False, played, _("The expert would play %(award)s.", award=_award(a, expert, options)),
                   # Translators: %(card)s is "the − card".
                   _("Fine: %(card)s would have given away the same points, now and later from the cards "
                     "kept.", card=_card(expert)))


def _turn_played(a, with_sign: dict) -> str:
    chosen, turn_points = a.get("chosen"), a.get("turn_points") or 0
    if chosen == "end_turn":
        held = a.get("specials_held") or []
        if held:
            # Translators: %(points)s is "12 points"; %(cards)s names special cards: "Double and Free Turn".
            return _("Ended the turn worth %(points)s, still holding %(cards)s.", points=points(turn_points),
                     cards=names_in_words([rules.CARD_NAME.get(c, c) for c in held]))
        # Translators: %(points)s is "12 points".
        return _("Ended the turn worth %(points)s.", points=points(turn_points))
    if chosen == "free_choice" and a.get("sign") in with_sign:
        sign = a["sign"]
        # Translators: %(sign)s is + − × or ÷; %(points)s is "27 points"; %(number)s the points before.
        return _("Played Free Choice with %(sign)s: the turn worth %(points)s (it was %(number)s).",
                 sign=rules.SYMBOL[sign], points=points(with_sign[sign]), number=number_words(turn_points))
    if chosen == "double":
        # Translators: %(points)s is "12 points".
        return _("Played Double on a turn worth %(points)s.", points=points(turn_points))
    # Translators: %(card)s is a card's name: "Free Turn".
    return _("Played %(card)s.", card=rules.CARD_NAME.get(chosen, chosen))


def _play_best(best, best_points) -> str:
    # Translators: %(sign)s is + − × or ÷; %(points)s is "27 points".
    return _("The expert would play Free Choice with %(sign)s: the turn worth %(points)s.",
             sign=rules.SYMBOL[best], points=points(best_points))


def explain_specials(j: Judged) -> Verdict | None:
    """so.specials: only what the expert bot never does is a miss (analyse.specials_verdict);
    anything else with a special is the expert's own judgement (it tries many games out)."""
    a = j.analysis
    chance, miss, given_up = recorded_specials(dict(a))
    if not chance:
        return None
    with_sign = a.get("free_choice_points") or {}
    turn_points = a.get("turn_points") or 0
    best = max(with_sign, key=with_sign.get) if with_sign else None
    best_points = with_sign.get(best, turn_points)
    played = _turn_played(a, with_sign)
    # Translators: %(points)s is "12 points".
    keep = _("The expert would keep Free Choice: no sign makes this turn worth more than %(points)s.",
             points=points(turn_points))
    if miss == "kept_free_turn":
        return Verdict(True, played, _("The expert always plays a Free Turn: another turn straight after "
                                       "this one."),
                       # Translators: %(points)s is "8 points" (or "7.5 points": an estimate).
                       _("About %(points)s missed: what the expert reckons a Free Turn earns.",
                         points=points(given_up)))
    if miss == "kept_win":
        # Translators: %(points)s is "8 points"; %(target)s the points that win the game.
        return Verdict(True, played, _("The expert would play the special card that wins now: %(points)s "
                                       "more reach the target of %(target)s.", points=points(given_up),
                                       target=a.get("target")),
                       _("The game could have been won this turn."))
    if miss == "kept_free_choice":
        return Verdict(True, played, _play_best(best, best_points) if best else keep,
                       # Translators: %(points)s is "8 points"; %(gain)s is "150 points".
                       _("%(points)s missed (the expert always plays a Free Choice that adds %(gain)s or "
                         "more).", points=points(given_up), gain=points(CLEAR_FREE_CHOICE_GAIN)))
    if miss == "weak_free_choice":
        expert = _play_best(best, best_points) if best and best_points > turn_points else keep
        # Translators: %(points)s is "8 points".
        return Verdict(True, played, expert, _("%(points)s missed.", points=points(given_up)) if given_up > 0
                       else _("Free Choice was used up without making the turn worth more."))
    if miss == "double_zero":
        return Verdict(True, played, _("The expert would keep the Double for a turn worth points."),
                       _("The Double was used up on 0 points (0 doubled is still 0)."))
    return Verdict(False, played, *_fine_specials(a, best, best_points, turn_points))


def _fine_specials(a, best, best_points, turn_points) -> tuple[str, str]:
    """(the expert's side, why it is fine) for a turn with a special and no clear mistake."""
    chosen, held = a.get("chosen"), a.get("specials_held") or []
    judgement = _("The expert may keep it or play it: it decides by trying out many games.")
    if chosen == "free_choice":
        # Translators: %(sign)s is + − × or ÷; %(points)s is "27 points".
        return (_("The expert plays Free Choice only with its best sign, %(sign)s: the turn worth "
                  "%(points)s.", sign=rules.SYMBOL[best], points=points(best_points)),
                _("Fine: no sign makes the turn worth more."))
    if chosen == "free_turn":
        return _("The expert always plays a Free Turn."), _("Fine: the same move.")
    if chosen == "double":
        return judgement, _("Fine: playing or keeping a Double is never counted as a miss.")
    reasons = []
    if "free_turn" in held:
        # Translators: a reason, in "Fine: %(reasons)s.".
        reasons.append(_("the Free Turn would come straight back (the pack is cut short)"))
    if "free_choice" in held:
        gain = best_points - turn_points
        reasons.append(
            # Translators: a reason, in "Fine: %(reasons)s."; %(points)s is "3 points", %(gain)s "150 points".
            _("Free Choice would add only %(points)s: keeping it for a better turn is fine (the expert always "
              "plays one that adds %(gain)s or more)", points=points(gain), gain=points(CLEAR_FREE_CHOICE_GAIN))
            # Translators: a reason, in "Fine: %(reasons)s.".
            if gain > 0 else _("Free Choice would not make this turn worth more"))
    # Translators: a reason, in "Fine: %(reasons)s.".
    reasons = reasons or [_("no special card was wasted")]
    # Translators: %(reasons)s is one reason, or several separated by ";".
    return judgement, _("Fine: %(reasons)s.", reasons=_clauses(reasons))


def explain_answer(j: Judged) -> Verdict | None:
    """so.mental_math: the answer given against h (op) l."""
    a = j.analysis
    op = a.get("answer_operation")
    if not op or a.get("answer") is None or a.get("correct_answer") is None:
        return None
    sum_ = f"{a['high']} {op} {a['low']}"
    # Translators: a mental-maths answer: "Answered 26 for 9 × 3."
    played = _("Answered %(answer)s for %(sum)s.", answer=a["answer"], sum=sum_)
    right = f"{sum_} = {a['correct_answer']}."
    if j.missed:
        return Verdict(True, played, right, _("A wrong answer."))
    return Verdict(False, played, right, _("Fine: the right answer."))


def explain_division(j: Judged) -> Verdict | None:
    """so.even_division: ÷ could be tried on a pair that does not divide exactly."""
    a = j.analysis
    high, low = a.get("high"), a.get("low")
    if high is None or not low:
        return None
    # Translators: "9 ÷ 2 does not work out exactly (1 left over)."
    over = _("%(high)s ÷ %(low)s does not work out exactly (%(left)s left over).", high=high, low=low,
             left=number_words(high % low))
    if j.missed:
        # Translators: "Tried ÷ on 9 and 2."
        return Verdict(True, _("Tried ÷ on %(high)s and %(low)s.", high=high, low=low), over,
                       _("The rules refuse a ÷ that does not work out exactly."))
    # Translators: "Did not try ÷ on 9 and 2."
    return Verdict(False, _("Did not try ÷ on %(high)s and %(low)s.", high=high, low=low), over,
                   _("Fine: ÷ was not tried."))


explain = explain_by_measure({"so.lowest_operator": explain_response, "so.specials": explain_specials,
                             "so.mental_math": explain_answer, "so.even_division": explain_division})
