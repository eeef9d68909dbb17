"""Numero's verdicts explained (GameSkills.explain): the move that ended the turn, the expert
bot's move in the same position and what the difference is worth in cards, read from the
expert's judgement recorded with the move (analyse.py: `expert_take`, `take_chance`,
`missed_take`, `chosen`, `cards_left_behind`, the build's facts), the facts the measures
count. Only the player's own cards and the centre (face up) are named; centre items are named
by their first card, as the moves name them.

Each sentence is whole, with named values (games/engine/words.py), so that it can be said in
the reader's language.
"""

from __future__ import annotations

from ..skills import Judged, Verdict, cards, explain_by_measure
from ..words import _, names_in_words, pgettext
from .cards import words


def _groups(groups) -> str | None:
    """"orange 5 + green 7; blue 12": the centre items of each group, by their first card
    (None when there are none)."""
    named = []
    for group in groups or []:
        if not (isinstance(group, list) and group and all(isinstance(n, str) for n in group)):
            continue
        item = words(group[0])
        for n in group[1:]:
            # Translators: Numero centre cards added up in a take: "orange 5 + green 7".
            item = pgettext("Numero cards added up", "%(cards)s + %(card)s", cards=item, card=words(n))
        named.append(item)
    if not named:
        return None
    head = named[0]
    for item in named[1:]:
        # Translators: the groups of centre cards one take wins: "orange 5 + green 7; blue 12".
        head = pgettext("Numero groups of cards", "%(groups)s; %(group)s", groups=head, group=item)
    return head


def _take_words(take: dict) -> str:
    """"4 cards with red 12 (orange 5 + green 7), after playing wild card ×2 on green 3"."""
    groups = _groups(take.get("groups"))
    if groups:
        # Translators: a take in Numero: "4 cards with red 12 (orange 5 + green 7)" (%(cards)s is "4
        # cards", %(card)s the hand card that takes, %(groups)s the centre cards it wins).
        text = _("%(cards)s with %(card)s (%(groups)s)", cards=cards(take["cards"]), card=words(take["card"]),
                 groups=groups)
    else:
        # Translators: a take in Numero: "4 cards with red 12".
        text = _("%(cards)s with %(card)s", cards=cards(take["cards"]), card=words(take["card"]))
    steps = take.get("wild_steps") or []
    if steps:
        # Translators: a wild card played on a centre card: "wild card ×2 on green 3".
        played = names_in_words([_("%(card)s on %(target)s", card=words(s["card"]), target=words(s["target"]))
                                 for s in steps])
        # Translators: a take and the wild cards played before it: "4 cards with red 12, after
        # playing wild card ×2 on green 3".
        text = _("%(take)s, after playing %(wild_cards)s", take=text, wild_cards=played)
    return text


def _made(a: dict, action) -> str:
    """What ended the turn, in words."""
    action = action or {}
    card = action.get("card")
    # Translators: a Numero card not named, in a sentence: "Took with a card."
    name = words(card) if isinstance(card, str) else pgettext("Numero card", "a card")
    kind = a.get("kind")
    if kind == "take":
        chosen = a.get("chosen") or {}
        groups = _groups(action.get("groups"))
        if chosen.get("cards"):
            if groups:
                # Translators: "Took 4 cards with red 12 (orange 5 + green 7)."
                return _("Took %(cards)s with %(card)s (%(groups)s).", cards=cards(chosen["cards"]), card=name,
                         groups=groups)
            # Translators: "Took 4 cards with red 12."
            return _("Took %(cards)s with %(card)s.", cards=cards(chosen["cards"]), card=name)
        if groups:
            # Translators: "Took with red 12 (orange 5 + green 7)."
            return _("Took with %(card)s (%(groups)s).", card=name, groups=groups)
        return _("Took with %(card)s.", card=name)
    if kind == "build":
        value = a.get("build_value")
        # Translators: a Numero build: "Built 12 with green 7." (%(value)s is the build's number).
        return _("Built %(value)s with %(card)s.", value=value, card=name) if value else \
            _("Built with %(card)s.", card=name)
    # Translators: a card put down in the centre: "Put green 7 in the centre."
    return _("Put %(card)s in the centre.", card=name)


def explain_missed_take(j: Judged) -> Verdict | None:
    """nu.missed_take: the expert would end this turn with a take."""
    a, take = j.analysis, j.analysis.get("expert_take")
    if not take:
        return None
    played = _made(a, j.action)
    if j.missed:
        # Translators: "the expert" is the expert computer player; %(take)s is "4 cards with red 12".
        return Verdict(True, played, _("The expert would take: %(take)s.", take=_take_words(take)),
                       # Translators: %(cards)s is "4 cards".
                       _("No take: the expert's take would have won %(cards)s.", cards=cards(take["cards"])))
    return Verdict(False, played, _("The expert would take too: %(take)s.", take=_take_words(take)),
                   _("Fine: a take was made (how many cards it won is judged under “Biggest take”)."))


def explain_best_take(j: Judged) -> Verdict | None:
    """nu.best_take: the take made against the take the expert values most."""
    a, take, chosen = j.analysis, j.analysis.get("expert_take"), j.analysis.get("chosen")
    if not take or not chosen:
        return None
    played = _made(a, j.action)
    # Translators: %(take)s is "4 cards with red 12 (orange 5 + green 7)".
    expert = _("The expert's take: %(take)s.", take=_take_words(take))
    left = a.get("cards_left_behind") or 0
    if j.missed:
        # Translators: %(cards)s is "2 cards"; %(expert)s and %(made)s are numbers of cards.
        return Verdict(True, played, expert, _("%(cards)s left behind: the expert's take wins %(expert)s, "
                                               "this one %(made)s.", cards=cards(left),
                                               expert=take["cards"], made=chosen["cards"]))
    if chosen["cards"] > take["cards"]:
        return Verdict(False, played, expert, _("Fine: more cards than the expert's take (the expert "
                                                "sometimes leaves cards in the centre for later)."))
    # Translators: %(cards)s is a number of cards.
    return Verdict(False, played, expert, _("Fine: as many cards as the expert's take (%(cards)s).",
                                            cards=take["cards"]))


def _a(value: int) -> str:
    """"a 12", "an 11", "an 8": a number card of this value, with the article it takes read aloud."""
    if str(value).startswith("8") or value in (11, 18):
        # Translators: a card of this number, in a sentence ("holding an 8"); English says "an"
        # before a number read with a vowel: translate it as "a %(value)s".
        return pgettext("a Numero card of this number", "an %(value)s", value=value)
    # Translators: a card of this number, in a sentence ("holding a 12", "without a 12 in hand").
    return pgettext("a Numero card of this number", "a %(value)s", value=value)


def explain_build(j: Judged) -> Verdict | None:
    """nu.valid_build: a build must keep its answer card in hand (or, with challenges, is a bluff)."""
    a, action = j.analysis, j.action or {}
    card, value = action.get("card"), a.get("build_value")
    if not isinstance(card, str) or not value:
        return None
    # Translators: a Numero build and its answer card: %(answer)s is "a 12" (a card of that number).
    rule = _("A build needs %(answer)s kept in hand to take it later.", answer=_a(value))
    if not j.missed:
        # Translators: "Built 12 with green 7, holding a 12." (%(answer)s is "a 12").
        return Verdict(False, _("Built %(value)s with %(card)s, holding %(answer)s.", value=value,
                                card=words(card), answer=_a(value)), rule, _("Fine: an honest build."))
    # Translators: "Built 12 with green 7 without a 12 in hand." (%(answer)s is "a 12").
    played = _("Built %(value)s with %(card)s without %(answer)s in hand.", value=value, card=words(card),
               answer=_a(value))
    if a.get("legal"):  # with challenges: a bluff that was challenged and found out
        return Verdict(True, played, rule, _("A bluff: challenged and found out (20 points lost)."))
    # Translators: %(value)s is the number of the card the build needed.
    return Verdict(True, played, rule, _("The build was refused: no %(value)s was in hand.", value=value))


explain = explain_by_measure({"nu.missed_take": explain_missed_take, "nu.best_take": explain_best_take,
                             "nu.valid_build": explain_build})
