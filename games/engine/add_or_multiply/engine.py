"""Add or Multiply? (`add_or_multiply`): three players, five rounds of simultaneous choices.

State (plain JSON):
    players, options {"rounds"; "number_range" only when given}, seed, shuffles (always 0: nothing is shuffled), finished,
    winners, round (1-based), hands {name: {"numbers", "operations"}}, scores,
    pending {name: {"on", "operation"}} (choices made this round, secret until all three
    are in), history [{"round", "plays", "results"}] (revealed rounds, oldest first).

Chosen cards stay in the hand until the round resolves (docs/rules-add-or-multiply.md):
the hands are then public knowledge, and only `pending` is hidden.
"""

from __future__ import annotations

from ..core import Engine
from ..errors import IllegalMove
from ..validate import dict_of, is_int, is_str, one_of
from ..words import _
from . import rules
from .analyse import analyse_play
from .view import coach_view, describe_event, player_view


def _is_rounds(value) -> bool:
    return is_int(value) and 1 <= value <= rules.MAX_ROUNDS


class AddOrMultiplyEngine(Engine):
    key = "add_or_multiply"
    # The game's own refusal codes (docs/rules-add-or-multiply.md), beside the shared ones.
    ERROR_CODES = frozenset({'already_played', 'bad_target'})
    title = "Add or Multiply?"
    min_players = 3
    max_players = 3
    OPTIONS = {
        "rounds": (rules.MAX_ROUNDS, _is_rounds),
        # House focus option (docs/rules-add-or-multiply.md), off by default.
        "number_range": (None, rules.is_number_range),
    }
    SETUP_KEYS = frozenset()
    ACTIONS = {
        "play": {
            "on": dict_of(is_str, one_of(*rules.NUMBER_VALUES)),
            "operation": one_of(*rules.OPERATIONS),
        }
    }

    # ----- set-up -------------------------------------------------------------------
    def resolve_options(self, options, player_count):
        # Left out when not given, so that a game without it is exactly what it always was.
        resolved = super().resolve_options(options, player_count)
        if resolved["number_range"] is None:
            del resolved["number_range"]
        else:
            resolved["number_range"] = list(resolved["number_range"])
        return resolved

    def _new_game(self, players, options, seed, setup):
        return {
            **self.base_state(players, options, seed),
            "round": 1,
            "hands": {p: rules.starting_hand(options.get("number_range")) for p in players},
            "scores": {p: 0 for p in players},
            "pending": {},
            "history": [],
        }

    # ----- moves --------------------------------------------------------------------
    def apply(self, state, player, action):
        # Everybody plays in every round, so a player who already chose is not "out of
        # turn": the game's own code `already_played` answers, after the checks of the
        # play itself (not_in_hand, bad_target), in the spec's precedence.
        self.check_shape(action)
        if (player in state["players"] and not state["finished"]
                and player in state["pending"]):
            self._check_play(state, player, action)
            raise IllegalMove("already_played",
                              _("You already chose your cards this round: wait for the others."))
        return super().apply(state, player, action)

    def _check_play(self, state, player, action):
        on, operation = action["on"], action["operation"]
        if rules.missing_cards(state["hands"][player], on, operation):
            raise IllegalMove("not_in_hand", _("You don't have those cards left in your hand."))
        if sorted(on) != sorted(rules.opponents(state["players"], player)):
            raise IllegalMove("bad_target",
                              _("Play one number card on each of your two opponents."))

    def _apply(self, state, player, action, events):
        self._check_play(state, player, action)
        state["pending"][player] = {"on": dict(action["on"]), "operation": action["operation"]}
        events.append({"type": "chose", "player": player, "round": state["round"]})
        if len(state["pending"]) == len(state["players"]):
            self._resolve_round(state, events)

    def _resolve_round(self, state, events):
        players = state["players"]
        plays = {p: state["pending"][p] for p in players}
        results = rules.round_facts(players, plays)
        for p in players:
            state["hands"][p] = rules.remove_play(state["hands"][p], plays[p]["on"],
                                                  plays[p]["operation"])
            state["scores"][p] += results[p]["points"]
        state["history"].append({"round": state["round"], "plays": plays, "results": results})
        state["pending"] = {}
        events.append({"type": "round_resolved", "round": state["round"], "plays": plays,
                       "results": results, "scores": dict(state["scores"])})
        if state["round"] >= state["options"]["rounds"]:
            state["finished"] = True
            state["winners"] = rules.winners(state["scores"], players)
            events.append({"type": "game_over", "winners": list(state["winners"]),
                           "scores": dict(state["scores"])})
        else:
            state["round"] += 1

    # ----- reading the state ----------------------------------------------------------
    def waiting_for(self, state):
        if state["finished"]:
            return []
        return [p for p in state["players"] if p not in state["pending"]]

    def legal_actions(self, state, player):
        if player not in self.waiting_for(state):
            return []
        return rules.legal_plays(state["hands"][player],
                                 rules.opponents(state["players"], player))

    def legal_actions_in_view(self, view):
        """The same generator on what a seated player sees (used by the bots)."""
        if not view["can_act"]:
            return []
        return rules.legal_plays(view["hand"], rules.opponents(view["players"], view["me"]))

    def view(self, state, player):
        return player_view(state, player, self.waiting_for(state))

    def coach_view(self, state):
        return coach_view(state, self.waiting_for(state))

    def summary(self, state):
        last = state["history"][-1]["results"] if state["history"] else {}
        return {
            "game": self.key,
            "finished": state["finished"],
            "winners": list(state["winners"]),
            "waiting_for": self.waiting_for(state),
            "hands": {p: {"numbers": sorted(h["numbers"]), "operations": sorted(h["operations"])}
                      for p, h in state["hands"].items()},
            "round": state["round"],
            "scores": dict(state["scores"]),
            "submitted": [p for p in state["players"] if p in state["pending"]],
            "last_round": {p: {"on_me": list(f["on_me"]), "operation": f["operation"],
                               "points": f["points"]} for p, f in last.items()},
        }

    def analyse(self, state, player, action):
        return analyse_play(self, state, player, action)

    def describe_event(self, event):
        return describe_event(event)

    def scores(self, state):
        return dict(state["scores"])
