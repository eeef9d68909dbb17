"""Numero and Numero Solitaire at the table: card labels, the status line and the selection.

A Numero turn is built up by taps: a card from the hand, then centre items. The selection
lives on the server and in the URL (`?card=7g&picked=3b,4g|7o`, served by the generic
selection view through this adapter's SelectionHook): every tappable item links to
the selection it leads to, and `play_context` asks the engine's selection helper
(`engine.selection(view, card, picked)`) which items may still be picked and whether the take
or build is valid now, and why not. It works on the player's own view only, so nothing here
can see another player's hand or the deck. The final move goes over the WebSocket like every
other move (the move service checks it again).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.engine import IllegalMove
from games.engine import numero as engine_package
from games.engine.numero import (apply_wild, check_discard, check_discard_wild, check_wild,
                                 describe_wild, is_code, is_number, is_wild, value_of)
from games.engine.numero.cards import words
from games.engine.numero.skills import SKILLS
from games.engine.words import pgettext  # English, found by makemessages
from games.spec import BadSelection, GameSpec, SelectionHook, presets_from
from games.words import Spoken, say

MAX_QUERY = 600  # characters of `picked`: far more than a centre can ever hold

# Never colour alone: each colour also has a letter and a shape on the card.
# The letter is the colour word's initial in the reader's language (unique per colour in each).
COLOURS = {
    "g": (pgettext_lazy("Numero card colour", "green"),
          # Translators: the initial of "green" on a Numero card; the four initials must differ.
          pgettext_lazy("Numero colour initial", "G"), "▲"),
    "o": (pgettext_lazy("Numero card colour", "orange"),
          # Translators: the initial of "orange" on a Numero card; the four initials must differ.
          pgettext_lazy("Numero colour initial", "O"), "●"),
    "b": (pgettext_lazy("Numero card colour", "blue"),
          # Translators: the initial of "blue" on a Numero card; the four initials must differ.
          pgettext_lazy("Numero colour initial", "B"), "■"),
    "r": (pgettext_lazy("Numero card colour", "red"),
          # Translators: the initial of "red" on a Numero card; the four initials must differ.
          pgettext_lazy("Numero colour initial", "R"), "◆"),
}
CSS_COLOURS = {"g": "green", "o": "orange", "b": "blue", "r": "red"}  # class names: never translated
_POWERS = {"sq": ("x²", pgettext_lazy("Numero wild card", "square it")),
           "cube": ("x³", pgettext_lazy("Numero wild card", "cube it")),
           "sqrt": ("√", pgettext_lazy("Numero wild card", "square root")),
           "cbrt": ("∛", pgettext_lazy("Numero wild card", "cube root"))}


# ----- cards -----------------------------------------------------------------------------
def _slug(code: str) -> str:
    """A card code made safe for an element id ("1/2" -> "1d2")."""
    return code.replace("/", "d").replace("%", "pc").replace(".", "p").replace("-", "m")


def card_label(code: str) -> dict:
    """How a card is shown and read out: big text, a word, and never colour alone."""
    if is_number(code):
        name, letter, shape = COLOURS[code[-1]]
        value = value_of(code)
        return {"code": code, "slug": _slug(code), "wild": False, "text": str(value),
                "word": f"{shape} {name}", "colour": CSS_COLOURS[code[-1]], "colour_word": str(name),
                "letter": str(letter), "shape": shape,
                "aria": f"{value} {name}", "words": say(words(code))}
    if code in _POWERS:
        text, word = _POWERS[code]
    elif code.startswith("-"):
        text, word = f"−{code[1:]}", pgettext_lazy("Numero wild card", "subtract %(n)s") % {"n": code[1:]}
    elif code.startswith("x"):
        text, word = f"×{code[1:]}", pgettext_lazy("Numero wild card", "multiply by %(n)s") % {"n": code[1:]}
    elif code.startswith("/") and code[1:].isdigit():
        text, word = f"÷{code[1:]}", pgettext_lazy("Numero wild card", "divide by %(n)s") % {"n": code[1:]}
    elif code.endswith("%") or "/" in code:
        text, word = code, pgettext_lazy("Numero wild card", "%(n)s of it") % {"n": code}
    else:
        text, word = f"×{code}", pgettext_lazy("Numero wild card", "times %(n)s") % {"n": code}
    word = str(word)
    return {"code": code, "slug": _slug(code), "wild": True, "text": text, "word": word,
            # The name starts with what the card shows ("÷2 wild card divide by 2"), so a
            # screen reader and a child pointing at "÷2" agree (axe: label-content-name-mismatch).
            "colour": "", "colour_word": "", "letter": "", "shape": "★",
            "aria": _("%(text)s wild card %(word)s") % {"text": text, "word": word},
            "words": say(words(code))}


# ----- the status line -------------------------------------------------------------------
def your_turn(view: dict) -> str:
    hand = view.get("hand") or []
    wild_hint = (" " + _("You can play a wild card on a centre card first.")) if any(
        is_wild(c) for c in hand) else ""
    if not any(is_number(c) for c in hand):
        if view.get("solitaire"):
            return _("Your turn: you only have wild cards, so play each one on a centre card.")
        return _("Your turn: you only have wild cards, so play each one on a centre card or put it "
                 "out of play.")
    if view.get("solitaire"):
        return _("Your turn: tap a card from your hand, then the centre cards that add up to it.") + wild_hint
    if view.get("final_turn"):
        return _("Your last turn: you can only take. Tap a card from your hand, then the centre "
                 "cards that add up to it.") + wild_hint
    return _("Your turn: tap a card from your hand, then take centre cards that add up to it, "
             "build on them, or put your card in the centre.") + wild_hint


# ----- the selection ---------------------------------------------------------------------
def parse_query(query) -> tuple[str | None, list[list[str]]]:
    """`card` and `picked` from a request's GET; raise BadSelection for what the UI never sends.

    `picked` is groups separated by "|", item names by "," (names are card codes, which never
    hold either character)."""
    card = (query.get("card") or "").strip() or None
    raw = (query.get("picked") or "").strip()
    if card is None and raw:
        raise BadSelection(_("Choose a card from your hand first."))
    if card is not None and not is_code(card):
        raise BadSelection(_("That is not a Numero card. Choose a card from your hand."))
    if len(raw) > MAX_QUERY:
        raise BadSelection(_("That is too many cards to pick."))
    picked = [group.split(",") for group in raw.split("|")] if raw else []
    if any(not is_code(code) for group in picked for code in group):
        raise BadSelection(_("The picked cards are not written the right way. Tap the cards again."))
    return card, picked


def encode_picked(picked: list[list[str]]) -> str:
    return "|".join(",".join(group) for group in picked if group)


def _query(card: str | None, picked: list[list[str]] | None = None) -> str:
    params = {}
    if card is not None:
        params["card"] = card
    if picked:
        params["picked"] = encode_picked(picked)
    return urlencode(params)


def _verdict(check, view: dict, action: dict) -> dict:
    """The engine's answer for an action on this view: valid, or its sentence why not."""
    if view.get("finished"):
        return {"valid": False, "message": _("The game is over.")}
    if view.get("turn") != view.get("me"):
        return {"valid": False, "message": _("It is not your turn yet.")}
    try:
        check(view, action)
    except IllegalMove as exc:
        return {"valid": False, "message": say(exc.message)}
    return {"valid": True, "message": ""}


def _item(item: dict) -> dict:
    cards = [card_label(c) for c in item["cards"]]
    return {"name": item["cards"][0], "slug": _slug(item["cards"][0]), "cards": cards,
            "value": item["value"], "build": item["build"], "builder": item.get("builder"),
            "changed": any(c["wild"] for c in cards), "aria": _item_aria(item, cards),
            "picked": False, "group": None, "mode": "off", "query": "", "action": None,
            "after": None, "why": ""}


def _item_aria(item: dict, cards: list[dict]) -> str:
    parts = ", ".join(c["aria"] for c in cards)
    if item["build"]:
        return _("%(value)s: build by %(builder)s (%(cards)s)") % {
            "value": item["value"], "builder": item["builder"], "cards": parts}
    if len(cards) > 1:
        return f"{item['value']} ({parts})"
    return f"{item['value']} {cards[0]['colour_word']}"


def play_context(*, view: dict, card: str | None = None, picked: list[list[str]] | None = None) -> dict:
    """Everything the play area (`_numero_play.html`) shows for this view and selection."""
    picked = picked or []
    my_turn = bool(view.get("me")) and view.get("turn") == view.get("me") and not view.get("finished")
    hand = view.get("hand") or []
    out = {"my_turn": my_turn, "card": None, "mode": None, "message": "", "step": "",
           "groups": [], "take": None, "build": None, "discard": None, "discard_wild": None,
           "solitaire": bool(view.get("solitaire")), "final_turn": bool(view.get("final_turn")),
           "centre": [_item(i) for i in view.get("centre", [])],
           "challengeable": set(view.get("challengeable") or [])}
    if card is not None and card not in hand:
        out["message"] = _("You don't have the %(card)s in your hand. Choose one of yours.") % {"card": say(words(card))}
        card, picked = None, []
    if card is not None and is_wild(card):
        _wild_mode(out, view, card)
        if picked:
            out["message"] = _("A wild card is played on one centre card: tap the card to change.")
    elif card is not None:
        _number_mode(out, view, card, picked)
    elif my_turn:
        out["step"] = _("Tap a card from your hand to start.")
    out["hand"] = [{**card_label(c), "selected": c == out["card"],
                    "query": _query(None if c == out["card"] else c)} for c in hand]
    for item in out["centre"]:
        # A build made since this player's last turn may be a bluff (level 8): ask to see it.
        item["challenge"] = ({"type": "challenge", "target": item["name"]}
                             if item["name"] in out["challengeable"] and my_turn else None)
    return out


def _wild_mode(out: dict, view: dict, card: str) -> None:
    out["card"], out["mode"] = card, "wild"
    label = card_label(card)
    out["card_words"] = label["words"]
    fits = 0
    for item in out["centre"]:
        action = {"type": "wild", "card": card, "target": item["name"]}
        verdict = _verdict(check_wild, view, action)
        if verdict["valid"]:
            after = apply_wild(card, item["value"])
            item.update(mode="wild", action=action, after=after,
                        why=describe_wild(card, item["value"], after))
            fits += 1
        else:
            item["why"] = say(verdict["message"])
    if fits:
        out["step"] = _("Tap the centre card to change with your %(card)s (%(word)s).") % {
            "card": label["text"], "word": label["word"]}
    else:
        out["step"] = _("Your %(card)s card fits no centre card right now.") % {"card": label["text"]}
    if not out["solitaire"]:
        out["discard_wild"] = {**_verdict(check_discard_wild, view,
                                          {"type": "discard_wild", "card": card}),
                               "action": {"type": "discard_wild", "card": card}}


def _number_mode(out: dict, view: dict, card: str, picked: list[list[str]]) -> None:
    engine = engine_package.ENGINES[view.get("game") or "numero"]
    sel = engine.selection(view, card, picked)
    if sel["error"] and picked:
        # A stale or hand-made list of centre cards: keep the card, drop the picks, say why.
        out["message"] = say(sel["error"]["message"])
        picked = []
        sel = engine.selection(view, card, picked)
    if sel["error"]:
        out["message"] = say(sel["error"]["message"])
        return
    out["card"], out["mode"] = card, "number"
    target = sel["value"]
    out["value"] = target
    out["groups"] = [{"values": g["values"], "total": g["total"], "complete": g["complete"],
                      "need": target - g["total"],
                      "sum": " + ".join(str(v) for v in g["values"])
                      + (f" = {g['total']}" if len(g["values"]) > 1 else "")}
                     for g in sel["groups"]]
    builds = not out["solitaire"] and not out["final_turn"]
    can_pick = set(sel["addable"]) | set(sel["new_group"]) | (
        set(sel["build"]["addable"]) if builds else set())
    where = {name: n for n, group in enumerate(picked) for name in group}
    last_open = bool(picked) and sel["groups"][-1]["total"] != target
    for item in out["centre"]:
        if any(c["code"] in where for c in item["cards"]):
            name = next(c["code"] for c in item["cards"] if c["code"] in where)
            item.update(picked=True, group=where[name] + 1, mode="pick",
                        query=_query(card, [[n for n in g if n != name] for g in picked]))
        elif item["name"] in can_pick and out["my_turn"]:
            if last_open:
                nxt = picked[:-1] + [picked[-1] + [item["name"]]]
            else:
                nxt = picked + [[item["name"]]]
            item.update(mode="pick", query=_query(card, nxt))
    take_action = {"type": "take", "card": card, "groups": [g for g in picked if g]}
    out["take"] = {"valid": sel["take"]["valid"], "message": say(sel["take"]["message"] or ""),
                   "action": take_action,
                   "count": len(take_action["groups"])}
    flat = [name for g in picked for name in g]
    if builds:
        out["build"] = {"valid": sel["build"]["valid"], "message": say(sel["build"]["message"] or ""),
                        "value": sel["build"]["value"],
                        "action": {"type": "build", "card": card, "with": flat}}
        action = {"type": "discard", "card": card}
        out["discard"] = {**_verdict(check_discard, view, action), "action": action}
    wilds = any(is_wild(c) for c in view.get("hand") or [])
    out["step"] = _number_step(out, target, flat, can_pick - set(flat), wilds)


def _number_step(out: dict, target: int, flat: list[str], can_pick: set, wilds: bool) -> str:
    values = {"target": target}
    if not out["my_turn"]:
        return _("It is not your turn yet.")
    if out["take"]["valid"]:
        return _("These add up to %(target)s: press “Take”, or keep picking.") % values
    if not flat:
        if not can_pick:
            if wilds and out["solitaire"]:
                return _("No centre cards add up to %(target)s. You can play a wild card first or "
                         "try another card.") % values
            if wilds:
                return _("No centre cards add up to %(target)s. You can play a wild card first, try "
                         "another card or put this one in the centre.") % values
            if out["solitaire"]:
                return _("No centre cards add up to %(target)s. You can try another card.") % values
            return _("No centre cards add up to %(target)s. You can try another card or put this one "
                     "in the centre.") % values
        return _("Now tap the centre cards that add up to %(target)s.") % values
    if out["build"] and out["build"]["valid"]:
        return _("You can build %(value)s now, or keep picking.") % {"value": out["build"]["value"]}
    if not can_pick:
        return _("These can't make %(target)s. Tap a picked card to put it back.") % values
    return _("Keep picking: the cards must add up to %(target)s.") % values


def _signed(n: int) -> str:
    return str(n).replace("-", "−")


def score_words(view: dict) -> dict[str, str]:
    """What each player's score is, in words: points at a scoring level, else cards won
    (once Numero ends, the cards left in a hand are taken off the pile)."""
    scores = view.get("scores") or {}
    if (view.get("options") or {}).get("scoring"):
        return {p: ngettext("%(n)s point", "%(n)s points", n) % {"n": _signed(n)} for p, n in scores.items()}
    won, hands = view.get("won") or {}, view.get("hand_counts") or {}
    out = {}
    for p, n in scores.items():
        left = hands.get(p, 0) if view.get("finished") and not view.get("solitaire") else 0
        out[p] = ngettext("%(n)s card won", "%(n)s cards won", n) % {"n": _signed(n)}
        if left:
            out[p] += " " + _("(%(won)s won − %(left)s left in hand)") % {"won": len(won.get(p, [])),
                                                                          "left": left}
    return out


def solitaire_end_words(view: dict) -> str:
    """Why a finished Numero Solitaire game ended, for its results. The rule
    (docs/rules-numero.md): it ends as soon as no take is possible, counting every way the wild
    cards in hand could be used, so it can end with cards still in the deck; a child who sees
    19 cards left and no reason thinks the game broke."""
    if not (view.get("solitaire") and view.get("finished")):
        return ""
    end = view.get("end") or {}
    if end.get("perfect"):
        return _("You used every card: the whole deck was dealt, and the centre and your hand are empty!")
    me = view.get("me")
    player = me or next(iter(view.get("players") or []), "")
    if not (view.get("hand_counts") or {}).get(player):
        why = (_("The game ended because there are no cards left in your hand to take with.") if me else
               _("The game ended because there are no cards left in %(player)s's hand to take with.")
               % {"player": player})
    else:
        why = (_("The game ended because no take is possible: no centre card, and no sum of centre "
                 "cards, makes a number in your hand, even with the wild cards.") if me else
               _("The game ended because no take is possible: no centre card, and no sum of centre "
                 "cards, makes a number in %(player)s's hand, even with the wild cards.")
               % {"player": player})
    left = view.get("deck_count") or 0
    if left:
        return why + " " + ngettext("In Solitaire that ends the game, even with %(n)s card still in the deck.",
                                    "In Solitaire that ends the game, even with %(n)s cards still in the deck.",
                                    left) % {"n": left}
    return why + " " + _("The whole deck was dealt.")


def board_context(view: dict) -> dict:
    """The board's extra values for the first render and every push: no selection yet."""
    piles = view.get("piles") or {}
    won = view.get("won") or {}
    players = [{"name": p, "pile": piles.get(p, 0), "hand_count": (view.get("hand_counts") or {}).get(p, 0),
                "won": [card_label(c) for c in won.get(p, [])]} for p in view.get("players", [])]
    hands = view.get("hands")
    return {
        "score_words": score_words(view),
        "end_words": solitaire_end_words(view),
        "nt": play_context(view=view),
        "nt_players": players,
        "nt_out": [card_label(c) for c in view.get("out") or []],
        "nt_hands": {p: [card_label(c) for c in h] for p, h in hands.items()} if hands else None,
    }


def selection_context(view: dict, parsed: tuple[str | None, list[list[str]]]) -> dict:
    """The play area for the player's own view after a tap (the selection view's context)."""
    card, picked = parsed
    return {"nt": play_context(view=view, card=card, picked=picked)}


def _spec(key: str, name, pitch, free_play_bots: int) -> GameSpec:
    return GameSpec(
        key=key,
        name=name,
        pitch=pitch,
        engine=engine_package.ENGINES[key],
        bots=engine_package.BOTS_BY_GAME[key],
        presets=presets_from(engine_package.PRESETS_BY_GAME[key]),
        free_play_bots=free_play_bots,
        board_template=f"games/boards/{key}.html",
        stylesheets=("css/games/numero.css",),  # both games' boards (_numero_*.html)
        ratings=engine_package.RATINGS_BY_GAME.get(key),  # Solitaire's player is rated by nobody
        # The next thing to tap: a centre card not picked yet, a centre card a wild card can
        # go on, "Take", "Build", the hand's card being played, any card of the hand.
        focus_next=("#numero-play .nm-centre button:not([disabled])[aria-pressed=false]",
                    "#numero-play .nm-centre button.nm-target",
                    "#numero-play #nm-take:not([disabled])",
                    "#numero-play #nm-build:not([disabled])",
                    "#numero-play .nm-hand button[aria-pressed=true]",
                    "#numero-play .nm-hand button"),
        your_turn=your_turn,
        board_context=board_context,
        selection=SelectionHook(parse=parse_query, context=selection_context,
                                template="games/boards/_numero_play.html", empty=(None, [])),
        skills=SKILLS,
    )


SPEC = _spec("numero", Spoken(pgettext("game name", "Numero")),
             gettext_lazy("Make sums from the centre cards, with wild cards that change them."), 1)
SOLITAIRE_SPEC = _spec("numero_solitaire", Spoken(pgettext("game name", "Numero Solitaire")),
                       gettext_lazy("Clear the centre on your own."), 0)
