"""Higher Card: two players each hold a seeded hand; they take turns to play one card into the
trick, the higher card wins it and its winner leads the next; most tricks wins.

The smallest complete Engine (games/engine/core.py): a reducer over a JSON state whose views
hide the other hand and the deck.
"""

from games.engine import Engine, IllegalMove
from games.engine.rng import shuffled
from games.engine.validate import is_int
from games.engine.words import names_in_words
from games.engine.words import _  # English, found by makemessages: said in the reader's language

# The teaching presets an assignment can choose (`presets_from` in the adapter).
PRESETS = {"classic": {"label": _("Five cards each"), "options": {}},
           "short": {"label": _("Three cards each"), "options": {"cards": 3}}}

PACK = tuple(range(1, 21))
LONG_HAND = 10  # the cards each of a focused game (`long_hands`): the whole pack of 20 dealt


class HigherCardEngine(Engine):
    key, title, min_players, max_players = "toy", "Higher Card", 2, 2
    # `long_hands`, its focus option ("Practise this", skills.py): ten cards each, so ten
    # tricks in which to play the highest card.
    # A house option, so a game without it is dealt and stored as before it existed.
    OPTIONS = {"cards": (5, lambda n: is_int(n) and 1 <= n <= 10),
               "long_hands": (None, lambda v: type(v) is bool)}
    HOUSE_OPTIONS = ("long_hands",)
    ACTIONS = {"play": {"card": is_int}}
    ERROR_CODES = frozenset()  # the game's own codes: it has none beyond the shared ones

    def _new_game(self, players, options, seed, setup):
        state = {**self.base_state(players, options, seed), "turn": 0, "trick": {},
                 "tricks": {p: 0 for p in players}}
        deck = shuffled(state, PACK)
        n = LONG_HAND if options.get("long_hands") else options["cards"]
        state["hands"] = {p: sorted(deck[i * n:(i + 1) * n]) for i, p in enumerate(players)}
        state["deck"] = deck[2 * n:]
        return state

    def _apply(self, state, player, action, events):
        if action["card"] not in state["hands"][player]:
            raise IllegalMove("not_in_hand", _("You do not hold that card."))
        state["hands"][player].remove(action["card"])
        state["trick"][player] = action["card"]
        state["turn"] += 1
        events.append({"type": "play", "player": player, "card": action["card"]})
        if len(state["trick"]) == 2:
            winner = max(state["trick"], key=state["trick"].get)
            state["tricks"][winner] += 1
            state["trick"], state["leader"] = {}, winner
            events.append({"type": "trick", "player": winner})
            if not any(state["hands"].values()):
                best = max(state["tricks"].values())
                state["finished"] = True
                state["winners"] = [p for p in state["players"] if state["tricks"][p] == best]
                events.append({"type": "end", "winners": state["winners"]})

    def waiting_for(self, state):
        if state["finished"]:
            return []
        if state["trick"]:
            return [p for p in state["players"] if p not in state["trick"]]
        return [state.get("leader", state["players"][0])]

    def legal_actions(self, state, player):
        if player not in self.waiting_for(state):
            return []
        return [{"type": "play", "card": c} for c in state["hands"][player]]

    def view(self, state, player):
        public = {k: state[k] for k in ("players", "finished", "winners", "trick", "tricks")}
        hand = state["hands"].get(player)
        return {**self.copy_state(public), "me": player, "waiting_for": self.waiting_for(state),
                "hand": list(hand) if hand is not None else None, "deck_count": len(state["deck"]),
                "cards_left": {p: len(h) for p, h in state["hands"].items()},
                "scores": dict(state["tricks"])}

    def coach_view(self, state):
        return {**self.view(state, None), "hands": self.copy_state(state["hands"])}

    def summary(self, state):
        return {"game": self.key, **self.coach_view(state)}

    def analyse(self, state, player, action):
        hand = state["hands"].get(player) or []
        card = action.get("card") if type(action) is dict else None
        if not is_int(card) or card not in hand:
            return {"kind": "invalid"}
        return {"kind": "play", "played_highest": card == max(hand)}

    def describe_event(self, event):
        if event["type"] == "play":
            return _("%(player)s played %(card)s.", player=event["player"], card=event["card"])
        if event["type"] == "trick":
            return _("%(player)s won the trick.", player=event["player"])
        return _("Game over: %(winners)s won.", winners=names_in_words(event["winners"]))


ENGINE = HigherCardEngine()
