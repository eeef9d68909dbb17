"""What each reader of a Smooth Operator state may see, the replay summary, and event
sentences.

Public: the order, the face-up pair, scores, this turn's awards and responses, every
discard pile (all of those cards were played face up), hand sizes and deck sizes. Hidden:
other players' hands and the order of every deck (a discard pile shuffled into a deck is
only a count from then on).

A view shares with the state the parts the engine never changes in place once a state has
been returned (players, order, winners, the order-draw record, the entries of this turn's
responses and specials, the last turn's record): treat views as read-only, as the web layer
does when it serialises them.
"""

from __future__ import annotations

from . import rules


def _public(state: dict) -> dict:
    pending = state["pending"]
    phase = state["phase"]
    decks = state["decks"]
    discards = state["discards"]
    return {
        "game": state["game"],
        "players": state["players"],
        "order": state["order"],
        "order_draws": state["order_draws"],
        "target": state["options"]["target"],
        "finished": state["finished"],
        "winners": state["winners"],
        "phase": phase,
        "active": state["active"],
        "waiting_for": waiting_for(state),
        "still_to_respond": pending[:],
        "turn": state["turn_number"],
        "high": state["high"],
        "low": state["low"],
        "scores": state["scores"].copy(),
        "turn_awards": state["turn_awards"].copy(),
        "turn_points": state["turn_points"],
        "doubles": state["doubles"],
        "free_choice": state["free_choice"],
        "free_turns": state["free_turns"],
        "responses": state["responses"][:],
        "specials": state["specials"][:],
        "last_turn": state["last_turn"],
        "hand_counts": {p: len(h) for p, h in state["hands"].items()},
        "deck_counts": {"high": len(decks["high"]), "low": len(decks["low"]),
                        "operator": len(decks["operator"])},
        "discards": {"high": discards["high"][:], "low": discards["low"][:],
                     "operator": discards["operator"][:]},
    }


def waiting_for(state: dict) -> list:
    phase = state["phase"]
    if phase == "respond":
        return [state["pending"][0]]
    return [state["active"]] if phase == "special" else []


def player_view(engine, state: dict, player) -> dict:
    """The table as `player` sees it (None or a non-player: a spectator)."""
    view = _public(state)
    if type(player) is not str or player not in state["hands"]:
        view["me"] = None
        view["hand"] = None
        view["decision"] = None
        view["legal_actions"] = []
        view["why_not"] = {}
        return view
    hand = state["hands"][player]
    kind = engine.decision(state, player)
    view["me"] = player
    view["hand"] = rules.sort_hand(hand)
    view["decision"] = kind
    view["legal_actions"] = rules.legal_moves(kind, hand, state["high"], state["low"]) if kind else []
    view["why_not"] = why_not(kind, hand, state["high"], state["low"], view["legal_actions"])
    return view


def why_not(kind, hand, high, low, legal: list[dict]) -> dict[str, str]:
    """{card: a sentence for a child} for each card of the viewer's own hand that can't be
    used in the decision they face now (the legal moves decide; this only says why)."""
    if kind is None:
        return {}
    usable = {a.get("card", a.get("discard")) for a in legal}
    out = {}
    for card in rules.sort_hand(hand):
        if card in usable or card in out:
            continue
        if card in rules.SPECIAL_SET:
            out[card] = (f"{rules.CARD_NAME[card]} is a special card: you play it on your own turn, "
                         "after everyone has answered.")
        elif kind == rules.SPECIALS_PHASE:
            out[card] = "Operator cards are for answering on the other players' turns."
        elif card == "/" and rules.result(card, high, low) is None:
            out[card] = f"{high} ÷ {low} doesn't divide evenly, so ÷ can't be played now."
        else:
            out[card] = "This card can't be played now."
    return out


def coach_view(engine, state: dict) -> dict:
    """A teacher's view: every hand, still no deck order."""
    view = _public(state)
    view["me"] = None
    view["hands"] = {p: rules.sort_hand(h) for p, h in state["hands"].items()}
    view["decisions"] = {p: engine.decision(state, p) for p in view["waiting_for"]}
    return view


def summary(state: dict) -> dict:
    """The replay contract's omniscient summary."""
    return {
        "game": state["game"],
        "finished": state["finished"],
        "winners": list(state["winners"]),
        "waiting_for": waiting_for(state),
        "hands": {p: rules.sort_hand(h) for p, h in state["hands"].items()},
        "order": list(state["order"]),
        "active": state["active"],
        "scores": dict(state["scores"]),
        "high": state["high"],
        "low": state["low"],
        "turn_awards": dict(state["turn_awards"]),
        "turn_points": state["turn_points"],
    }


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"


def describe_event(event: dict) -> str:
    kind = event.get("type")
    sym = rules.SYMBOL
    if kind == "flip":
        again = " again (free turn)" if event.get("free") else ""
        return f"{event['player']} takes a turn{again} and turns over {event['high']} and {event['low']}."
    if kind == "play":
        card = event["card"]
        return (f"{event['player']} played {sym[card]}: {event['high']} {sym[card]} {event['low']} "
                f"= {_points(event['award'])} for {event['active']}.")
    if kind == "stuck":
        return (f"{event['player']} could not play any card, so {event['active']} gets "
                f"{_points(event['award'])}.")
    if kind == "penalty":
        return (f"{event['player']} was stuck and gave up a {rules.CARD_NAME[event['discard']]} card: "
                f"{_points(event['award'])} for {event['active']}.")
    if kind == "special":
        card = event["card"]
        if card == "double":
            return f"{event['player']} played Double: the turn is now worth {_points(event['points'])}."
        if card == "free_turn":
            return f"{event['player']} played Free Turn and will go again after this turn."
        return (f"{event['player']} played Free Choice with {sym[event['sign']]}: every award becomes "
                f"{event['high']} {sym[event['sign']]} {event['low']} = {event['value']}, "
                f"so the turn is worth {_points(event['points'])}.")
    if kind == "end_turn":
        return f"{event['player']} scored {_points(event['points'])} this turn and now has {event['score']}."
    if kind == "reshuffle":
        deck = {"high": "high number", "low": "low number"}.get(event["deck"], event["deck"])
        return f"The {deck} discard pile was shuffled into a new deck of {event['cards']} cards."
    if kind == "no_card":
        return f"There was no operator card left for {event['player']} to draw."
    if kind == "game_over":
        return f"{', '.join(event['winners'])} reached {event['score']} points and won the game!"
    return f"Something happened: {kind}."
