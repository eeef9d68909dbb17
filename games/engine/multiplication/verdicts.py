"""The Multiplication Game's verdicts explained (GameSkills.explain): the move made, the expert
bot's move in the same position and what the difference is worth in cards, read from the
expert's judgement recorded with the move (analyse.py: `expert`, `missed_play`,
`cards_given_up`, `square_chance`, `square_regret`, `fact`), the facts the measures count.
Only the player's own cards and the open card are named (what they saw).
"""

from __future__ import annotations

import math

from ..skills import Judged, Verdict, counted, explain_by_measure, fact_name, parse_fact
from . import rules

SKIP = "a square, so the next player draws a card and misses a turn"


def _card(card) -> str:
    return "a free card" if card == rules.FREE else str(card)


def _discard(card, a, b) -> str:
    square = f": {SKIP}" if rules.is_square(a * b) else ""
    return f"{_card(card)} as {a} × {b}{square}"


def _chosen(a: dict) -> str:
    chosen = a.get("chosen") or {}
    if a.get("kind") == "draw":
        return "Drew a card."
    declare = chosen.get("declare") or [None, None]
    return f"Discarded {_discard(chosen.get('card'), *declare)}."


def _expert(a: dict) -> tuple | None:
    move = (a.get("expert") or {}).get("move")
    return tuple(move) if move else None


def explain_play(j: Judged) -> Verdict | None:
    """mg.missed_play: the expert always discards when a card can be played."""
    a, expert = j.analysis, _expert(j.analysis)
    if expert is None:
        return None
    played = _chosen(a)
    if j.missed:
        given = a.get("cards_given_up", 1)
        why = "the card kept and the card drawn" if given > 1 else "the card kept: nothing was left to draw"
        return Verdict(True, played, f"The expert would discard {_discard(*expert)}.",
                       f"{counted(given, 'card', 'cards')} more in hand than after a discard ({why}).")
    return Verdict(False, played, f"The expert would play a card too (its choice: {_discard(*expert)}).",
                   "Fine: a card was played when one could be.")


def explain_square(j: Judged) -> Verdict | None:
    """mg.squares: every discard the expert rates best is a square, and another card was legal."""
    a, expert = j.analysis, _expert(j.analysis)
    if expert is None:
        return None
    played = _chosen(a)
    if j.missed:
        regret = a.get("square_regret")
        worth = (f"{counted(regret, 'card', 'cards')} given up, as the expert counts them (its value of "
                 "its move minus its value of the move made)." if regret is not None
                 else "The next player was not skipped.")
        return Verdict(True, played, f"The expert would discard {_discard(*expert)}.", worth)
    return Verdict(False, played, f"The expert would play a square too (its choice: {_discard(*expert)}).",
                   f"Fine: {SKIP}.")


def explain_fact(j: Judged) -> Verdict | None:
    """mg.facts: the fact said for the card, blamed on the fact the card needed."""
    fact = j.analysis.get("fact")
    if not fact or not fact.get("needed"):
        return None
    card, a, b = fact.get("card"), fact.get("a"), fact.get("b")
    played = f"Said {a} × {b} for {_card(card)}."
    ways = rules.FACTS.get(card) if card != rules.FREE else None
    truth = (f"{card} is " + " or ".join(f"{x} × {y}" for x, y in ways) + "." if ways
             else f"{fact_name(fact['needed'])} = {math.prod(parse_fact(fact['needed']) or (0,))}.")
    if j.missed:
        return Verdict(True, played, truth, f"A wrong fact ({a} × {b} = {a * b}), counted as "
                       f"{fact_name(fact['needed'])}.")
    return Verdict(False, played, truth, f"Fine: {a} × {b} = {a * b}.")


explain = explain_by_measure({"mg.missed_play": explain_play, "mg.squares": explain_square,
                              "mg.facts": explain_fact})
