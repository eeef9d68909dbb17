"""The Multiplication Game (`multiplication`): discard by naming table facts.

State (plain JSON):
    players, options {"free_cards", "hand_size", "turn_limit"; "focus_facts" and
    "focus_tables" only when given}, seed, shuffles, finished,
    winners, hands {name: [cards]}, deck [cards, top card LAST], discards [cards under the
    open card, oldest first], open {"card", "value", "multipliers"}, current (index of the
    player to move), turn (turns taken, skipped ones included), last_events [events of the
    last action; they never name a drawn card].
"""

from __future__ import annotations

from ..core import Engine
from ..errors import IllegalMove
from ..rng import shuffled
from ..validate import is_int, list_of
from ..words import _, listed
from . import rules
from .analyse import analyse_turn
from .setup import deal
from .view import coach_view, describe_event, player_view


def _in_range(low, high):
    return lambda value: is_int(value) and low <= value <= high


def _default_hand_size(player_count: int) -> int:
    return 7 if player_count <= 3 else 5


class MultiplicationEngine(Engine):
    key = "multiplication"
    # The game's own refusal codes (docs/rules-multiplication.md), beside the shared ones.
    ERROR_CODES = frozenset({'bad_declaration', 'no_common_multiplier'})
    title = "The Multiplication Game"
    min_players = 2
    max_players = 6
    OPTIONS = {
        "free_cards": (0, _in_range(0, 2)),
        "hand_size": (_default_hand_size, _in_range(3, 10)),
        "turn_limit": (400, _in_range(50, 2000)),
        # House focus options (docs/rules-multiplication.md), off by default: a pack weighted
        # toward chosen facts or tables.
        "focus_facts": (None, rules.is_focus_facts),
        "focus_tables": (None, rules.is_focus_tables),
    }
    # Options that are off unless given: left out of the resolved options (and so out of the
    # state) when not given, so that a game without them is exactly what it always was.
    HOUSE_OPTIONS = ("focus_facts", "focus_tables")
    SETUP_KEYS = frozenset({"hands", "open", "deck"})
    ACTIONS = {
        "discard": {"card": rules.is_card, "declare": list_of(is_int, 2, 2)},
        "draw": {},
    }

    # ----- set-up -------------------------------------------------------------------
    def _new_game(self, players, options, seed, setup):
        state = {
            **self.base_state(players, options, seed),
            "discards": [],
            "current": 0,
            "turn": 0,
            "last_events": [],
        }
        deal(state, setup)
        return state

    # ----- moves --------------------------------------------------------------------
    @staticmethod
    def copy_state(state):
        # A structural copy is four times faster than the generic pickle round trip, and
        # the copy is most of the cost of a move (selfplay needs 20,000 moves a second).
        # tests/engine/test_multiplication_props.py checks that it shares nothing.
        new = dict(state)
        new["players"] = list(state["players"])
        new["options"] = dict(state["options"])
        new["winners"] = list(state["winners"])
        new["hands"] = {p: list(h) for p, h in state["hands"].items()}
        new["deck"] = list(state["deck"])
        new["discards"] = list(state["discards"])
        new["open"] = dict(state["open"], multipliers=list(state["open"]["multipliers"]))
        new["last_events"] = [_copy_event(e) for e in state["last_events"]]
        return new

    def _apply(self, state, player, action, events):
        if action["type"] == "draw":
            self._draw(state, player, events)
            self._end_turn(state, events)
        else:
            self._discard(state, player, action["card"], action["declare"], events)
        state["last_events"] = events

    def _discard(self, state, player, card, declare, events):
        hand = state["hands"][player]
        if card not in hand:
            if card == rules.FREE:
                raise IllegalMove("not_in_hand", _("You don't have a free card in your hand."))
            raise IllegalMove("not_in_hand", _("You don't have the card %(card)s in your hand.", card=card))
        a, b = declare
        if not rules.check_declaration(card, declare):
            raise IllegalMove("bad_declaration", _bad_declaration_message(card, a, b))
        if a not in state["open"]["multipliers"] and b not in state["open"]["multipliers"]:
            multipliers = [str(m) for m in state["open"]["multipliers"]]
            shown = multipliers[0] if len(multipliers) == 1 else _("%(first)s or %(second)s",
                                                                 first=listed(multipliers[:-1]),
                                                                 second=multipliers[-1])
            raise IllegalMove("no_common_multiplier",
                              _("%(a)s × %(b)s shares no multiplier with the open card: use %(shown)s.",
                                a=a, b=b, shown=shown))
        hand.remove(card)
        value = a * b
        state["discards"].append(state["open"]["card"])
        state["open"] = {"card": card, "value": value, "multipliers": sorted({a, b})}
        square = rules.is_square(value)
        events.append({"type": "discard", "player": player, "card": card, "value": value,
                       "declare": [a, b], "square": square})
        state["turn"] += 1
        if not hand:
            self._finish(state, [player], "emptied_hand", events)
        elif self._turn_limit_reached(state, events):
            pass
        elif square:
            skipped = self._next(state)
            state["current"] = state["players"].index(skipped)
            events.append({"type": "skip", "player": skipped})
            self._draw(state, skipped, events)
            self._end_turn(state, events)
        else:
            self._pass_turn(state)

    def _draw(self, state, player, events):
        """Draw one card; an empty deck is first refilled from the discards (never the
        open card); with still nothing to draw the draw is skipped."""
        if not state["deck"] and state["discards"]:
            state["deck"] = shuffled(state, state["discards"])
            state["discards"] = []
            events.append({"type": "reshuffle", "deck_count": len(state["deck"])})
        if state["deck"]:
            state["hands"][player].append(state["deck"].pop())
            events.append({"type": "draw", "player": player, "drew": True})
        else:
            events.append({"type": "draw", "player": player, "drew": False})

    def _end_turn(self, state, events):
        state["turn"] += 1
        if not self._turn_limit_reached(state, events):
            self._pass_turn(state)

    def _turn_limit_reached(self, state, events) -> bool:
        if state["turn"] < state["options"]["turn_limit"]:
            return False
        fewest = min(len(h) for h in state["hands"].values())
        self._finish(state, [p for p in state["players"] if len(state["hands"][p]) == fewest],
                     "turn_limit", events)
        return True

    def _finish(self, state, winners, reason, events):
        state["finished"] = True
        state["winners"] = winners
        events.append({"type": "game_over", "reason": reason, "winners": list(winners),
                       "cards_left": {p: len(h) for p, h in state["hands"].items()}})

    def _next(self, state) -> str:
        players = state["players"]
        return players[(state["current"] + 1) % len(players)]

    def _pass_turn(self, state):
        state["current"] = (state["current"] + 1) % len(state["players"])

    # ----- reading the state ----------------------------------------------------------
    def waiting_for(self, state):
        return [] if state["finished"] else [state["players"][state["current"]]]

    def legal_actions(self, state, player):
        if player not in self.waiting_for(state):
            return []
        return rules.legal_actions(state["hands"][player],
                                   rules.mask_of(state["open"]["multipliers"]))

    def legal_actions_in_view(self, view):
        """The same generator on what the seated player sees (used by the bots)."""
        if not view["can_act"]:
            return []
        return rules.legal_actions(view["hand"], rules.mask_of(view["open"]["multipliers"]))

    def view(self, state, player):
        return player_view(state, player)

    def coach_view(self, state):
        return coach_view(state)

    def summary(self, state):
        return {
            "game": self.key,
            "finished": state["finished"],
            "winners": list(state["winners"]),
            "waiting_for": self.waiting_for(state),
            "hands": {p: rules.sorted_cards(h) for p, h in state["hands"].items()},
            "open": dict(state["open"], multipliers=list(state["open"]["multipliers"])),
            "cards_left": {p: len(h) for p, h in state["hands"].items()},
            "deck_count": len(state["deck"]),
            "turn": state["turn"],
        }

    def analyse(self, state, player, action):
        return analyse_turn(self, state, player, action)

    def describe_event(self, event):
        return describe_event(event)

    def scores(self, state):
        """Fewer cards is better, so the score is minus the cards still held."""
        return {p: -len(h) for p, h in state["hands"].items()}


def _copy_event(event: dict) -> dict:
    # Events are flat apart from one level of lists (declare, winners) or dicts (cards_left).
    return {k: v.copy() if isinstance(v, (list, dict)) else v for k, v in event.items()}


def _bad_declaration_message(card, a, b) -> str:
    if not (1 <= a <= 10 and 1 <= b <= 10):
        return _("Both multipliers must be whole numbers from 1 to 10.")
    return _("%(a)s × %(b)s is %(product)s, not %(card)s.", a=a, b=b, product=a * b, card=card)
