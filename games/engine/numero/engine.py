"""The Numero engine: state, moves and the automatic parts of a turn.

State (plain JSON):
  players, options, seed, shuffles, finished, winners
  deck            cards, top first (hidden)
  hands           {name: cards} (each hidden from the others)
  centre          items: {"cards", "value", "build", "builder"}; a build also keeps
                  "parts" (the items it joined, as they were), "card" (the builder's card),
                  "claim" (its value when built), "turn" (when) and "challenged"
  won             {name: cards in the winning pile}   (public: takes are made face up)
  points          {name: points} (with scoring)
  out             wild cards put out of play (public)
  turn            index of the player on turn; turn_no counts turns
  last_turn / previous_turn  {name: turn number} (challenges look at previous_turn)
  final           null, or {"ender": name, "queue": [names still to play a final turn]}
  last_taker, end (the end-of-game adjustments), log (recent events, for views)
"""

from __future__ import annotations

from ..core import Engine
from ..validate import list_of
from . import rules
from .analyse import analyse
from .cards import is_code, is_number, value_of
from .legal import legal_actions
from .scoring import MOST_CARDS_BONUS, item_facts, leftover_points, take_breakdown
from .search import any_take
from .selection import selection
from .setup import (build_deck, check_options, deal_hands, options_spec, read_setup, with_level,
                    refill_hand, single, turn_up)
from .view import coach_view, describe_event, pile_counts, position, search_items, summary, view

LOG_SIZE = 30
CHALLENGE_WRONG = -10
CHALLENGE_BLUFF = -20

_codes = list_of(is_code, 1, 80)
ACTIONS = {
    "wild": {"card": is_code, "target": is_code},
    "discard_wild": {"card": is_code},
    "challenge": {"target": is_code},
    "take": {"card": is_code, "groups": list_of(_codes, 1, 80)},
    "build": {"card": is_code, "with": _codes},
    "discard": {"card": is_code},
}
FREE_STEPS = ("wild", "discard_wild", "challenge")


class NumeroEngine(Engine):
    key = "numero"
    # The game's own refusal codes (docs/rules-numero.md), beside the shared ones.
    ERROR_CODES = frozenset({'build_too_big', 'builds_not_allowed', 'challenge_not_allowed', 'discards_not_allowed', 'group_mismatch', 'item_reused', 'must_take', 'no_answer_card', 'not_a_number_card', 'not_a_wild_card', 'unknown_item', 'wild_not_in_pack', 'wild_result_invalid'})
    title = "Numero"
    min_players = 2
    max_players = 3
    solitaire = False
    OPTIONS = options_spec()
    SETUP_KEYS = frozenset({"hands", "centre", "deck"})
    ACTIONS = ACTIONS

    # ----- set-up --------------------------------------------------------------------------
    def resolve_options(self, options, player_count):
        # `level` (a house option) stands for the level's options; left out when not given,
        # so that a game without it is exactly what it always was.
        resolved = super().resolve_options(with_level(options), player_count)
        if resolved["level"] is None:
            del resolved["level"]
        return resolved

    def _check_options(self, options: dict) -> None:
        check_options(options, self.solitaire)

    def _new_game(self, players, options, seed, setup):
        hands, centre, deck = read_setup(setup, players, options)
        options = dict(options, wilds=list(options["wilds"]))
        state = self.base_state(players, options, seed)
        state.update({
            "deck": [], "hands": {}, "centre": [], "won": {p: [] for p in players},
            "points": {p: 0 for p in players}, "out": [], "turn": 0, "turn_no": 0,
            "last_turn": {p: 0 for p in players}, "previous_turn": {p: 0 for p in players},
            "final": None, "last_taker": None, "end": None, "log": [],
        })
        state["deck"] = build_deck(state, hands, centre, deck)
        events: list[dict] = []
        self._deal(state, hands, centre, events)
        self._start_turn(state, players[0], events)
        self._log(state, events)
        return state

    def _deal(self, state, hands, centre, events) -> None:
        deal_hands(state, hands)
        if centre is None:
            turn_up(state, 3 if len(state["players"]) == 3 else 2)
        else:
            state["centre"] = [single(c) for c in centre]
        events.append({"type": "deal", "centre": [i["cards"][0] for i in state["centre"]],
                       "hand_counts": {p: len(h) for p, h in state["hands"].items()}})

    # ----- the contract ----------------------------------------------------------------------
    def waiting_for(self, state: dict) -> list[str]:
        return [] if state["finished"] else [state["players"][state["turn"]]]

    def _apply(self, state, player, action, events) -> None:
        pos = position(state, player)
        resolved = rules.check(pos, action)  # raises IllegalMove before any change
        getattr(self, "_do_" + action["type"])(state, player, action, resolved, events)
        if action["type"] in FREE_STEPS and not state["finished"]:
            self._settle(state, events)
        self._log(state, events)

    def legal_actions(self, state: dict, player: str) -> list[dict]:
        if state["finished"] or player not in self.waiting_for(state):
            return []
        return legal_actions(position(state, player))

    def view(self, state, player):
        return view(state, player)

    def coach_view(self, state):
        return coach_view(state)

    def summary(self, state):
        return summary(state)

    def describe_event(self, event):
        return describe_event(event)

    def scores(self, state):
        return dict(summary(state)["scores"])

    def analyse(self, state, player, action):
        return analyse(self, state, player, action)

    def selection(self, view_or_position: dict, card, picked) -> dict:
        """The UI's incremental selection helper (see selection.py); works on a view."""
        return selection(view_or_position, card, picked)

    # ----- moves ---------------------------------------------------------------------------
    def _do_wild(self, state, player, action, resolved, events):
        index, after = resolved
        item = state["centre"][index]
        before = item["value"]
        state["hands"][player].remove(action["card"])
        item["cards"].append(action["card"])
        item["value"] = after
        events.append({"type": "wild", "player": player, "card": action["card"],
                       "before": before, "after": after, "item": list(item["cards"])})

    def _do_discard_wild(self, state, player, action, resolved, events):
        state["hands"][player].remove(action["card"])
        state["out"].append(action["card"])
        events.append({"type": "discard_wild", "player": player, "card": action["card"]})

    def _do_challenge(self, state, player, action, index, events):
        item = state["centre"][index]
        builder, claim = item["builder"], item["claim"]
        honest = any(is_number(c) and value_of(c) == claim for c in state["hands"][builder])
        item["challenged"] = True
        event = {"type": "challenge", "player": player, "builder": builder,
                 "build": list(item["cards"]), "value": claim, "bluff": not honest}
        if honest:
            state["points"][player] += CHALLENGE_WRONG
            event["penalty"] = {"player": player, "points": CHALLENGE_WRONG}
        else:
            state["points"][builder] += CHALLENGE_BLUFF
            event["penalty"] = {"player": builder, "points": CHALLENGE_BLUFF}
            # Undo: the joined items come back as they were, then the builder's card as a
            # discard; wild cards played on the build since then leave the game.
            state["centre"].pop(index)
            kept = sum(len(part["cards"]) for part in item["parts"]) + 1
            state["out"].extend(item["cards"][kept:])
            state["centre"].extend(item["parts"])
            state["centre"].append(single(item["card"]))
        events.append(event)

    def _do_take(self, state, player, action, groups, events):
        card = action["card"]
        centre = state["centre"]
        taken = {i for group in groups for i in group}
        clears = len(taken) == len(centre)
        facts = [[item_facts(centre[i]["cards"], centre[i]["build"]) for i in g] for g in groups]
        breakdown = take_breakdown(card, facts, clears)
        won = [card] + [c for i in sorted(taken) for c in centre[i]["cards"]]
        event = {"type": "take", "player": player, "card": card, "value": value_of(card),
                 "groups": [[list(centre[i]["cards"]) for i in g] for g in groups],
                 "values": [[centre[i]["value"] for i in g] for g in groups],
                 "cards": len(won), "cleared": clears}
        if state["options"]["scoring"]:
            state["points"][player] += breakdown["total"]
            event["points"] = breakdown["total"]
            event["breakdown"] = {k: v for k, v in breakdown.items() if k != "groups"}
        state["hands"][player].remove(card)
        state["won"][player].extend(won)
        state["centre"] = [item for i, item in enumerate(centre) if i not in taken]
        state["last_taker"] = player
        events.append(event)
        self._after_take(state, player, events)

    def _after_take(self, state, player, events):
        self._end_turn(state, events)

    def _do_build(self, state, player, action, resolved, events):
        indices, total = resolved
        card = action["card"]
        centre = state["centre"]
        parts = [centre[i] for i in sorted(indices)]
        build = {"cards": [c for part in parts for c in part["cards"]] + [card], "value": total,
                 "build": True, "builder": player, "parts": parts, "card": card,
                 "claim": total, "turn": state["turn_no"], "challenged": False}
        state["hands"][player].remove(card)
        state["centre"] = [item for i, item in enumerate(centre) if i not in set(indices)]
        state["centre"].append(build)
        events.append({"type": "build", "player": player, "card": card, "value": total,
                       "with": [list(p["cards"]) for p in parts],
                       "values": [p["value"] for p in parts]})
        self._end_turn(state, events)

    def _do_discard(self, state, player, action, resolved, events):
        state["hands"][player].remove(action["card"])
        state["centre"].append(single(action["card"]))
        events.append({"type": "discard", "player": player, "card": action["card"]})
        self._end_turn(state, events)

    # ----- the automatic parts of a turn -------------------------------------------------------
    def _current(self, state) -> str:
        return state["players"][state["turn"]]

    def _start_turn(self, state, player, events) -> None:
        state["turn"] = state["players"].index(player)
        state["turn_no"] += 1
        state["previous_turn"][player] = state["last_turn"][player]
        state["last_turn"][player] = state["turn_no"]
        events.append({"type": "turn", "player": player, "final": state["final"] is not None})
        self._settle(state, events)

    def _settle(self, state, events) -> None:
        """After a turn starts or a free step: end the turn if nothing is left to decide."""
        player = self._current(state)
        hand = state["hands"][player]
        if state["final"] is not None:
            if not any_take(search_items(state["centre"]), hand):
                events.append({"type": "skip", "player": player, "reason": "no_take"})
                self._end_turn(state, events)
        elif not hand:
            self._end_turn(state, events)

    def _end_turn(self, state, events) -> None:
        player = self._current(state)
        if state["final"] is None:
            drawn = refill_hand(state, player)
            if drawn:
                events.append({"type": "draw", "player": player, "count": drawn})
            if not state["hands"][player]:
                players = state["players"]
                i = players.index(player)
                queue = players[i + 1:] + players[:i]
                state["final"] = {"ender": player, "queue": queue}
                events.append({"type": "final_round", "player": player, "players": list(queue)})
        if state["final"] is not None:
            queue = state["final"]["queue"]
            if not queue:
                self._finish(state, events)
                return
            nxt = queue.pop(0)
        else:
            nxt = state["players"][(state["turn"] + 1) % len(state["players"])]
        self._start_turn(state, nxt, events)

    def _finish(self, state, events) -> None:
        scoring = state["options"]["scoring"]
        taker = state["last_taker"]
        leftovers = [c for item in state["centre"] for c in item["cards"]]
        end = {"centre_to": None, "centre_cards": 0, "hand_cards": {}, "most_cards": []}
        if taker is not None and leftovers:
            state["won"][taker].extend(leftovers)
            state["centre"] = []
            end["centre_to"], end["centre_cards"] = taker, len(leftovers)
            if scoring:
                state["points"][taker] += leftover_points(leftovers)
        for p in state["players"]:
            hand = state["hands"][p]
            end["hand_cards"][p] = len(hand)
            if scoring:
                state["points"][p] -= leftover_points(hand)
        piles = pile_counts(state, finished=True)
        most = max(piles.values())
        end["most_cards"] = [p for p in state["players"] if piles[p] == most]
        if scoring:
            for p in end["most_cards"]:
                state["points"][p] += MOST_CARDS_BONUS
        self._close(state, end, events)

    def _close(self, state, end, events) -> None:
        state["finished"] = True
        state["end"] = end
        ranking = state["points"] if state["options"]["scoring"] else pile_counts(state, True)
        best = max(ranking.values())
        state["winners"] = [p for p in state["players"] if ranking[p] == best]
        events.append({"type": "game_over", "winners": list(state["winners"]),
                       "piles": pile_counts(state, True), "scores": summary(state)["scores"],
                       **end})

    def _log(self, state, events) -> None:
        state["log"] = (state["log"] + [dict(e) for e in events])[-LOG_SIZE:]

