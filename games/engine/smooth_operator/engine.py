"""Smooth Operator (`smooth_operator`): the state, the moves and the automatic turn flow.

State (plain JSON):
    game, players, options {"target"; "focus_operators", "low_range", "high_range" only when
    given}, seed, shuffles, finished, winners,
    order (play order), order_draws (the public low-deck draws that set it, [] if fixed),
    hands {name: [codes]}, decks {"high", "low", "operator": [cards, top first]} (hidden),
    discards {"high", "low", "operator": [cards, newest last]} (face up, public),
    high, low (the face-up pair or None), scores (the current turn's points included),
    active, phase ("respond" | "special" | "over"), pending (responders still to answer,
    the first one is being waited for), turn_number, turn_awards {responder: award},
    turn_points, doubles, free_choice (last sign named this turn or None), free_turns (owed),
    responses [{"player", "card", "discard", "award"}] and specials [{"card", "sign"?}] of this turn,
    last_turn (a public record of the previous turn, for the table's history line).

Every decision is an action; the rest (flip, automatic 25-point penalties, draws,
reshuffles, turn ends without specials, free turns, the end of the game) runs in `_advance`.
"""

from __future__ import annotations

from ..core import Engine
from ..errors import IllegalMove
from ..rng import shuffled
from ..validate import is_int, one_of
from ..words import _
from . import rules
from .analyse import analyse
from .setup import new_state
from .view import coach_view, describe_event, player_view, summary, waiting_for

# Scores grow by at least 1 per responder per turn, so a game always ends; this only guards
# against a bug turning the automatic loop into an endless one.
MAX_AUTOMATIC_STEPS = 1_000_000


def _is_target(value) -> bool:
    return is_int(value) and 10 <= value <= 5000


class SmoothOperatorEngine(Engine):
    key = "smooth_operator"
    # The game's own refusal codes (docs/rules-smooth-operator.md), beside the shared ones.
    ERROR_CODES = frozenset({'bad_sign', 'must_discard_special', 'not_stuck', 'special_as_response', 'uneven_division'})
    title = "Smooth Operator"
    min_players = 2
    max_players = 4
    OPTIONS = {
        "target": (500, _is_target),
        # House focus options (docs/rules-smooth-operator.md), off by default.
        "focus_operators": (None, rules.is_focus_operators),
        "low_range": (None, rules.range_check(1, 10)),
        "high_range": (None, rules.range_check(11, 20)),
    }
    # Options that are off unless given: left out of the resolved options (and so out of the
    # state) when not given, so that a game without them is exactly what it always was.
    HOUSE_OPTIONS = ("focus_operators", "low_range", "high_range")
    SETUP_KEYS = frozenset({"order", "hands", "high_deck", "low_deck", "operator_deck"})
    ACTIONS = {
        "play": {"card": one_of(*rules.OPERATOR_CODES)},
        "penalty": {"discard": one_of(*rules.OPERATOR_CODES)},
        # `free_choice` also needs a "sign": see check_shape.
        "special": {"card": one_of(*rules.SPECIALS)},
        "end_turn": {},
    }

    # ----- set-up -------------------------------------------------------------------
    def _new_game(self, players, options, seed, setup):
        state, to_deal = new_state(self.key, players, options, seed, setup)
        events: list[dict] = []
        for _card in range(rules.HAND_SIZE):  # one card at a time, in play order
            for player in to_deal:
                self._draw_operator(state, player, events)
        self._start_turn(state, events, free=False)
        self._advance(state, events)
        return state

    # ----- shape ----------------------------------------------------------------------
    def check_shape(self, action) -> None:
        """The base schema check, plus: a `special` carries "sign" exactly when it is
        `free_choice`. A sign that is a string but no sign is `bad_sign` (a game code,
        checked in `_apply` after `not_in_hand`)."""
        if type(action) is dict and action.get("type") == "special" and "card" in action:
            wants_sign = type(action["card"]) is str and action["card"] == "free_choice"
            if wants_sign != ("sign" in action):
                raise IllegalMove("bad_action", _("Free Choice needs a sign, and only Free Choice has one."))
            if wants_sign:
                if type(action["sign"]) is not str:
                    raise IllegalMove("bad_action", _("The sign must be one of + − × ÷."))
                action = {k: v for k, v in action.items() if k != "sign"}
        super().check_shape(action)

    @staticmethod
    def copy_state(state: dict) -> dict:
        """A hand-written deep copy, several times faster than pickle for this layout.

        Parts the engine only ever replaces and never changes in place (players, options,
        order, winners, order_draws, last_turn and the entries of responses/specials) are
        shared: the old state still never changes when the new one moves on."""
        new = dict(state)
        new["hands"] = {p: h[:] for p, h in state["hands"].items()}
        decks = state["decks"]
        new["decks"] = {"high": decks["high"][:], "low": decks["low"][:],
                        "operator": decks["operator"][:]}
        discards = state["discards"]
        new["discards"] = {"high": discards["high"][:], "low": discards["low"][:],
                           "operator": discards["operator"][:]}
        new["scores"] = state["scores"].copy()
        new["pending"] = state["pending"][:]
        new["turn_awards"] = state["turn_awards"].copy()
        new["responses"] = state["responses"][:]
        new["specials"] = state["specials"][:]
        return new

    # ----- moves --------------------------------------------------------------------
    def waiting_for(self, state: dict) -> list[str]:
        return waiting_for(state)

    def decision(self, state: dict, player) -> str | None:
        """The kind of decision `player` faces now (rules.RESPONSE/PENALTY/SPECIALS_PHASE)."""
        pending = state["pending"]
        hand = state["hands"].get(player) if type(player) is str else None
        return rules.decision_kind(state["phase"], player if hand is not None else None,
                                   state["active"], pending[0] if pending else None,
                                   hand, state["high"], state["low"])

    def legal_actions(self, state: dict, player: str) -> list[dict]:
        kind = self.decision(state, player)
        if kind is None:
            return []
        return rules.legal_moves(kind, state["hands"][player], state["high"], state["low"])

    def _apply(self, state: dict, player: str, action: dict, events: list[dict]) -> None:
        # The base class has checked that `player` is awaited: the responder while
        # responding, the active player in the specials phase.
        kind = action["type"]
        responding = state["phase"] == "respond"
        if kind in ("play", "penalty") and not responding:
            raise IllegalMove("not_your_turn",
                              _("It is your turn, so the others give you points: wait for them."))
        if kind in ("special", "end_turn") and responding:
            raise IllegalMove("not_your_turn",
                              _("Only the player whose turn it is plays special cards, "
                                "after everyone has answered."))
        hand = state["hands"][player]
        high, low = state["high"], state["low"]
        if kind == "play":
            card = action["card"]
            self._check_held(hand, card)
            if card in rules.SPECIAL_SET:
                raise IllegalMove("special_as_response",
                                  _("%(card)s is a special card: answer with + − × or ÷.",
                                    card=rules.CARD_NAME[card]))
            award = rules.result(card, high, low)
            if award is None:
                raise IllegalMove("uneven_division",
                                  _("%(high)s ÷ %(low)s does not divide evenly, so you can't play ÷ here.",
                                    high=high, low=low))
            self._respond(state, player, card, award, events)
        elif kind == "penalty":
            card = action["discard"]
            self._check_held(hand, card)
            if rules.has_legal_play(hand, high, low):
                raise IllegalMove("not_stuck", _("You can still play an operator card, so you must play one."))
            if card not in rules.SPECIAL_SET:
                raise IllegalMove("must_discard_special",
                                  _("When you are stuck you give up a special card, not %(card)s.",
                                    card=rules.CARD_NAME[card]))
            self._respond(state, player, card, rules.STUCK_PENALTY, events)
        elif kind == "special":
            card = action["card"]
            self._check_held(hand, card)
            sign = action.get("sign")
            if card == "free_choice":
                if sign not in rules.ARITHMETIC:
                    raise IllegalMove("bad_sign", _("Name one of the signs + − × or ÷."))
                if rules.result(sign, high, low) is None:
                    raise IllegalMove("uneven_division",
                                      _("%(high)s ÷ %(low)s does not divide evenly, so you can't choose ÷ here.",
                                        high=high, low=low))
            self._play_special(state, player, card, sign, events)
        else:
            self._end_turn(state, events)
        self._advance(state, events)

    @staticmethod
    def _check_held(hand: list[str], card: str) -> None:
        if card not in hand:
            raise IllegalMove("not_in_hand", _("You don't have a %(card)s card.", card=rules.CARD_NAME[card]))

    # ----- the turn ---------------------------------------------------------------------
    def _draw(self, state: dict, deck: str, events: list[dict]):
        """Top card of a deck; an empty deck is first rebuilt from its shuffled discard pile.
        None when both are empty (only possible with a short deck fixed by a setup)."""
        cards = state["decks"][deck]
        if not cards:
            pile = state["discards"][deck]
            if not pile:
                return None
            cards = state["decks"][deck] = shuffled(state, pile)
            state["discards"][deck] = []
            events.append({"type": "reshuffle", "deck": deck, "cards": len(cards)})
        return cards.pop(0)

    def _draw_operator(self, state: dict, player: str, events: list[dict]) -> None:
        card = self._draw(state, "operator", events)
        if card is None:
            events.append({"type": "no_card", "player": player})
        else:
            state["hands"][player].append(card)

    def _start_turn(self, state: dict, events: list[dict], free: bool) -> None:
        discards = state["discards"]
        if state["high"] is not None:
            discards["high"].append(state["high"])
            discards["low"].append(state["low"])
        # A setup deck is never empty and a flip discards before it draws: never None.
        state["high"] = self._draw(state, "high", events)
        state["low"] = self._draw(state, "low", events)
        state["turn_number"] += 1
        active = state["active"]
        state["phase"] = "respond"
        state["pending"] = rules.responders(state["order"], active)
        state["turn_awards"] = {}
        state["turn_points"] = 0
        state["doubles"] = 0
        state["free_choice"] = None
        state["responses"] = []
        state["specials"] = []
        events.append({"type": "flip", "player": active, "high": state["high"],
                       "low": state["low"], "turn": state["turn_number"], "free": free})

    def _recount(self, state: dict) -> None:
        """Turn points = sum of the awards doubled per `double`; the live score follows."""
        points = rules.turn_points(sum(state["turn_awards"].values()), state["doubles"])
        state["scores"][state["active"]] += points - state["turn_points"]
        state["turn_points"] = points

    def _respond(self, state: dict, player: str, card, award: int, events: list[dict]) -> None:
        """Award from one responder: a play (card), a penalty discard (card, 25) or an
        automatic stuck penalty (card None). A played or discarded card is replaced."""
        active = state["active"]
        state["turn_awards"][player] = award
        self._recount(state)
        state["pending"].pop(0)
        penalty = card is not None and card in rules.SPECIAL_SET
        played = None if penalty else card
        discarded = card if penalty else None
        state["responses"].append({"player": player, "card": played, "discard": discarded,
                                   "award": award})
        if card is None:
            events.append({"type": "stuck", "player": player, "active": active, "award": award})
            return
        state["hands"][player].remove(card)
        state["discards"]["operator"].append(card)
        if penalty:
            events.append({"type": "penalty", "player": player, "active": active,
                           "discard": card, "award": award})
        else:
            events.append({"type": "play", "player": player, "active": active, "card": card,
                           "high": state["high"], "low": state["low"], "award": award})
        self._draw_operator(state, player, events)

    def _play_special(self, state: dict, player: str, card: str, sign, events: list[dict]) -> None:
        state["hands"][player].remove(card)
        state["discards"]["operator"].append(card)
        event = {"type": "special", "player": player, "card": card}
        if card == "double":
            state["doubles"] += 1
            state["specials"].append({"card": card})
        elif card == "free_turn":
            state["free_turns"] += 1
            state["specials"].append({"card": card})
        else:
            value = rules.result(sign, state["high"], state["low"])
            awards = state["turn_awards"]
            for name in awards:
                awards[name] = value
            state["free_choice"] = sign
            state["specials"].append({"card": card, "sign": sign})
            event["sign"] = sign
            event["value"] = value
            event["high"], event["low"] = state["high"], state["low"]
        self._recount(state)
        event["points"] = state["turn_points"]
        events.append(event)
        self._draw_operator(state, player, events)

    def _end_turn(self, state: dict, events: list[dict]) -> None:
        active = state["active"]
        score = state["scores"][active]
        events.append({"type": "end_turn", "player": active, "points": state["turn_points"],
                       "score": score})
        state["last_turn"] = {
            "turn": state["turn_number"], "active": active, "high": state["high"],
            "low": state["low"], "responses": state["responses"], "specials": state["specials"],
            "turn_awards": dict(state["turn_awards"]), "turn_points": state["turn_points"],
        }
        if score >= state["options"]["target"]:
            state["finished"] = True
            state["winners"] = [active]
            state["phase"] = "over"
            state["pending"] = []
            events.append({"type": "game_over", "winners": [active], "score": score})
            return
        free = state["free_turns"] > 0
        if free:
            state["free_turns"] -= 1
        else:
            order = state["order"]
            state["active"] = order[(order.index(active) + 1) % len(order)]
        self._start_turn(state, events, free=free)

    def _advance(self, state: dict, events: list[dict]) -> None:
        """Run everything automatic until a decision is awaited or the game is over."""
        hands = state["hands"]
        for _step in range(MAX_AUTOMATIC_STEPS):
            phase = state["phase"]
            if phase == "respond":
                pending = state["pending"]
                if not pending:
                    state["phase"] = "special"
                    continue
                hand = hands[pending[0]]
                if rules.has_legal_play(hand, state["high"], state["low"]) or rules.has_special(hand):
                    return
                self._respond(state, pending[0], None, rules.STUCK_PENALTY, events)
            elif phase == "special":
                if rules.has_special(hands[state["active"]]):
                    return
                self._end_turn(state, events)
            else:
                return
        raise RuntimeError("Smooth Operator: the automatic turn flow did not settle.")

    # ----- reading a state -------------------------------------------------------------
    def view(self, state: dict, player) -> dict:
        return player_view(self, state, player)

    def coach_view(self, state: dict) -> dict:
        return coach_view(self, state)

    def summary(self, state: dict) -> dict:
        return summary(state)

    def analyse(self, state: dict, player: str, action: dict) -> dict:
        return analyse(self, state, player, action)

    def describe_event(self, event: dict) -> str:
        return describe_event(event)

    def scores(self, state: dict) -> dict[str, int]:
        return dict(state["scores"])
