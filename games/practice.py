""""Practise this": from a skill measure (and the detail a report shows, e.g. the fact 7x8) to
a focused game, in the words a teacher reads.

Each game declares its own hooks (`GameSkills`, in games/engine/<game>/skills.py), pure:
`practice` (measure -> the focus house options of docs/rules-*.md), `focus_words` (what its
options do), `focus_scope` (what a focus on one of its measures practises) and `focus_preset`
(the preset a focus stands for). This module finds the game of a measure and asks its hooks;
it knows no game's options. An assignment stores the result (`Focus.as_json`) in
`Assignment.focus`: what was practised, so that the reports can show the skill before the
assignment and during it (reports/selectors.py `focus_outcomes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext, ngettext

from games import registry
from games.engine import BadScenario
from games.engine.skills import GameSkills, Measure
from games.words import say


def _measure(measure_id: str) -> Measure | None:
    return next((m for m in registry.measures() if m.id == measure_id), None)


def practice_game(measure_id: str) -> str | None:
    """The game a measure is practised in (its own game), or None: a measure of every game
    (rule errors, thinking time) or one whose game has no practice hook."""
    m = _measure(measure_id)
    if m is None or not m.game:
        return None
    spec = registry.get(m.game)
    if spec is None or spec.skills is None or spec.skills.practice is None or measure_id in spec.skills.no_focus:
        return None
    return m.game


def why_no_focus(measure_id: str) -> str:
    """Why a measure has no focused game, in a teacher's words ("" when it has one)."""
    if practice_game(measure_id) is not None and focus_for(measure_id) is not None:
        return ""
    m = _measure(measure_id)
    if m is None or not m.game:
        if m is None:
            return gettext("This skill comes up in every game, as often in one game as in another, so no "
                           "game can give it more chances. Set an ordinary assignment instead.")
        return gettext("“%(skill)s” comes up in every game, as often in one game as in another, so no "
                       "game can give it more chances. Set an ordinary assignment instead.") % {
                           "skill": say(m.title)}
    spec = registry.get(m.game)
    if spec is not None and spec.skills is not None and measure_id in spec.skills.no_focus:
        return spec.skills.no_focus[measure_id]
    return gettext("%(game)s has no practice version for “%(skill)s” yet. Set an ordinary assignment "
                   "of it instead.") % {"game": spec.name if spec else gettext("This game"),
                                        "skill": say(m.title)}


def _skills(game: str) -> GameSkills | None:
    spec = registry.get(game)
    return spec.skills if spec is not None else None


def _stands_for(game: str, focus_options: dict) -> str | None:
    """The preset the focus options stand for (`GameSkills.focus_preset`), or None."""
    skills = _skills(game)
    return skills.focus_preset(focus_options) if skills is not None and skills.focus_preset else None


@dataclass(frozen=True)
class Focus:
    """What a "Practise this" assignment practises and how its games are dealt."""

    game: str
    measure: str
    detail: str                 # the report's detail ("7x8", "÷"), "" for the whole measure
    label: str                  # "7 × 8", "Exact division", "Mental maths with −"
    options: dict = field(default_factory=dict)   # the focus engine options ({}: plain game)
    # The evidence details the before/after counts ("7x8", "8x7"); () for every row.
    details: tuple[str, ...] = ()

    def as_json(self) -> dict:
        return {"game": self.game, "measure": self.measure, "detail": self.detail,
                "label": self.label, "options": dict(self.options), "details": list(self.details)}

    @property
    def words(self) -> list[str]:
        return options_words(self.game, self.options)


def from_json(data) -> Focus | None:
    """A stored or posted focus, or None when it is not one (anything may come from a form)."""
    if not isinstance(data, dict) or not data.get("measure") or not data.get("game"):
        return None
    options = data.get("options") or {}
    details = data.get("details") or []
    if not isinstance(options, dict) or not isinstance(details, list):
        return None
    focus = Focus(game=str(data["game"]), measure=str(data["measure"]),
                  detail=str(data.get("detail") or ""), label=str(data.get("label") or ""),
                  options=options, details=tuple(str(d) for d in details))
    # The label is kept in English (the words of whoever set it): worded again from what the
    # focus keeps, it is said in the reader's language wherever it is shown, when those words
    # are the ones kept (the practice cards unticked keep the label of the focus they came from).
    m, skills = _measure(focus.measure), _skills(focus.game)
    if m is not None and skills is not None:
        try:
            label = skills.scope_of(m, focus.detail, focus.options)[0]
        except (KeyError, TypeError, ValueError):  # options the game no longer reads that way
            return focus
        if str.__str__(label) == focus.label:
            return Focus(focus.game, focus.measure, focus.detail, label, focus.options, focus.details)
    return focus


def label_of(stored) -> str:
    """What a stored focus (`Focus.as_json`) practises, said in the reader's language: its
    label is stored in English (the words of whoever set it), so it is worded again from the
    measure, detail and options it keeps; the stored label when the game no longer knows them."""
    focus = from_json(stored)
    return str(focus.label) if focus is not None else ""


def focus_for(measure_id: str, detail: str = "", weakest: Sequence[str] = ()) -> Focus | None:
    """The focused game for a measure (and detail), `weakest` the student's (or the group's)
    weakest details of it, worst first (used when the whole measure is practised: the weakest
    times-table facts or operations). None when the measure cannot be practised here."""
    game = practice_game(measure_id)
    if game is None:
        return None
    spec = registry.spec_for(game)
    options = spec.skills.practice(measure_id, detail, tuple(weakest))
    if options is None:
        return None
    label, details = spec.skills.scope_of(_measure(measure_id), detail, options)
    return Focus(game=game, measure=measure_id, detail=detail, label=label, options=dict(options),
                 details=tuple(details))


def merged_options(game: str, preset_options: dict, focus_options: dict) -> dict:
    """A focused assignment's engine options: the level's options with the focus on top; or
    the focus alone when it stands for a preset itself (`GameSkills.focus_preset`: it sets
    the whole pack, so the chosen level's options are left out)."""
    if _stands_for(game, focus_options) is not None:
        return dict(focus_options)
    return {**preset_options, **focus_options}


def options_accepted(game: str, options: dict, player_counts) -> str:
    """"" when the engine accepts `options` for every count in `player_counts`; otherwise a
    sentence for the teacher."""
    spec = registry.get(game)
    if spec is None:
        return gettext("Choose one of the games in the list.")
    for count in player_counts:
        try:
            spec.engine.resolve_options(dict(options), count)
            # A deal too: ten cards each of The Multiplication Game's pack fit four players.
            spec.engine.new_game([f"Player {i + 1}" for i in range(count)], dict(options), 1)
        except BadScenario:
            return ngettext("This practice can't be played with %(n)s player. Choose another number of "
                            "computer players, or untick the practice.",
                            "This practice can't be played with %(n)s players. Choose another number of "
                            "computer players, or untick the practice.", count) % {"n": count}
    return ""


def options_words(game: str, options: dict) -> list[str]:
    """What a game's focus options do, one plain sentence each (for the assignment form and
    pages), in the game's own words (`GameSkills.focus_words`)."""
    skills = _skills(game)
    words = skills.focus_words(options) if skills is not None and skills.focus_words else []
    return [say(w) for w in words] or [gettext("The usual game: this skill comes up in every game.")]


def preset_for(game: str, focus_options: dict) -> str | None:
    """The level a focused assignment is prefilled with: the preset the focus stands for
    (`GameSkills.focus_preset`), when the game has it; else None (the game's first level)."""
    key = _stands_for(game, focus_options)
    spec = registry.get(game)
    return key if key is not None and spec.preset(key) is not None else None


__all__ = ["Focus", "focus_for", "from_json", "merged_options", "options_accepted",
           "label_of", "options_words", "practice_game", "preset_for", "why_no_focus"]
