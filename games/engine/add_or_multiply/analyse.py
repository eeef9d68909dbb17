"""Skill facts for one Add or Multiply? decision (skills.md: `am.operation`, revision 2).

The operation is judged when it is chosen, by what the chooser could see then (its view:
every hand and score is public, the opponents' choices of this round are not), with the
EXPERT BOT's own evaluation (bots.py `ExpertBot.choose`): the expected final points of the
chooser if it plays `+` now and if it plays `x` now. Those are the points of this round
(the opponents modelled as the expert models them: a greedy choice with the chance learnt
from the revealed rounds, else a random legal play) plus those of the rounds left (the
operation cards used now are gone later), as the expert's playouts give them.

The expert estimates them from 64 sampled positions with its own dice, which the analysis
cannot know; so the analysis draws more samples (`SAMPLES`) of the same model from dice
seeded by the position (the same view always gets the same evaluation), and counts a chance
only where the expert itself cannot pick the other operation but by a fluke: the two values
differ by more than `CLEAR` standard errors of the expert's own estimate of their gap (and
by more than `TOLERANCE`). In a last round the expert weighs every choice of the opponents
exactly, as the analysis then does: no dice, so any gap above `TOLERANCE` is a chance.

Recorded under `operation_choice` (only for a legal play while both operations are held):
`values` (expected final points per operation), `gap`, `noise` (the expert's standard
error), `chance`, `chosen`, `missed` (a chance where the lower value was chosen) and
`given_up` (expected points given up: the gap when missed, else 0).
"""

from __future__ import annotations

import json
import random
import statistics
from functools import lru_cache

from . import rules
from .bots import ExpertBot

SAMPLES = 256      # sampled opponent choices the analysis weighs (the expert: ExpertBot.samples)
CLEAR = 3.0        # a chance: the gap is above this many standard errors of the expert's estimate
TOLERANCE = 0.05   # ... and above this many points (exact ties and rounding are no chance)


def position_key(view: dict) -> str:
    """Everything in a view that the expert's evaluation reads (not who has chosen yet)."""
    return json.dumps({
        "me": view["me"], "players": view["players"], "round": view["round"],
        "rounds": view["rounds"], "scores": view["scores"],
        "hands": {p: [sorted(h["numbers"]), sorted(h["operations"])]
                  for p, h in view["hands"].items()},
        "history": [past["plays"] for past in view["history"]],
    }, sort_keys=True)


def operation_evaluation(view: dict) -> dict | None:
    """The expert's evaluation of the viewer's operation now, or None when it holds only one
    kind of operation card (no choice) or cannot act. Pure: the same view, the same answer."""
    if not view.get("can_act") or view["finished"] or len(set(view["hand"]["operations"])) < 2:
        return None
    return _evaluate(position_key(view))


@lru_cache(maxsize=1024)
def _evaluate(key: str) -> dict:
    # The planted player (planted.py) and the analysis ask about the same position in turn.
    position = json.loads(key)
    view = {**position, "hand": {"numbers": position["hands"][position["me"]][0],
                                 "operations": position["hands"][position["me"]][1]},
            "hands": {p: {"numbers": h[0], "operations": h[1]}
                      for p, h in position["hands"].items()},
            "history": [{"plays": plays, "results": rules.round_facts(position["players"], plays)}
                        for plays in position["history"]]}
    expert = ExpertBot(None)
    targets = rules.opponents(view["players"], view["me"])
    samples = expert._opponent_samples(view, targets, rng=random.Random(f"am.operation:{key}"),
                                       count=SAMPLES)
    outcomes = expert.own_outcomes(view, samples)
    weights = [weight for *_, weight in samples]
    total = sum(weights)
    values = {op: sum(w * x for w, x in zip(weights, xs)) / total for op, xs in outcomes.items()}
    legal = [len(rules.legal_plays(view["hands"][t], rules.opponents(view["players"], t)))
             for t in targets]
    if expert.weighs_every_pair(view, *legal):
        noise = 0.0  # the expert weighs every pair of the opponents' plays too: no dice
    else:
        gaps = [a - b for a, b in zip(outcomes["+"], outcomes["x"])]
        noise = statistics.pstdev(gaps) / ExpertBot.samples ** 0.5
    better = max(values, key=lambda op: (values[op], op == "+"))  # the expert's tie-break
    worse = rules.other_operation(better)
    gap = values[better] - values[worse]
    return {"values": {op: round(v, 3) for op, v in values.items()}, "better": better,
            "worse": worse, "gap": round(gap, 3), "noise": round(noise, 3),
            "chance": gap > max(TOLERANCE, CLEAR * noise)}


def analyse_play(engine, state: dict, player: str, action) -> dict:
    facts = {"kind": "play", "round": state["round"], "player": player}
    code = engine.error_code(state, player, action)
    facts.update(legal=code is None, error=code)
    if facts["error"] == "bad_action" or player not in state["players"]:
        return facts
    hand = state["hands"][player]
    facts["hand"] = {"numbers": list(hand["numbers"]), "operations": list(hand["operations"])}
    facts["options"] = len(engine.legal_actions(state, player))
    if state["finished"] or not hand["numbers"]:
        return facts
    facts["chosen"] = {"on": dict(action["on"]), "operation": action["operation"]}
    if not facts["legal"]:
        return facts  # a refused play is a rule error only (all.rule_errors)
    facts["remaining_hand"] = rules.remove_play(hand, action["on"], action["operation"])
    evaluation = operation_evaluation(engine.view(state, player))
    if evaluation is not None:
        chosen = action["operation"]
        missed = evaluation["chance"] and chosen == evaluation["worse"]
        facts["operation_choice"] = {
            "values": evaluation["values"], "gap": evaluation["gap"],
            "noise": evaluation["noise"], "chance": evaluation["chance"], "chosen": chosen,
            "missed": missed, "given_up": evaluation["gap"] if missed else 0.0}
    return facts
