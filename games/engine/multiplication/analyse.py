"""Skill facts for one Multiplication Game decision (docs/reports.md: mg.missed_play, mg.facts,
mg.squares), computed on the state before the action. Never raises: a rejected attempt
is analysed too, with its error code.

Strategy (mg.missed_play, mg.squares) is judged against the expert bot's own evaluation of
the same position, made from the player's view exactly as the bot makes it (bots.py
`ExpertBot.evaluate`: pure, no randomness), so a move the expert would make is never a miss.
Times-table facts (mg.facts) are blamed on the fact the card needed (`needed_fact`).
"""

from __future__ import annotations

from . import rules
from .bots import ExpertBot
from .view import player_view

# Two expert values closer than this are equal (the same move, as far as the expert can tell).
EPS = 1e-9

_EXPERT = ExpertBot(None, 0)
NOTHING_TO_JUDGE = {"options": [], "best": None, "choice": None, "square_chance": False}


def expert_judgement(view: dict) -> dict:
    """What the expert makes of the position in `view` (the player to move):

    - options: [(card, a, b, value)] every legal discard with the expert's value;
    - best: the best value (None when nothing can be discarded);
    - choice: (card, a, b) the expert's own move (None: it draws);
    - square_chance: a square matters here - every discard the expert rates best is a
      square, and a discard that is not a square is legal too (so it can be missed by
      playing a card; a draw is mg.missed_play's miss, not this one's)."""
    options = _EXPERT.evaluate(view)
    if not options:
        return NOTHING_TO_JUDGE
    best = max(o[3] for o in options)
    choice = next(o[:3] for o in options if o[3] == best)
    top = [o for o in options if o[3] >= best - EPS]
    square_chance = (all(rules.is_square(a * b) for _, a, b, _ in top)
                     and any(not rules.is_square(a * b) for _, a, b, _ in options))
    return {"options": options, "best": best, "choice": choice, "square_chance": square_chance}


def needed_fact(card, declare, open_multipliers) -> tuple[int, int] | None:
    """The table fact (a, b), a <= b, that discarding `card` with the declaration `declare`
    was about: what a times-table miss is blamed on (never the fact said, which may belong
    to another card: "8 x 7" said for 54 is a miss of 6 x 9). None for a free card (any
    fact is true of it), unless a multiplier was outside 1 to 10: then the nearest fact.

    A true declaration is its own fact. For a false one, among the card's facts (1 to 10):
    first those playable now (sharing a multiplier with the open card: what the card needed
    here), then those sharing a multiplier with what was said (the multiplier the child
    used), then the nearest to what was said (|a - x| + |b - y|, either order), then the
    smallest."""
    a, b = declare
    if rules.check_declaration(card, (a, b)):
        return None if card == rules.FREE else (min(a, b), max(a, b))
    if card == rules.FREE:  # only a multiplier outside 1-10 is false: the nearest table fact
        a, b = (min(max(m, 1), 10) for m in (a, b))
        return (min(a, b), max(a, b))
    said, here = {a, b}, set(open_multipliers)

    def key(f):
        x, y = f
        return (not (x in here or y in here), not (x in said or y in said),
                min(abs(x - a) + abs(y - b), abs(x - b) + abs(y - a)), f)
    return min(rules.FACTS[card], key=key)


def fact_label(fact: tuple[int, int]) -> str:
    return f"{fact[0]}x{fact[1]}"


def analyse_turn(engine, state: dict, player: str, action) -> dict:
    kind = action.get("type") if type(action) is dict else None
    kind = kind if type(kind) is str and kind in engine.ACTIONS else "unknown"
    facts = {"kind": kind, "player": player,
             "turn": state["turn"]}
    code = engine.error_code(state, player, action)
    facts.update(legal=code is None, error=code)
    if facts["error"] == "bad_action" or player not in state["players"]:
        return facts
    hand = state["hands"][player]
    multipliers = state["open"]["multipliers"]
    options = rules.playable(hand, rules.mask_of(multipliers))
    square_cards = [card for card, decls in options if any(rules.is_square(a * b) for a, b in decls)]
    facts.update(
        open=dict(state["open"], multipliers=list(multipliers)),
        hand=rules.sorted_cards(hand),
        legal_discards=[{"card": card, "declarations": [list(d) for d in decls]}
                        for card, decls in options],
        could_discard=bool(options),
        square_possible=bool(square_cards),
        square_cards=square_cards,
        chosen={k: v for k, v in action.items() if k != "player"},
    )
    judged = expert_judgement(player_view(state, player)) if options else NOTHING_TO_JUDGE
    choice = judged["choice"]
    facts["expert"] = {"move": list(choice) if choice else None,
                       "value": round(judged["best"], 4) if judged["best"] is not None else None}
    facts["square_chance"] = judged["square_chance"]
    played_square = False
    chosen_value = None
    if kind == "discard":
        card, (a, b) = action["card"], action["declare"]
        correct = rules.check_declaration(card, (a, b))
        common = a in multipliers or b in multipliers
        played_square = facts["legal"] and rules.is_square(a * b)
        needed = needed_fact(card, (a, b), multipliers)
        facts["fact"] = {"a": a, "b": b, "card": card, "product": a * b, "correct": correct,
                         "needed": fact_label(needed) if needed else None}
        facts["common_multiplier"] = common
        facts["square"] = played_square
        if facts["legal"]:
            low, high = min(a, b), max(a, b)
            chosen_value = next((v for c, x, y, v in judged["options"] if c == card and (x, y) == (low, high)),
                                None)
    # mg.missed_play: drew while a legal discard existed (the expert always discards then).
    # The cost, in cards: the one not discarded, and the one drawn (if any was left to draw).
    facts["missed_play"] = kind == "draw" and facts["could_discard"]
    if facts["missed_play"]:
        facts["cards_given_up"] = 1 + (1 if state["deck"] or state["discards"] else 0)
    # mg.squares: the expert would play a square here, and another card was played.
    facts["missed_square"] = bool(facts["square_chance"] and kind == "discard" and facts["legal"]
                                  and not played_square)
    if facts["missed_square"] and chosen_value is not None:
        facts["square_regret"] = round(judged["best"] - chosen_value, 4)
    return facts
