"""What each seat sees in the Multiplication Game, and events as plain sentences.

Public: the open card and its multipliers, every hand's size, the deck's size, the cards
discarded since the last reshuffle in the order they were played (face up, for all to see),
the turn count and the last action's events (which never name a drawn card). Private: one's
own hand. Never shown: another hand, the deck's order or contents.
"""

from __future__ import annotations

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
    if kind == "discard":
        a, b = event["declare"]
        if event["card"] == rules.FREE:
            text = f"{event['player']} played a free card as {a} × {b} = {event['value']}"
        else:
            text = f"{event['player']} discarded {event['value']} as {a} × {b}"
        return text + (", a square number!" if event["square"] else ".")
    if kind == "skip":
        return f"{event['player']} must draw a card and miss a turn because of the square number."
    if kind == "draw":
        if event["drew"]:
            return f"{event['player']} drew a card."
        return f"{event['player']} could not draw: there are no cards left to draw."
    if kind == "reshuffle":
        return f"The discarded cards were shuffled into a new deck of {event['deck_count']} cards."
    if kind == "game_over":
        winners = event["winners"]
        names = winners[0] if len(winners) == 1 else ", ".join(winners[:-1]) + " and " + winners[-1]
        if event["reason"] == "emptied_hand":
            return f"{names} has no cards left and wins!"
        fewest = event["cards_left"][winners[0]]
        verb = "wins" if len(winners) == 1 else "share the win"
        return f"The turn limit was reached: {names} {verb} with {fewest} cards left."
    return f"Something happened: {kind}."

