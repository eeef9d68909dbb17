"""Numero Solitaire: one player, five cards in the centre, only takes.

Each turn is free wild steps and then one take; then the centre and the hand are refilled
to five. The game ends as soon as no take is possible, counting every way the wild cards in
hand could be applied (the search decides). With scoring: +10 if the whole deck was dealt,
+25 more if the hand and the centre are also empty; printed points left in hand count
against the player.
"""

from __future__ import annotations

from .cards import printed_points
from .engine import NumeroEngine
from .search import any_take
from .setup import SOLITAIRE_CENTRE, deal_hands, refill_hand, single, turn_up
from .view import search_items

DECK_DEALT_BONUS = 10
PERFECT_BONUS = 25


class SolitaireEngine(NumeroEngine):
    key = "numero_solitaire"
    title = "Numero Solitaire"
    min_players = 1
    max_players = 1
    solitaire = True

    def _deal(self, state, hands, centre, events) -> None:
        if centre is None:
            turn_up(state, SOLITAIRE_CENTRE)
        else:
            state["centre"] = [single(c) for c in centre]
        deal_hands(state, hands)
        events.append({"type": "deal", "centre": [i["cards"][0] for i in state["centre"]],
                       "hand_counts": {p: len(h) for p, h in state["hands"].items()}})

    def _after_take(self, state, player, events) -> None:
        turned = turn_up(state, SOLITAIRE_CENTRE)
        if turned:
            events.append({"type": "centre_refill", "cards": turned})
        drawn = refill_hand(state, player)
        if drawn:
            events.append({"type": "draw", "player": player, "count": drawn})
        self._start_turn(state, player, events)

    def _settle(self, state, events) -> None:
        player = self._current(state)
        if not any_take(search_items(state["centre"]), state["hands"][player]):
            self._finish(state, events)

    def _finish(self, state, events) -> None:
        player = self._current(state)
        hand = state["hands"][player]
        dealt = not state["deck"]
        perfect = dealt and not hand and not state["centre"]
        in_hand = sum(printed_points(c) for c in hand)
        # `deck_left`: the cards never drawn, so the end can say why it came with some left.
        end = {"deck_dealt": dealt, "perfect": perfect, "hand_printed": in_hand, "bonus": 0,
               "deck_left": len(state["deck"])}
        if state["options"]["scoring"]:
            end["bonus"] = DECK_DEALT_BONUS * dealt + PERFECT_BONUS * perfect
            state["points"][player] += end["bonus"] - in_hand
        self._close(state, end, events)
