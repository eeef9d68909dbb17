"""The engine base class: one contract for every game.

A state is a plain dict (JSON-round-trippable). Actions are dicts with a "type". Moves are
reducers: `apply(state, player, action)` validates, copies and returns
`(new_state, events)`; the input state is never modified.

Validation order is the spec's error precedence: `bad_action` (schema), `unknown_player`,
`game_over`, `not_your_turn`, then the engine's own `_apply` checks `not_in_hand` and its
game codes. Subclasses declare `ACTIONS` (type -> {key: predicate}) and implement the
underscore hooks.
"""

from __future__ import annotations

import pickle
from typing import Any, Callable

from .errors import BadScenario, IllegalMove
from .validate import is_int
from .words import _


def copy_data(value: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists, tuples, strings, numbers) that shares
    nothing mutable with the original. pickle is the fastest faithful deep copy of such data
    in CPython: several times faster than `copy.deepcopy`, which views and moves run often."""
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))

Predicate = Callable[[Any], bool]

# The refusals every engine may answer with, in precedence order (docs/engine.md, "The replay
# command").
SHARED_ERROR_CODES = frozenset({"bad_action", "unknown_player", "game_over", "not_your_turn", "not_in_hand"})


class Engine:
    key: str = ""
    title: str = ""
    min_players: int = 1
    max_players: int = 1
    # Option key -> (default, predicate). Defaults may be callables of the player count.
    OPTIONS: dict[str, tuple[Any, Predicate]] = {}
    SETUP_KEYS: frozenset[str] = frozenset()
    # Every refusal code is one of the shared ones (`SHARED_ERROR_CODES`) or one the game
    # declares here; the contract suite (tests/contract/) checks that nothing else appears.
    ERROR_CODES: frozenset[str] = frozenset()
    ACTIONS: dict[str, dict[str, Predicate]] = {}
    # House options (list-valued, default None): left out of the state when not given, so a
    # game without them is dealt and stored exactly as before they existed.
    HOUSE_OPTIONS: tuple[str, ...] = ()

    # ----- set-up -------------------------------------------------------------------
    def new_game(
        self,
        players: list[str],
        options: dict | None = None,
        seed: int = 0,
        setup: dict | None = None,
    ) -> dict:
        """Check players/options/setup and return the first state (raises BadScenario)."""
        if type(players) is not list or not all(type(p) is str and p for p in players):
            raise BadScenario("Players must be a list of non-empty names.")
        if len(set(players)) != len(players):
            raise BadScenario("Every player needs a different name.")
        if not self.min_players <= len(players) <= self.max_players:
            raise BadScenario(self._player_count_message())
        if not is_int(seed):
            raise BadScenario("The seed must be a whole number.")
        setup = {} if setup is None else setup
        if type(setup) is not dict:
            raise BadScenario("The setup must be an object.")
        unknown = set(setup) - self.SETUP_KEYS
        if unknown:
            raise BadScenario(f"Unknown setup key: {sorted(unknown)[0]}.")
        resolved = self.resolve_options(options, len(players))
        return self._new_game(list(players), resolved, seed, setup)

    def resolve_options(self, options: dict | None, player_count: int) -> dict:
        options = {} if options is None else options
        if type(options) is not dict:
            raise BadScenario("Options must be an object.")
        unknown = set(options) - set(self.OPTIONS)
        if unknown:
            raise BadScenario(f"Unknown option: {sorted(unknown)[0]}.")
        resolved = {}
        for name, (default, check) in self.OPTIONS.items():
            if name in options:
                value = options[name]
                if not check(value):
                    raise BadScenario(f"The option {name} has a value that is not allowed.")
            else:
                value = default(player_count) if callable(default) else default
            resolved[name] = value
        for name in self.HOUSE_OPTIONS:
            if resolved[name] is None:
                del resolved[name]
            elif type(resolved[name]) is list:  # a copy: the caller's list is never shared
                resolved[name] = list(resolved[name])
        self._check_options(resolved)
        return resolved

    def _player_count_message(self) -> str:
        if self.min_players == self.max_players:
            return f"{self.title or self.key} needs exactly {self.min_players} players."
        return f"{self.title or self.key} needs {self.min_players} to {self.max_players} players."

    # ----- moves --------------------------------------------------------------------
    def apply(self, state: dict, player: str, action: Any) -> tuple[dict, list[dict]]:
        """Apply one action; return (new state, events) or raise IllegalMove."""
        self.check_shape(action)
        if player not in state["players"]:
            raise IllegalMove("unknown_player", _("%(player)s is not playing in this game.", player=player))
        if state.get("finished"):
            raise IllegalMove("game_over", _("The game is over, so no more moves can be made."))
        if player not in self.waiting_for(state):
            raise IllegalMove("not_your_turn", _("It is not your turn yet."))
        new_state = self.copy_state(state)
        events: list[dict] = []
        self._apply(new_state, player, action, events)
        return new_state, events

    def check_shape(self, action: Any) -> None:
        """Raise `bad_action` unless the action matches one of the declared schemas."""
        if type(action) is not dict:
            raise IllegalMove("bad_action", _("That move is not written the right way."))
        kind = action.get("type")
        schema = self.ACTIONS.get(kind) if type(kind) is str else None
        if schema is None:
            raise IllegalMove("bad_action", _("That is not a kind of move in this game."))
        keys = set(action) - {"type", "player"}
        if "answer" in keys:
            if not is_int(action["answer"]):
                raise IllegalMove("bad_action", _("Your answer must be a whole number."))
            keys.discard("answer")
        if keys != set(schema):
            raise IllegalMove("bad_action", _("That move is missing something or has something extra."))
        for name, check in schema.items():
            if not check(action[name]):
                # The field's name is the move's code, not a word a child knows: not said.
                raise IllegalMove("bad_action", _("Part of that move is not allowed."))

    def error_code(self, state: dict, player: str, action: Any) -> str | None:
        """The code `apply` would refuse the action with, or None when it is legal.
        (The analysis of rejected attempts needs it; nothing is changed.)"""
        try:
            self.apply(state, player, action)
        except IllegalMove as exc:
            return exc.code
        return None

    def is_legal(self, state: dict, player: str, action: dict) -> bool:
        return self.error_code(state, player, action) is None

    def base_state(self, players: list[str], options: dict, seed: int) -> dict:
        """The keys every game's state starts with."""
        return {"game": self.key, "players": players, "options": options, "seed": seed,
                "shuffles": 0, "finished": False, "winners": []}

    @staticmethod
    def copy_state(state: dict) -> dict:
        return copy_data(state)

    # ----- hooks every game implements -------------------------------------------------
    def _new_game(self, players: list[str], options: dict, seed: int, setup: dict) -> dict:
        raise NotImplementedError

    def _check_options(self, options: dict) -> None:
        """Cross-option checks; raise BadScenario."""

    def _apply(self, state: dict, player: str, action: dict, events: list[dict]) -> None:
        """Mutate the (already copied) state in place, append events, or raise IllegalMove."""
        raise NotImplementedError

    def waiting_for(self, state: dict) -> list[str]:
        raise NotImplementedError

    def legal_actions(self, state: dict, player: str) -> list[dict]:
        raise NotImplementedError

    def view(self, state: dict, player: str | None) -> dict:
        """What `player` may see. `player=None` is a spectator who sees no hidden card."""
        raise NotImplementedError

    def coach_view(self, state: dict) -> dict:
        """A teacher's read-only view: every hand visible, deck order still hidden."""
        raise NotImplementedError

    def summary(self, state: dict) -> dict:
        raise NotImplementedError

    def analyse(self, state: dict, player: str, action: dict) -> dict:
        """Facts for skills.md about one decision, computed on the state before it."""
        raise NotImplementedError

    def describe_event(self, event: dict) -> str:
        """One plain sentence for an event, e.g. "Ben played ÷: 12 ÷ 4 = 3 points for Ann"."""
        raise NotImplementedError

    def scores(self, state: dict) -> dict[str, int]:
        """Points per player for benchmarks and results screens."""
        return dict(self.summary(state).get("scores", {}))
