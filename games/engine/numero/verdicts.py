"""Numero's verdicts explained (GameSkills.explain): the move that ended the turn, the expert
bot's move in the same position and what the difference is worth in cards, read from the
expert's judgement recorded with the move (analyse.py: `expert_take`, `take_chance`,
`missed_take`, `chosen`, `cards_left_behind`, the build's facts), the facts the measures
count. Only the player's own cards and the centre (face up) are named; centre items are named
by their first card, as the moves name them.
"""

from __future__ import annotations

from ..skills import Judged, Verdict, counted, explain_by_measure
from .cards import words


def _cards(n) -> str:
    return counted(n, "card", "cards")


def _groups(groups) -> str:
    """" (orange 5 + green 7; blue 12)": the centre items of each group, by their first card."""
    named = "; ".join(" + ".join(words(n) for n in group) for group in groups or []
                      if isinstance(group, list) and all(isinstance(n, str) for n in group))
    return f" ({named})" if named else ""


def _take_words(take: dict) -> str:
    """"4 cards with red 12 (orange 5 + green 7), after wild card ×2 on green 3"."""
    text = f"{_cards(take['cards'])} with {words(take['card'])}{_groups(take.get('groups'))}"
    steps = take.get("wild_steps") or []
    if steps:
        text += ", after playing " + " and ".join(f"{words(s['card'])} on {words(s['target'])}" for s in steps)
    return text


def _made(a: dict, action) -> str:
    """What ended the turn, in words."""
    action = action or {}
    card = action.get("card")
    name = words(card) if isinstance(card, str) else "a card"
    kind = a.get("kind")
    if kind == "take":
        chosen = a.get("chosen") or {}
        groups = _groups(action.get("groups"))
        return f"Took {_cards(chosen['cards'])} with {name}{groups}." if chosen.get("cards") else \
            f"Took with {name}{groups}."
    if kind == "build":
        value = a.get("build_value")
        return f"Built {value} with {name}." if value else f"Built with {name}."
    return f"Put {name} in the centre."


def explain_missed_take(j: Judged) -> Verdict | None:
    """nu.missed_take: the expert would end this turn with a take."""
    a, take = j.analysis, j.analysis.get("expert_take")
    if not take:
        return None
    played = _made(a, j.action)
    if j.missed:
        return Verdict(True, played, f"The expert would take: {_take_words(take)}.",
                       f"No take: the expert's take would have won {_cards(take['cards'])}.")
    return Verdict(False, played, f"The expert would take too: {_take_words(take)}.",
                   "Fine: a take was made (how many cards it won is judged under “Biggest take”).")


def explain_best_take(j: Judged) -> Verdict | None:
    """nu.best_take: the take made against the take the expert values most."""
    a, take, chosen = j.analysis, j.analysis.get("expert_take"), j.analysis.get("chosen")
    if not take or not chosen:
        return None
    played = _made(a, j.action)
    expert = f"The expert's take: {_take_words(take)}."
    left = a.get("cards_left_behind") or 0
    if j.missed:
        return Verdict(True, played, expert,
                       f"{counted(left, 'card', 'cards')} left behind: the expert's take wins "
                       f"{take['cards']}, this one {chosen['cards']}.")
    if chosen["cards"] > take["cards"]:
        return Verdict(False, played, expert, "Fine: more cards than the expert's take (the expert "
                       "sometimes leaves cards in the centre for later).")
    return Verdict(False, played, expert, f"Fine: as many cards as the expert's take ({take['cards']}).")


def _a(value: int) -> str:
    """"a 12", "an 11", "an 8": the article a number takes when read aloud."""
    return f"an {value}" if str(value).startswith("8") or value in (11, 18) else f"a {value}"


def explain_build(j: Judged) -> Verdict | None:
    """nu.valid_build: a build must keep its answer card in hand (or, with challenges, is a bluff)."""
    a, action = j.analysis, j.action or {}
    card, value = action.get("card"), a.get("build_value")
    if not isinstance(card, str) or not value:
        return None
    played = f"Built {value} with {words(card)}"
    rule = f"A build needs {_a(value)} kept in hand to take it later."
    if not j.missed:
        return Verdict(False, played + f", holding {_a(value)}.", rule, "Fine: an honest build.")
    if a.get("legal"):  # with challenges: a bluff that was challenged and found out
        return Verdict(True, played + f" without {_a(value)} in hand.", rule,
                       "A bluff: challenged and found out (20 points lost).")
    return Verdict(True, played + f" without {_a(value)} in hand.", rule,
                   f"The build was refused: no {value} was in hand.")


explain = explain_by_measure({"nu.missed_take": explain_missed_take, "nu.best_take": explain_best_take,
                             "nu.valid_build": explain_build})
