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

from ..words import _, listed, ngettext
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
            out[card] = _("%(card)s is a special card: you play it on your own turn, "
                          "after everyone has answered.", card=rules.CARD_NAME[card])
        elif kind == rules.SPECIALS_PHASE:
            out[card] = _("Operator cards are for answering on the other players' turns.")
        elif card == "/" and rules.result(card, high, low) is None:
            out[card] = _("%(high)s ÷ %(low)s doesn't divide evenly, so ÷ can't be played now.",
                          high=high, low=low)
        else:
            out[card] = _("This card can't be played now.")
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
    return ngettext("%(n)s point", "%(n)s points", n, n=n)


def describe_event(event: dict) -> str:
    kind = event.get("type")
    sym = rules.SYMBOL
    player = event.get("player")
    if kind == "flip":
        if event.get("free"):
            return _("%(player)s takes a turn again (free turn) and turns over %(high)s and %(low)s.",
                     player=player, high=event["high"], low=event["low"])
        return _("%(player)s takes a turn and turns over %(high)s and %(low)s.",
                 player=player, high=event["high"], low=event["low"])
    if kind == "play":
        card = event["card"]
        # Translators: e.g. "Ben played ÷: 12 ÷ 4 = 3 points for Ann".
        return _("%(player)s played %(sign)s: %(high)s %(sign)s %(low)s = %(points)s for %(active)s.",
                 player=player, sign=sym[card], high=event["high"], low=event["low"],
                 points=_points(event["award"]), active=event["active"])
    if kind == "stuck":
        return _("%(player)s could not play any card, so %(active)s gets %(points)s.",
                 player=player, active=event["active"], points=_points(event["award"]))
    if kind == "penalty":
        return _("%(player)s was stuck and gave up a %(card)s card: %(points)s for %(active)s.",
                 player=player, card=rules.CARD_NAME[event["discard"]],
                 points=_points(event["award"]), active=event["active"])
    if kind == "special":
        card = event["card"]
        if card == "double":
            return _("%(player)s played Double: the turn is now worth %(points)s.",
                     player=player, points=_points(event["points"]))
        if card == "free_turn":
            return _("%(player)s played Free Turn and will go again after this turn.", player=player)
        return _("%(player)s played Free Choice with %(sign)s: every award becomes "
                 "%(high)s %(sign)s %(low)s = %(value)s, so the turn is worth %(points)s.",
                 player=player, sign=sym[event["sign"]], high=event["high"], low=event["low"],
                 value=event["value"], points=_points(event["points"]))
    if kind == "end_turn":
        return _("%(player)s scored %(points)s this turn and now has %(score)s.",
                 player=player, points=_points(event["points"]), score=event["score"])
    if kind == "reshuffle":
        if event["deck"] == "high":
            return _("The high number discard pile was shuffled into a new deck of %(cards)s cards.",
                     cards=event["cards"])
        if event["deck"] == "low":
            return _("The low number discard pile was shuffled into a new deck of %(cards)s cards.",
                     cards=event["cards"])
        return _("The operator card discard pile was shuffled into a new deck of %(cards)s cards.",
                 cards=event["cards"])
    if kind == "no_card":
        return _("There was no operator card left for %(player)s to draw.", player=player)
    if kind == "game_over":
        return _("%(winners)s reached %(score)s points and won the game!",
                 winners=listed(event["winners"]), score=event["score"])
    return _("Something happened: %(kind)s.", kind=kind)
