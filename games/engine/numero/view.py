"""What each reader of a Numero state may see, the replay summary, and event sentences.

Public: the centre (every item, and for builds what they joined, who built them and when),
every winning pile (takes are shown face up), wild cards put out of play, hand sizes, the
deck size, points, the final round and the recent events. Hidden: other players' hands and
the order of the deck. A view carries the same keys as `position` (hand, centre, options,
solitaire, final_turn, previous_turn, me), so the rules, the search, the bots and the
selection helper run on a view exactly as the engine runs on the state.
"""

from __future__ import annotations

from ..core import copy_data
from ..words import _, names_in_words, ngettext
from .cards import describe_wild, sort_cards, words, words_list
from .rules import challengeable
from .scoring import item_facts

SOLITAIRE = "numero_solitaire"


def position(state: dict, player: str) -> dict:
    """The acting player's position, sharing the state's data (read only)."""
    return {
        "me": player,
        "hand": state["hands"][player],
        "centre": state["centre"],
        "options": state["options"],
        "solitaire": state["game"] == SOLITAIRE,
        "final_turn": state["final"] is not None,
        "previous_turn": state["previous_turn"],
        "turn": None if state["finished"] else state["players"][state["turn"]],
        "finished": state["finished"],
    }


def search_items(centre: list[dict]) -> list[tuple[int, tuple]]:
    """Centre items as the search needs them: (value, facts)."""
    return [(item["value"], item_facts(item["cards"], item["build"])) for item in centre]


def pile_counts(state: dict, finished: bool | None = None) -> dict[str, int]:
    """Cards in each winning pile; once Numero ends, cards left in a hand are subtracted."""
    finished = state["finished"] if finished is None else finished
    piles = {p: len(state["won"][p]) for p in state["players"]}
    if finished and state["game"] != SOLITAIRE:
        for p in state["players"]:
            piles[p] -= len(state["hands"][p])
    return piles


def score_table(state: dict) -> dict[str, int]:
    if state["options"]["scoring"]:
        return dict(state["points"])
    return pile_counts(state)


def summary(state: dict) -> dict:
    finished = state["finished"]
    return {
        "game": state["game"],
        "finished": finished,
        "winners": list(state["winners"]),
        "waiting_for": [] if finished else [state["players"][state["turn"]]],
        "hands": {p: sort_cards(h) for p, h in state["hands"].items()},
        "centre": [{"cards": list(i["cards"]), "value": i["value"], "build": i["build"],
                    "builder": i["builder"]} for i in state["centre"]],
        "piles": pile_counts(state),
        "scores": score_table(state),
        "deck_count": len(state["deck"]),
        "last_taker": state["last_taker"],
    }


def _public(state: dict) -> dict:
    finished = state["finished"]
    final = state["final"]
    # One copy of every nested part, so a reader that changes its view never changes the state.
    options, centre, end, log = copy_data((state["options"], state["centre"], state["end"], state["log"]))
    return {
        "game": state["game"],
        "players": list(state["players"]),
        "options": options,
        "solitaire": state["game"] == SOLITAIRE,
        "finished": finished,
        "winners": list(state["winners"]),
        "waiting_for": [] if finished else [state["players"][state["turn"]]],
        "turn": None if finished else state["players"][state["turn"]],
        "turn_no": state["turn_no"],
        "previous_turn": dict(state["previous_turn"]),
        "final": None if final is None else {"ender": final["ender"],
                                             "remaining": list(final["queue"])},
        "final_turn": final is not None and not finished,
        "centre": centre,
        "hand_counts": {p: len(h) for p, h in state["hands"].items()},
        "deck_count": len(state["deck"]),
        "won": {p: sort_cards(c) for p, c in state["won"].items()},
        "piles": pile_counts(state),
        "scores": score_table(state),
        "out": sort_cards(state["out"]),
        "last_taker": state["last_taker"],
        "end": end,
        "log": log,
    }


def view(state: dict, player: str | None) -> dict:
    out = _public(state)
    seat = player if player in state["players"] else None
    out["me"] = seat
    out["hand"] = sort_cards(state["hands"][seat]) if seat is not None else None
    out["challengeable"] = _challengeable(out, seat)
    return out


def coach_view(state: dict) -> dict:
    out = _public(state)
    out["me"] = None
    out["hand"] = None
    out["hands"] = {p: sort_cards(h) for p, h in state["hands"].items()}
    out["challengeable"] = []
    return out


def _challengeable(out: dict, seat: str | None) -> list[str]:
    """Builds the viewer may challenge right now (named by their first card)."""
    if seat is None or out["turn"] != seat or out["solitaire"] \
            or not out["options"].get("challenges"):
        return []
    pos = {"me": seat, "previous_turn": out["previous_turn"]}
    return [item["cards"][0] for item in out["centre"] if challengeable(pos, item)]


# ----- sentences ---------------------------------------------------------------------------
def _join(values) -> str:
    return " + ".join(str(v) for v in values)


def describe_event(event: dict) -> str:
    kind = event.get("type")
    who = event.get("player", "")
    if kind == "deal":
        if not event["centre"]:
            return _("The cards were dealt; the centre is empty.")
        return _("The cards were dealt; the centre shows %(cards)s.", cards=words_list(event["centre"]))
    if kind == "turn":
        if event.get("final"):
            return _("%(player)s's last turn.", player=who)
        return _("%(player)s's turn.", player=who)
    if kind == "wild":
        sentence = describe_wild(event["card"], event["before"], event["after"])
        under = event["item"][:-1]  # the item's cards before this wild card joined them
        if len(under) == 1:
            target = words(under[0])
        else:
            # Translators: a centre item made of several cards: "the 12 (green 5 and red 7)".
            target = _("the %(value)s (%(cards)s)", value=event["before"], cards=words_list(under))
        return _("%(player)s played %(card)s on %(target)s: %(sum)s.", player=who,
                 card=words(event["card"]), target=target, sum=sentence)
    if kind == "discard_wild":
        return _("%(player)s put the %(card)s out of play.", player=who, card=words(event["card"]))
    if kind == "challenge":
        values = {"player": who, "builder": event["builder"], "value": event["value"]}
        if event["bluff"]:
            return _("%(player)s challenged %(builder)s's build of %(value)s: %(builder)s had no "
                     "%(value)s, loses 20 points and the build is undone.", **values)
        return _("%(player)s challenged %(builder)s's build of %(value)s, but %(builder)s showed a "
                 "%(value)s: %(player)s loses 10 points.", **values)
    if kind == "take":
        parts = "; ".join(
            f"{_join(values)} = {event['value']}" if len(values) > 1 else f"{values[0]}"
            for values in event["values"])
        takes = ngettext("%(n)s take", "%(n)s takes", len(event["values"]), n=len(event["values"]))
        cards = ngettext("%(n)s card", "%(n)s cards", event["cards"], n=event["cards"])
        values = {"player": who, "card": words(event["card"]), "sums": parts, "takes": takes,
                  "cards": cards}
        if "points" in event:
            values["points"] = ngettext("%(n)s point", "%(n)s points", event["points"], n=event["points"])
            if event["cleared"]:
                return _("%(player)s took with %(card)s (%(sums)s): %(takes)s, %(cards)s, %(points)s, "
                         "and cleared the centre.", **values)
            return _("%(player)s took with %(card)s (%(sums)s): %(takes)s, %(cards)s, %(points)s.",
                     **values)
        if event["cleared"]:
            return _("%(player)s took with %(card)s (%(sums)s): %(takes)s, %(cards)s, and cleared "
                     "the centre.", **values)
        return _("%(player)s took with %(card)s (%(sums)s): %(takes)s, %(cards)s.", **values)
    if kind == "build":
        values = event["values"] + [int(event["card"][:-1])]
        return _("%(player)s built %(sum)s = %(value)s with %(card)s.", player=who, sum=_join(values),
                 value=event["value"], card=words(event["card"]))
    if kind == "discard":
        return _("%(player)s put %(card)s in the centre.", player=who, card=words(event["card"]))
    if kind == "draw":
        n = event["count"]
        return ngettext("%(player)s drew %(n)s card.", "%(player)s drew %(n)s cards.", n, player=who, n=n)
    if kind == "centre_refill":
        return _("The centre was refilled with %(cards)s.", cards=words_list(event["cards"]))
    if kind == "final_round":
        others = names_in_words(event["players"])
        return ngettext("%(player)s has no cards left: %(others)s gets one last turn to take.",
                        "%(player)s has no cards left: %(others)s get one last turn to take.",
                        len(event["players"]), player=who, others=others)
    if kind == "skip":
        return _("%(player)s cannot take anything, so their turn is over.", player=who)
    if kind == "game_over" and "deck_dealt" in event:  # Solitaire: it ends when no take is left
        if event["perfect"]:
            return _("Every card is used: the whole deck was dealt, and the centre and the hand are empty.")
        left = event.get("deck_left", 0)
        if left:
            return ngettext("No take is possible any more, even with the wild cards, so the game is over "
                            "with %(n)s card still in the deck.",
                            "No take is possible any more, even with the wild cards, so the game is over "
                            "with %(n)s cards still in the deck.", left, n=left)
        return _("No take is possible any more, even with the wild cards, so the game is over.")
    if kind == "game_over":
        winners = names_in_words(event["winners"]) if event["winners"] else _("nobody")
        if event.get("centre_to"):
            n = event["centre_cards"]
            return ngettext("The game is over. Winner: %(winners)s. %(player)s got the %(n)s card left "
                            "in the centre.",
                            "The game is over. Winner: %(winners)s. %(player)s got the %(n)s cards left "
                            "in the centre.", n, winners=winners, player=event["centre_to"], n=n)
        return _("The game is over. Winner: %(winners)s.", winners=winners)
    return f"{kind}"
