"""What each seat sees in the Multiplication Game, and events as plain sentences.

Public: the open card and its multipliers, every hand's size, the deck's size, the cards
discarded since the last reshuffle in the order they were played (face up, for all to see),
the turn count and the last action's events (which never name a drawn card). Private: one's
own hand. Never shown: another hand, the deck's order or contents.
"""

from __future__ import annotations

from ..words import _, names_in_words
from . import rules


def _public(state: dict) -> dict:
    players = state["players"]
    waiting = [] if state["finished"] else [players[state["current"]]]
    return {
        "game": state["game"],
        "players": list(players),
        "current": waiting[0] if waiting else None,
        "waiting_for": waiting,
        "finished": state["finished"],
        "winners": list(state["winners"]),
        "turn": state["turn"],
        "turn_limit": state["options"]["turn_limit"],
        "free_cards": state["options"]["free_cards"],
        "open": {"card": state["open"]["card"], "value": state["open"]["value"],
                 "multipliers": list(state["open"]["multipliers"])},
        "cards_left": {p: len(state["hands"][p]) for p in players},
        "deck_count": len(state["deck"]),
        "discard_pile": list(state["discards"]),  # played face up, oldest first
        "last_events": [dict(e) for e in state["last_events"]],
    }


def player_view(state: dict, player) -> dict:
    view = _public(state)
    view["me"] = player
    seated = player in state["players"]
    view["hand"] = rules.sorted_cards(state["hands"][player]) if seated else None
    view["can_act"] = seated and view["current"] == player
    return view


def coach_view(state: dict) -> dict:
    view = player_view(state, None)
    view["hands"] = {p: rules.sorted_cards(h) for p, h in state["hands"].items()}
    return view


def describe_event(event: dict) -> str:
    kind = event.get("type")
    player = event.get("player")
    if kind == "discard":
        a, b = event["declare"]
        values = {"player": player, "a": a, "b": b, "value": event["value"]}
        if event["card"] == rules.FREE:
            if event["square"]:
                return _("%(player)s played a free card as %(a)s × %(b)s = %(value)s, a square number!",
                         **values)
            return _("%(player)s played a free card as %(a)s × %(b)s = %(value)s.", **values)
        if event["square"]:
            return _("%(player)s discarded %(value)s as %(a)s × %(b)s, a square number!", **values)
        return _("%(player)s discarded %(value)s as %(a)s × %(b)s.", **values)
    if kind == "skip":
        return _("%(player)s must draw a card and miss a turn because of the square number.",
                 player=player)
    if kind == "draw":
        if event["drew"]:
            return _("%(player)s drew a card.", player=player)
        return _("%(player)s could not draw: there are no cards left to draw.", player=player)
    if kind == "reshuffle":
        return _("The discarded cards were shuffled into a new deck of %(cards)s cards.",
                 cards=event["deck_count"])
    if kind == "game_over":
        winners = event["winners"]
        names = names_in_words(winners)
        if event["reason"] == "emptied_hand":
            return _("%(names)s has no cards left and wins!", names=names)
        fewest = event["cards_left"][winners[0]]
        if len(winners) == 1:
            return _("The turn limit was reached: %(names)s wins with %(cards)s cards left.",
                     names=names, cards=fewest)
        return _("The turn limit was reached: %(names)s share the win with %(cards)s cards left.",
                 names=names, cards=fewest)
    return _("Something happened: %(kind)s.", kind=kind)
