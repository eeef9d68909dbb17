""""Practise this": from a skill measure (and the detail a report shows, e.g. the fact 7x8) to
a practice game, in the words a teacher reads.

Each game declares its own hooks (`GameSkills`, in games/engine/<game>/skills.py), pure:
`practice` (measure -> the focus house options of docs/rules-*.md), `focus_words` (what its
options do), `focus_scope` (what a focus on one of its measures practises), `focus_preset`
(the preset a focus stands for) and `no_focus` (why no deal gives a measure more chances).
This module finds the game of a measure and asks its hooks; it knows no game's options.

Every measure with misses has a practice: its game's focused deal where one exists, else the
usual game (`Focus.plain`), said so in words; the rules are practised in the game they were
broken in (the game comes from the evidence: `focus_for(..., game=)`). The level is not chosen
here: a practice is played at the level the evidence came from (`level_of` reads it from a
game's options). An assignment stores the result (`Focus.as_json`) in `Assignment.focus`: what
was practised, so that the reports can show the skill before the assignment and during it
(reports/selectors/practice.py `focus_outcomes`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext, ngettext

from games import registry
from games.engine import BadScenario
from games.engine import words as engine_words
from games.engine.skills import GENERIC_MEASURES, RULES, GameSkills, Measure
from games.words import say


def _measure(measure_id: str) -> Measure | None:
    return next((m for m in (*registry.measures(), *GENERIC_MEASURES) if m.id == measure_id), None)


def practice_game(measure_id: str) -> str | None:
    """The game a measure is practised in when the evidence names none: its own game. None for
    a measure of every game (rule errors: practised in the game they were made in, which only
    the evidence says; thinking time) and for an unknown one."""
    m = _measure(measure_id)
    if m is None or not m.game:
        return None
    spec = registry.get(m.game)
    return m.game if spec is not None and spec.skills is not None else None


def can_practise(measure_id: str) -> bool:
    """Whether "Practise this" has a practice for a measure: every game's measure with misses
    (its focused deal, else the usual game) and the rules (in the game the evidence came
    from); never thinking time, which has no misses."""
    m = _measure(measure_id)
    return m is not None and m.has_misses and (practice_game(measure_id) is not None or m.id == RULES)


def why_no_focus(measure_id: str) -> str:
    """Why no deal of a game gives a measure more chances than the usual game, in a teacher's
    words ("" when its game deals a focus for it). Its practice is then the usual game
    (`Focus.plain`), and the assignment form says this sentence."""
    m = _measure(measure_id)
    if m is None:
        return gettext("This skill comes up in every game, as often in one game as in another, so no "
                       "game can give it more chances. Set an ordinary assignment instead.")
    if not m.game:
        return gettext("“%(skill)s” comes up in every game, as often in one game as in another, so no "
                       "game can give it more chances. Set an ordinary assignment instead.") % {
                           "skill": say(m.title)}
    skills = _skills(m.game)
    if skills is not None and measure_id in skills.no_focus:
        return say(skills.no_focus[measure_id])
    if skills is not None and skills.practice is not None and skills.practice(measure_id, "", ()) is not None:
        return ""
    spec = registry.get(m.game)
    return gettext("%(game)s has no practice version for “%(skill)s” yet. Set an ordinary assignment "
                   "of it instead.") % {"game": spec.name if spec else gettext("This game"),
                                        "skill": say(m.title)}


def plain_words(game: str, measure_id: str) -> str:
    """What a practice without a focused deal is, in one sentence for the assignment form: the
    usual game, and why no deal does better."""
    if measure_id == RULES:
        return gettext("Every move is a chance to play by the rules, and no deal gives more of them: "
                       "this practice is the usual game, at the level the rules were broken in. More "
                       "games give more chances.")
    skills = _skills(game)
    if skills is not None and measure_id in skills.no_focus:
        # Translators: follows a sentence saying why no deal of the cards gives a skill more chances.
        usual = gettext("This practice is the usual game, at the level it was played at: more games "
                        "give more chances.")
        return f"{say(skills.no_focus[measure_id])} {usual}"
    return gettext("The usual game: this skill comes up in every game.")


def rules_label(game: str) -> engine_words.Words:
    """What a practice of the rules practises: "the rules of Numero" (English as data, said in
    the reader's language when shown)."""
    spec = registry.get(game)
    name = getattr(spec.name, "words", spec.name) if spec is not None else game
    # Translators: what a practice game practises, "the rules of Numero"; the assignment's title is "Practise the rules of Numero".
    return engine_words._("the rules of %(game)s", game=name)


def level_of(game: str, options: Mapping) -> str | None:
    """The level (preset key) a game's options were dealt from: the preset all of whose options
    the game has with the same values, the one that sets the most of them (Numero's level 4
    sets the wild cards that level 2 leaves to the default); None when none fits (options set
    by hand). A focus on top (extra cards) does not hide the level underneath."""
    spec = registry.get(game)
    if spec is None or not isinstance(options, Mapping):
        return None
    best, most = None, -1
    for preset in spec.presets:
        if len(preset.options) > most and all(options.get(k) == v for k, v in preset.options.items()):
            best, most = preset.key, len(preset.options)
    return best


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
    def plain(self) -> bool:
        """The usual game at the level played: no deal gives this skill more chances
        (`why_no_focus`), or the rules, which every move practises."""
        return not self.options

    @property
    def words(self) -> list[str]:
        if self.plain:
            return [plain_words(self.game, self.measure)]
        return options_words(self.game, self.options)


def _scope(game: str, m: Measure, detail: str, options: Mapping) -> tuple[str, tuple[str, ...]]:
    """(label, the evidence details the practice counts) of a practice of `m` in `game`: the
    rules of that game, or what the game's own hooks say (`GameSkills.scope_of`)."""
    if not m.game:
        return rules_label(game), ()
    return registry.spec_for(game).skills.scope_of(m, detail, options)


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
            label = _scope(focus.game, m, focus.detail, focus.options)[0]
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


def _practised_in(m: Measure, game: str | None) -> str | None:
    """The game a practice of `m` is played in: `game`, the one the evidence came from, when it
    has the measure (Numero's measures come from Numero Solitaire too; the rules from any
    game); else the measure's own game."""
    spec = registry.get(game) if game else None
    if spec is not None and spec.skills is not None and (
            not m.game or any(own.id == m.id for own in spec.skills.measures)):
        return spec.key
    return practice_game(m.id)


def focus_for(measure_id: str, detail: str = "", weakest: Sequence[str] = (),
              game: str | None = None) -> Focus | None:
    """The practice of a measure (and detail): its game's focused deal, or the usual game when
    no deal gives the measure more chances (`Focus.plain`; `why_no_focus` says why). `weakest`
    is the student's (or the group's) weakest details of it, worst first (used when the whole
    measure is practised: the weakest times-table facts or operations); `game` the game the
    evidence came from (needed for the rules, which come up in every game). None when the
    measure has no practice: thinking time, an unknown measure, the rules with no game."""
    m = _measure(measure_id)
    if m is None or not m.has_misses:
        return None
    key = _practised_in(m, game)
    if key is None:
        return None
    skills = registry.spec_for(key).skills
    options = None
    if m.game and skills.practice is not None and measure_id not in skills.no_focus:
        options = skills.practice(measure_id, detail, tuple(weakest))
    options = dict(options or {})
    label, details = _scope(key, m, detail, options)
    return Focus(game=key, measure=measure_id, detail=detail, label=label, options=options,
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


__all__ = ["Focus", "can_practise", "focus_for", "from_json", "label_of", "level_of", "merged_options",
           "options_accepted", "options_words", "plain_words", "practice_game", "preset_for",
           "rules_label", "why_no_focus"]
