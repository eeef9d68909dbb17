"""The Multiplication Game's verdicts explained (GameSkills.explain): the move made, the expert
bot's move in the same position and what the difference is worth in cards, read from the
expert's judgement recorded with the move (analyse.py: `expert`, `missed_play`,
`cards_given_up`, `square_chance`, `square_regret`, `fact`), the facts the measures count.
Only the player's own cards and the open card are named (what they saw).

Each sentence is whole, with named values (games/engine/words.py), so that it can be said in
the reader's language.
"""

from __future__ import annotations

import math

from ..skills import Judged, Verdict, cards, explain_by_measure, fact_name, parse_fact
from ..words import _, pgettext
from . import rules


def _card(card) -> str:
    # Translators: The Multiplication Game's free card, in a sentence ("Said 3 × 4 for a free card.").
    return pgettext("The Multiplication Game card", "a free card") if card == rules.FREE else str(card)


def _discard(card, a, b) -> str:
    """'12 as 3 × 4', or for a square '49 as 7 × 7: a square, so the next player draws ...'."""
    if rules.is_square(a * b):
        # Translators: a card put down and the fact said for it, in a sentence about a move
        # ("Discarded %(discard)s."); a square makes the next player draw and miss a turn.
        return _("%(card)s as %(a)s × %(b)s: a square, so the next player draws a card and misses a turn",
                 card=_card(card), a=a, b=b)
    # Translators: a card put down and the fact said for it, in a sentence about a move
    # ("Discarded %(discard)s."): "12 as 3 × 4".
    return _("%(card)s as %(a)s × %(b)s", card=_card(card), a=a, b=b)


def _chosen(a: dict) -> str:
    chosen = a.get("chosen") or {}
    if a.get("kind") == "draw":
        return _("Drew a card.")
    declare = chosen.get("declare") or [None, None]
    # Translators: %(discard)s is a card and its fact, "12 as 3 × 4".
    return _("Discarded %(discard)s.", discard=_discard(chosen.get("card"), *declare))


def _expert(a: dict) -> tuple | None:
    move = (a.get("expert") or {}).get("move")
    return tuple(move) if move else None


def _would_discard(expert: tuple) -> str:
    # Translators: "the expert" is the expert computer player; %(discard)s is "12 as 3 × 4".
    return _("The expert would discard %(discard)s.", discard=_discard(*expert))


def explain_play(j: Judged) -> Verdict | None:
    """mg.missed_play: the expert always discards when a card can be played."""
    a, expert = j.analysis, _expert(j.analysis)
    if expert is None:
        return None
    played = _chosen(a)
    if j.missed:
        given = a.get("cards_given_up", 1)
        if given > 1:
            # Translators: %(cards)s is "2 cards".
            worth = _("%(cards)s more in hand than after a discard (the card kept and the card drawn).",
                      cards=cards(given))
        else:
            # Translators: %(cards)s is "1 card".
            worth = _("%(cards)s more in hand than after a discard (the card kept: nothing was left to "
                      "draw).", cards=cards(given))
        return Verdict(True, played, _would_discard(expert), worth)
    # Translators: %(discard)s is the expert's move, "12 as 3 × 4".
    return Verdict(False, played, _("The expert would play a card too (its choice: %(discard)s).",
                                    discard=_discard(*expert)),
                   _("Fine: a card was played when one could be."))


def explain_square(j: Judged) -> Verdict | None:
    """mg.squares: every discard the expert rates best is a square, and another card was legal."""
    a, expert = j.analysis, _expert(j.analysis)
    if expert is None:
        return None
    played = _chosen(a)
    if j.missed:
        regret = a.get("square_regret")
        # Translators: %(cards)s is "2 cards" (or "1.5 cards": the expert's estimate).
        worth = (_("%(cards)s given up, as the expert counts them (its value of its move minus its value "
                   "of the move made).", cards=cards(regret)) if regret is not None
                 else _("The next player was not skipped."))
        return Verdict(True, played, _would_discard(expert), worth)
    # Translators: %(discard)s is the expert's move, "49 as 7 × 7: a square, ...".
    return Verdict(False, played, _("The expert would play a square too (its choice: %(discard)s).",
                                    discard=_discard(*expert)),
                   _("Fine: a square, so the next player draws a card and misses a turn."))


def _or_list(facts: list[str]) -> str:
    """"2 × 6 or 3 × 4": the ways a card can be said."""
    head = facts[0]
    for fact in facts[1:]:
        # Translators: one more way in a list of multiplication facts: "1 × 12 or 2 × 6".
        head = pgettext("a list of facts", "%(facts)s or %(fact)s", facts=head, fact=fact)
    return head


def explain_fact(j: Judged) -> Verdict | None:
    """mg.facts: the fact said for the card, blamed on the fact the card needed."""
    fact = j.analysis.get("fact")
    if not fact or not fact.get("needed"):
        return None
    card, a, b = fact.get("card"), fact.get("a"), fact.get("b")
    # Translators: the fact a player said for a card: "Said 3 × 4 for 12." (%(card)s may be "a free card").
    played = _("Said %(a)s × %(b)s for %(card)s.", a=a, b=b, card=_card(card))
    ways = rules.FACTS.get(card) if card != rules.FREE else None
    if ways:
        # Translators: the facts a card can be said as: "12 is 2 × 6 or 3 × 4."
        truth = _("%(card)s is %(facts)s.", card=card, facts=_or_list([f"{x} × {y}" for x, y in ways]))
    else:
        truth = f"{fact_name(fact['needed'])} = {math.prod(parse_fact(fact['needed']) or (0,))}."
    if j.missed:
        # Translators: a wrong multiplication fact said, and the fact it is counted as: "A wrong
        # fact (3 × 5 = 15), counted as 3 × 4."
        return Verdict(True, played, truth, _("A wrong fact (%(a)s × %(b)s = %(product)s), counted as "
                                              "%(needed)s.", a=a, b=b, product=a * b,
                                              needed=fact_name(fact["needed"])))
    # Translators: a right multiplication fact: "Fine: 3 × 4 = 12."
    return Verdict(False, played, truth, _("Fine: %(a)s × %(b)s = %(product)s.", a=a, b=b, product=a * b))


explain = explain_by_measure({"mg.missed_play": explain_play, "mg.squares": explain_square,
                              "mg.facts": explain_fact})
