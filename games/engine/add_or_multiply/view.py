"""What each seat sees in Add or Multiply?, and events as plain sentences.

Every hand is public knowledge: all hands start identical and every played card is
revealed when its round resolves (chosen cards stay in the hand until then). The only
secret is the choice a player made in the current round, so a view shows *who* has chosen
but never *what*, except the viewer's own choice.
"""

from __future__ import annotations

from ..words import _, listed, names_in_words

SYMBOL = {"+": "+", "x": "×"}


def _public(state: dict, waiting: list[str]) -> dict:
    last = state["history"][-1] if state["history"] else None
    return {
        "game": state["game"],
        "players": list(state["players"]),
        "round": state["round"],
        "rounds": state["options"]["rounds"],
        "finished": state["finished"],
        "winners": list(state["winners"]),
        "waiting_for": list(waiting),
        "submitted": [p for p in state["players"] if p in state["pending"]],
        "scores": dict(state["scores"]),
        "hands": {p: {"numbers": list(h["numbers"]), "operations": list(h["operations"])}
                  for p, h in state["hands"].items()},
        "last_round": _copy(last["results"]) if last else {},
        "history": _copy(state["history"]),
    }


def _copy(data):
    # Revealed rounds are small nested dicts of ints and strings; rebuild them so a view
    # never shares a mutable object with the state.
    if isinstance(data, dict):
        return {k: _copy(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_copy(v) for v in data]
    return data


def player_view(state: dict, player: str | None, waiting: list[str]) -> dict:
    view = _public(state, waiting)
    view["me"] = player
    seated = player in state["players"]
    view["hand"] = view["hands"][player] if seated else None
    mine = state["pending"].get(player) if seated else None
    view["my_choice"] = _copy(mine) if mine else None
    view["can_act"] = seated and player in waiting
    return view


def coach_view(state: dict, waiting: list[str]) -> dict:
    view = player_view(state, None, waiting)
    view["pending"] = _copy(state["pending"])
    return view


def _result_phrase(name: str, fact: dict) -> str:
    a, b = fact["on_me"]
    return f"{name} {a} {SYMBOL[fact['operation']]} {b} = {fact['points']}"


def _names(names: list[str]) -> str:
    return names_in_words(names)


def describe_event(event: dict) -> str:
    kind = event.get("type")
    if kind == "chose":
        return _("%(player)s has secretly chosen for round %(round)s.", player=event["player"],
                 round=event["round"])
    if kind == "round_resolved":
        parts = [_result_phrase(name, fact) for name, fact in event["results"].items()]
        # Translators: %(results)s is a list such as "Ann 3 × 4 = 12, Ben 2 + 5 = 7".
        return _("Round %(round)s: %(results)s.", round=event["round"], results=listed(parts))
    if kind == "game_over":
        winners = event["winners"]
        points = event["scores"][winners[0]]
        if len(winners) == 1:
            return _("The game is over: %(winner)s wins with %(points)s points.", winner=winners[0],
                     points=points)
        return _("The game is over: %(winners)s share the win with %(points)s points each.",
                 winners=_names(winners), points=points)
    return _("Something happened: %(kind)s.", kind=kind)
