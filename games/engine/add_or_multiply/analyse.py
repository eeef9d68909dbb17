"""Skill facts for one Add or Multiply? decision (skills.md: `am.operation`).

A choice is made before the numbers coming in are known, so the judgement of the
operation happens per resolved round: `rules.round_facts` (also carried by the
`round_resolved` event and kept in `state["history"]`) gives, per player, the numbers
that came, the chosen operation's score and the other operation's score. The analysis of
the decision itself records what was sent to whom, the operation chosen, the hand left,
and what each operation was worth on average given the opponents' remaining cards.
"""

from __future__ import annotations

from . import rules


def expected_points(players: list[str], hands: dict, player: str) -> dict:
    """Mean score of `+` and `x` if each opponent sends a uniformly random card they hold."""
    first, second = rules.opponents(players, player)
    mean_first = sum(hands[first]["numbers"]) / len(hands[first]["numbers"])
    mean_second = sum(hands[second]["numbers"]) / len(hands[second]["numbers"])
    # The two opponents choose independently, so E[a*b] = E[a] * E[b].
    return {"+": round(mean_first + mean_second, 3), "x": round(mean_first * mean_second, 3)}


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
    expected = expected_points(state["players"], state["hands"], player)
    facts["expected_points"] = expected
    facts["expected_best"] = "x" if expected["x"] > expected["+"] else "+"
    facts["chosen"] = {"on": dict(action["on"]), "operation": action["operation"]}
    if facts["legal"]:
        facts["remaining_hand"] = rules.remove_play(hand, action["on"], action["operation"])
    return facts
