"""What a hand of operator cards is worth, for the expert bot.

The greedy "lowest card now" is a poor responder: it keeps its `x` cards until a hand of
`x x x` forces an average of 85 points on an opponent. The real skill is hand management:
get rid of `x` when l is 1 or 2, keep `-`, use `/` when it divides.

`compute_hand_values` solves a small Markov decision process by value iteration: a
3-card hand answers a random pair (h, l), plays the card minimising its award plus the
discounted value of the hand it keeps, draws a random card, and then (its own turn as
the active player) plays every special card it holds for an average gain. V[hand] is the
expected discounted number of points the hand will give away (before a response),
U[hand] the same just after a response, before the holder's own turn. The result is
stored in `hand_values.py` (regenerate with `python -m games.engine.smooth_operator.strategy`).
"""

from __future__ import annotations

import itertools
from collections import Counter

from . import rules

GAMMA = 0.9
# Average points a special earns its holder in a turn (2-player estimates from self-play).
SPECIAL_GAIN = {"free_choice": 55, "double": 30, "free_turn": 30}
HANDS = list(itertools.combinations_with_replacement(rules.OPERATOR_CODES, 3))
PAIRS = [(h, l) for h in rules.HIGH_VALUES for l in rules.LOW_VALUES]
PACK_DRAW = {c: n / sum(rules.OPERATOR_COPIES.values()) for c, n in rules.OPERATOR_COPIES.items()}


def hand_key(cards) -> tuple:
    return tuple(sorted(cards, key=rules.CANONICAL.__getitem__))


def compute_hand_values(gamma: float = GAMMA, tolerance: float = 0.01, max_rounds: int = 500):
    """(V, U) as described in the module docstring, keyed by `hand_key`."""
    awards = {c: [rules.result(c, h, l) for h, l in PAIRS] for c in rules.ARITHMETIC}
    value = {hand: 0.0 for hand in HANDS}

    def after_own_turn(hand):
        specials = [c for c in hand if c in rules.SPECIAL_SET]
        if not specials:
            return value[hand]
        kept = [c for c in hand if c not in rules.SPECIAL_SET]
        total = -sum(SPECIAL_GAIN[s] for s in specials)
        for draws in itertools.product(rules.OPERATOR_CODES, repeat=len(specials)):
            p = 1.0
            for d in draws:
                p *= PACK_DRAW[d]
            total += p * value[hand_key(kept + list(draws))]
        return total

    for _ in range(max_rounds):
        after = {hand: after_own_turn(hand) for hand in HANDS}
        new = {}
        for hand in HANDS:
            keep = {}
            for card in set(hand):
                rest = list(hand)
                rest.remove(card)
                keep[card] = gamma * sum(p * after[hand_key(rest + [d])] for d, p in PACK_DRAW.items())
            playable = [c for c in keep if c in rules.ARITHMETIC]
            specials = [c for c in keep if c in rules.SPECIAL_SET]
            stuck = rules.STUCK_PENALTY + (min(keep[s] for s in specials) if specials
                                           else gamma * after[hand])
            total = 0.0
            for i in range(len(PAIRS)):
                best = None  # a hand that can play must play, however dear
                for card in playable:
                    award = awards[card][i]
                    if award is not None and (best is None or award + keep[card] < best):
                        best = award + keep[card]
                total += stuck if best is None else best
            new[hand] = total / len(PAIRS)
        change = max(abs(new[h] - value[h]) for h in HANDS)
        value = new
        if change < tolerance:
            break
    after = {hand: after_own_turn(hand) for hand in HANDS}
    return value, after


def draw_odds(unseen: list) -> dict:
    """Chance of each operator code for the next draw, from the cards the player cannot see
    (the pack's proportions when it cannot tell)."""
    if not unseen:
        return PACK_DRAW
    counts = Counter(unseen)
    return {c: n / len(unseen) for c, n in counts.items()}


def _table():
    try:
        from .hand_values import AFTER, BEFORE  # generated data, see module docstring
    except ImportError:  # only while bootstrapping the generated file
        return compute_hand_values()
    return BEFORE, AFTER


BEFORE, AFTER = _table()
AVERAGE_AFTER = sum(AFTER.values()) / len(AFTER)


def _keep_value(hand, card: str, odds: dict) -> float:
    rest = list(hand)
    rest.remove(card)
    if len(rest) != 2:  # hands of other sizes only come from a scenario setup
        return GAMMA * AVERAGE_AFTER
    return GAMMA * sum(p * AFTER[hand_key(rest + [d])] for d, p in odds.items())


# keep_value with the pack's odds, for every hand and card (the play-outs' hot path).
PACK_KEEP = {(hand, card): _keep_value(hand, card, PACK_DRAW) for hand in HANDS for card in set(hand)}


def keep_value(hand, card: str, odds: dict = PACK_DRAW) -> float:
    """Discounted points the hand will still give away after playing `card` and drawing."""
    if odds is PACK_DRAW and len(hand) == 3:
        return PACK_KEEP[hand_key(hand), card]
    return _keep_value(hand, card, odds)


def hand_value(hand) -> float:
    """Points a hand is expected to give away from now on (lower is better)."""
    return BEFORE.get(hand_key(hand), AVERAGE_AFTER) if len(hand) == 3 else AVERAGE_AFTER


def best_response(hand, high: int, low: int, odds: dict = PACK_DRAW) -> str:
    options = rules.play_options(hand, high, low)
    if len(options) == 1:
        return next(iter(options))
    return min(options, key=lambda c: (options[c] + keep_value(hand, c, odds), rules.CANONICAL[c]))


def best_penalty_discard(hand, odds: dict = PACK_DRAW) -> str:
    return min(rules.specials_in(hand), key=lambda c: keep_value(hand, c, odds))


# The active player's rule of thumb in play-outs: a special is worth keeping for a better
# turn unless it earns at least this much now, the hand is clogged, or it wins the game.
FREE_CHOICE_WORTH = 60
DOUBLE_WORTH = 30


def smart_action(kind: str, hand, high: int, low: int, awards: dict, doubles: int,
                 turn_points: int, still_needed: int, odds: dict = PACK_DRAW,
                 recycled: bool = False) -> dict:
    """A strong fast policy: hand-value responses, and specials kept for better turns.
    `recycled`: a special played now would come straight back (bots.comes_straight_back)."""
    if kind == rules.RESPONSE:
        return {"type": "play", "card": best_response(hand, high, low, odds)}
    if kind == rules.PENALTY:
        return {"type": "penalty", "discard": best_penalty_discard(hand, odds)}
    if "free_turn" in hand and not recycled:
        return {"type": "special", "card": "free_turn"}
    clogged = sum(1 for c in hand if c in rules.SPECIAL_SET) >= 2
    if "free_choice" in hand:
        sign = rules.best_sign(high, low)
        raised = rules.result(sign, high, low) * len(awards)
        gain = raised - sum(awards.values())
        if gain > 0 and (gain >= FREE_CHOICE_WORTH or clogged or raised << doubles >= still_needed):
            return {"type": "special", "card": "free_choice", "sign": sign}
    if "double" in hand and turn_points > 0 and not recycled and (
            turn_points >= DOUBLE_WORTH or clogged or 2 * turn_points >= still_needed):
        return {"type": "special", "card": "double"}
    return {"type": "end_turn"}


if __name__ == "__main__":  # regenerate hand_values.py
    import pathlib
    import pprint

    before, after = compute_hand_values()
    text = (
        '"""Generated by `python -m games.engine.smooth_operator.strategy`: hand values\n'
        'from `compute_hand_values()` (see strategy.py), rounded to 0.01."""\n\n'
        f"BEFORE = {pprint.pformat({k: round(v, 2) for k, v in before.items()}, width=96)}\n\n"
        f"AFTER = {pprint.pformat({k: round(v, 2) for k, v in after.items()}, width=96)}\n"
    )
    pathlib.Path(__file__).with_name("hand_values.py").write_text(text)
